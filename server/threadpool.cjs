// @ts-check
// Preloaded by `npm start` (node --require): libuv reads UV_THREADPOOL_SIZE once, when
// the ES module loader first reads a file, so the server's own modules are too late.
// One pool thread by default (each thread that hashes a password keeps its own memory:
// docs/performance.md); UV_THREADPOOL_SIZE in the environment or in .env wins.
const fs = require("node:fs");
const path = require("node:path");
const { parseEnv } = require("node:util");

const envFile = path.join(__dirname, "..", ".env");
const fromFile = fs.existsSync(envFile) ? parseEnv(fs.readFileSync(envFile, "utf8")).UV_THREADPOOL_SIZE : undefined;
process.env.UV_THREADPOOL_SIZE ??= fromFile ?? "1";
