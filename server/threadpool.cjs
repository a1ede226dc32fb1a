// Preloaded by `npm start` (node --require), before any module of the server loads:
// libuv's thread pool starts on the first file read of the ES module loader, and reads
// its size from UV_THREADPOOL_SIZE only then, so server/start.js is too late to set it.
//
// One pool thread by default; UV_THREADPOOL_SIZE in the environment or in .env wins. On
// the small hosts this serves (2 cores: the event loop on one, the pool on the other)
// more threads add no CPU, but each one that hashes a password keeps scrypt's 16 MB in
// its own malloc arena for good: measured after 24 sign-ups, 4 threads +130 MB RSS,
// 2 threads +80 MB, 1 thread +48 MB (docs/performance.md). The pool runs scrypt and
// static file reads (assets, audio previews). Rendering pages, compressing them and
// signing cookies happen on the event loop and never queue behind a password hash.
//
// The .env file (read by server/start.js, too late for this) is consulted here for this
// one variable; the process environment wins, as it does for every other variable.
const fs = require("node:fs");
const path = require("node:path");
const { parseEnv } = require("node:util");

const envFile = path.join(__dirname, "..", ".env");
const fromFile = fs.existsSync(envFile) ? parseEnv(fs.readFileSync(envFile, "utf8")).UV_THREADPOOL_SIZE : undefined;
process.env.UV_THREADPOOL_SIZE ??= fromFile ?? "1";
