// Shared helpers of the benchmark harness (bench/run.js, bench/profile.js and the other
// bench/*.js), one module per concern in bench/lib/: a small keep-alive HTTP client with a
// cookie jar, starting and stopping servers, seeding shoppers through the real forms, load
// loops and statistics.
export * from "./lib/common.js";
export * from "./lib/stats.js";
export * from "./lib/http.js";
export * from "./lib/servers.js";
export * from "./lib/seeding.js";
export * from "./lib/load.js";
