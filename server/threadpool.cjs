// Preloaded by `npm start` (node --require), before any module of the server loads:
// libuv's thread pool starts on the first file read of the ES module loader, and reads
// its size from UV_THREADPOOL_SIZE only then, so server/start.js is too late to set it.
//
// One pool thread by default (an operator's own UV_THREADPOOL_SIZE wins). On the small
// hosts this serves (2 cores: the event loop on one, the pool on the other) more threads
// add no CPU, but each one that hashes a password keeps scrypt's 16 MB in its own malloc
// arena for good: measured after 24 sign-ups, 4 threads +130 MB RSS, 2 threads +80 MB,
// 1 thread +48 MB (docs/performance.md). The pool runs scrypt and file reads (static
// files, audio previews); pages never wait on it.
process.env.UV_THREADPOOL_SIZE ??= "1";
