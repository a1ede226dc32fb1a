#!/usr/bin/env node
// The bench's one entry. `npm run bench` (no tool): every scenario in one run, the budgets PASS or
// FAIL, docs/performance.md written (bench/scenarios/all.js). `node bench/run.js TOOL [args]`: one
// scenario alone, or a helper, run as if started by itself. `node bench/run.js --help` lists them.
// The layout, as the app's: bench/scenarios/ (what is measured), bench/report/ (the report's
// sections), bench/lib/ (servers, HTTP, load, seeding, statistics, the knobs and budgets in
// config.js), bench/baseline/ (the stock React Router page every page is compared with).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Each tool: its module (which runs when it is the process's script), its arguments, what it does. */
export const TOOLS = {
  profile: {
    file: "scenarios/profile.js",
    args: "[home|auth|transmit|orders|mixer|mix|drop-form|drop-tus|drop-download]",
    does: "a CPU profile of the server under one scenario, kept in docs/performance.md",
  },
  cpuprofile: {
    file: "lib/cpuprofile.js",
    args: "FILE.cpuprofile [--from µs] [--to µs] [--top N]",
    does: "aggregates any V8 .cpuprofile by function and by module",
  },
  mix: { file: "scenarios/mix.js", args: "[no-js|js] [rates, e.g. 150,250]", does: "the shopper mix alone" },
  webhooks: {
    file: "scenarios/webhooks.js",
    args: "[events/s] [seconds] [refund share, e.g. 0.2]",
    does: "signed webhooks under load, then the ledger checked",
  },
  drop: { file: "scenarios/drop-measure.js", args: "", does: "the drop's upload and range-download rows alone" },
  memory: { file: "scenarios/memory-settings.js", args: "", does: "peak RSS with the small-host settings and without" },
  interactions: { file: "scenarios/interactions.js", args: "", does: "interaction delay and layout shift, CPU 4x slower" },
  "scripts-lcp": { file: "scenarios/scripts-lcp.js", args: "[runs=3]", does: "deferred scripts on and off (Lighthouse)" },
  batch: { file: "scenarios/batch.js", args: "[rounds]", does: "one trip per request on and off" },
  insights: { file: "scenarios/insights.js", args: "", does: "/mixer/insights against /mixer on 5,000 orders" },
  "quick-pages": {
    file: "scenarios/quick-pages.js",
    args: "[seconds=5]",
    does: "a few pages' req/s on the existing build (QUICK_ENV, QUICK_B: an A/B)",
  },
  "builds-ab": {
    file: "scenarios/builds-ab.js",
    args: "[seconds=5] [rounds=2]",
    does: "two whole builds side by side (BENCH_BUILDS)",
  },
  "forgot-timing": {
    file: "scenarios/forgot-timing.js",
    args: "[rounds=400]",
    does: "whether a forgot-password request tells addresses apart by time",
  },
  floor: { file: "scenarios/floor.js", args: "URL", does: "Node's own http serving a page's HTML: the floor" },
};

const HELP = `usage: node bench/run.js [TOOL [args]]   (npm run bench: the whole bench)

Tools (most use the existing build: run \`npx react-router build\` first):
${Object.entries(TOOLS)
  .map(([name, t]) => `  ${`${name} ${t.args}`.padEnd(62)} ${t.does}`)
  .join("\n")}

The whole bench's knobs (environment): BENCH_DURATION (s, default 10), BENCH_WARMUP (s, 2),
BENCH_CONNECTIONS (20), BENCH_ROUNDS (3 interleaved throughput rounds),
BENCH_RATIO_DURATION (s per throughput run, 6), BENCH_STARTS (5), BENCH_MIXER_ORDERS
(5000), BENCH_LH_RUNS (3), BENCH_SKIP_LIGHTHOUSE=1, BENCH_SKIP_STRESS=1, BENCH_NO_WRITE=1,
BENCH_ACCEPT_ENCODING (default "gzip, deflate, br", as browsers send; "identity": none),
BENCH_MIX_SHARES (the mix's rates asked, as shares of the stock page's req/s,
"0.12,0.15,0.18,0.21,0.24,0.3,0.36,0.42"), BENCH_AB_SECONDS
(s per page and round of the one-trip on/off row, 5), BENCH_DROP_UPLOAD_MB (300),
BENCH_DROP_DOWNLOAD_MB (100), BENCH_DROP_ROUNDS (2).
Exit status: 0 whenever the measurement completed (even with budgets FAILing); non-zero when
the harness itself broke.`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [name, ...args] = process.argv.slice(2);
  if (name === "--help" || name === "-h") {
    console.log(HELP);
  } else if (name === undefined) {
    const { runAll } = await import("./scenarios/all.js");
    process.exit((await runAll()) ? 0 : 1);
  } else if (Object.hasOwn(TOOLS, name)) {
    // The tool runs as its own script: its "am I the script" check and its arguments see itself.
    const file = path.join(HERE, TOOLS[name].file);
    process.argv = [process.argv[0], file, ...args];
    await import(pathToFileURL(file).href);
  } else {
    console.error(`bench: no tool "${name}"\n\n${HELP}`);
    process.exit(2);
  }
}
