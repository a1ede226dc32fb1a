// Shared helpers of the benchmark harness (every scenario of bench/scenarios/ and the report),
// one module per concern beside this one: a small keep-alive HTTP client with a cookie jar,
// starting and stopping servers, seeding shoppers through the real forms, load loops and
// statistics.
export * from "./common.js";
export * from "./stats.js";
export * from "./http.js";
export * from "./servers.js";
export * from "./seeding.js";
export * from "./load.js";
