// docs/performance.md from a run's results: its sections in page order (the other
// bench/report/*.js), the CPU-profile sections kept from the last file, the decision records.
import fs from "node:fs";
import path from "node:path";
import { ROOT, START_FLAGS } from "../lib/index.js";
import { CFG, REPORT, MIXER, RR_VERSION } from "../lib/config.js";
import { BUDGET_REASONS } from "./budgets.js";
import { deviationsSection, stressSection } from "./defaults.js";
import { pf } from "./format.js";
import { sizesSection, lighthouseSection } from "./pages.js";
import { throughputSection, startupSection, memorySection } from "./server.js";
import { feelSection, mixSection, webhooksSection } from "./shoppers.js";
import { dropSection } from "./drop.js";

/** The whole page, section by section in the order it shows them. */
export function renderReport(r, budgets) {
  const L = [];
  const p = (s = "") => L.push(s);
  for (const section of [
    headerSection,
    budgetsSection,
    throughputSection,
    startupSection,
    memorySection,
    sizesSection,
    lighthouseSection,
    feelSection,
    mixSection,
    webhooksSection,
    dropSection,
    deviationsSection,
    stressSection,
    howToRunSection,
    methodSection,
  ])
    section(r, p, budgets);
  return L.join("\n");
}

/** The machine and the harness, and a warning when build/ moved under the run. */
function headerSection(r, p) {
  const m = r.machine;
  p("# Performance");
  p();
  p(`Measured by \`npm run bench\` (bench/run.js) on ${r.date}. Re-run it to refresh this file; the`);
  p(
    "CPU-profile sections at the end are written by `node bench/run.js profile [home|auth|orders|mixer|transmit|mix|drop-form|drop-tus|drop-download]` and kept.",
  );
  p();
  p("| machine | |");
  p("|---|---|");
  p(`| CPU | ${m.cpu} |`);
  p(`| memory | ${m.memGb.toFixed(1)} GB |`);
  p(`| Node | ${m.node} |`);
  p(`| OS | ${m.os} |`);
  p(`| load average at start (1/5/15 min) | ${m.load} (a shared machine: numbers move between runs) |`);
  p(`| commit | ${m.commit} |`);
  p(
    `| harness | ${CFG.connections} connections; throughput: ${CFG.rounds} rounds of baseline, app, each ${CFG.ratioWarmupS} s warm-up + ${CFG.ratioDurationS} s; other scenarios ${CFG.warmupS} s warm-up + ${CFG.durationS} s; localhost, client in the same 2-core box |`,
  );
  p();
  if (r.warning) {
    p(`> **Warning:** ${r.warning}`);
    p();
  }
}

/** Every budget, measured, and why each. */
function budgetsSection(r, p, budgets) {
  p("## Budgets");
  p();
  p("| budget | measured | result |");
  p("|---|---|---|");
  for (const b of budgets) p(`| ${b.name} | ${b.measured} | ${pf(b.ok)} |`);
  p();
  p(`${budgets.filter((b) => b.ok).length} of ${budgets.length} budgets pass.`);
  p();
  p("### Why these budgets");
  p();
  for (const [budget, reason] of BUDGET_REASONS) p(`- **${budget}:** ${reason}`);
  for (const b of budgets.filter((x) => x.reason)) p(`- **${b.name}:** ${b.reason}.`);
  p(
    "- The Node floor is reported, not budgeted (our `/` from memory: where the milliseconds go); so are the open-loop rows, which ran at a share of the stock page's rate. The shopper mix replaced them.",
  );
  p();
}

/** The commands and knobs. */
function howToRunSection(r, p) {
  p("## How to run");
  p();
  p("```sh");
  p(
    "npm run bench                      # ~30 min: build, both servers, seed, load, sizes, Lighthouse, stress test; writes this file",
  );
  p(
    "BENCH_DURATION=3 BENCH_RATIO_DURATION=2 BENCH_ROUNDS=1 BENCH_STARTS=2 BENCH_LH_RUNS=1 BENCH_SKIP_STRESS=1 BENCH_NO_WRITE=1 npm run bench   # quick check",
  );
  p("node bench/run.js profile              # CPU profile of GET / (node --cpu-prof, files in /tmp/prof)");
  p("node bench/run.js profile transmit     # CPU profile of the transmit POSTs");
  p("node bench/run.js profile orders       # CPU profile of GET /my-mixtapes (PROF_ORDERS=50 orders)");
  p("node bench/run.js profile mix          # CPU profile of the shopper mix (PROF_MIX_RPS=150 requests/s)");
  p("node bench/run.js profile drop-tus     # CPU profile of the drop: drop-form, drop-tus, drop-download (PROF_DROP_MB=100)");
  p("node bench/run.js cpuprofile FILE.cpuprofile [--from µs --to µs]   # aggregate any .cpuprofile");
  p("node bench/run.js mix js 150,250       # the shopper mix alone: no-js or js, rates asked");
  p("node bench/run.js webhooks 200 10 0.2  # webhooks alone: events/s, seconds, refund share");
  p("node bench/run.js drop                 # the drop's rows alone; node bench/run.js memory: the memory rows");
  p("node bench/run.js --help               # every tool (bench/scenarios/, bench/lib/) and the knobs");
  p("```");
  p();
  p(
    "Other knobs: `BENCH_WARMUP` (s), `BENCH_CONNECTIONS`, `BENCH_MIXER_ORDERS` (5000), `BENCH_SKIP_LIGHTHOUSE=1`, `BENCH_ACCEPT_ENCODING=identity`",
  );
  p(
    "(no compression), `BENCH_MIX_SHARES` (the mix's rates asked, as shares of the stock page's req/s, comma-separated), `BENCH_AB_SECONDS` (the one-trip on/off row, 5 s per page and round),",
  );
  p(
    "`BENCH_DROP_UPLOAD_MB` (300), `BENCH_DROP_DOWNLOAD_MB` (100), `BENCH_DROP_ROUNDS` (2). Never part of `npm test`. Exit status 0 when the measurement completed, budgets passing or not;",
  );
  p("non-zero when the harness broke. Every server and Chromium it starts is stopped by pid; temp dirs are removed.");
  p();
}

/** How the servers were run and seeded. */
function methodSection(r, p) {
  p("## Method notes");
  p();
  p(
    `- **Server under test**: \`node ${START_FLAGS.join(" ")} build/server/index.js\` (the flags of \`npm start\`, read from package.json;`,
  );
  p("  no `MALLOC_ARENA_MAX`) with `NODE_ENV=production`, `RATE_LIMIT_FACTOR=10000` (rate limits out of");
  p(`  the way), \`MIXER_EMAILS=${MIXER.email}\` (the /mixer scenario), a fresh temporary \`DATA_DIR\``);
  p("  (embedded PGlite backend), on 127.0.0.1 and a free port.");
  p(
    `- **Baseline** (\`bench/baseline/\`): a stock React Router ${RR_VERSION} framework-mode app with one route whose loader reads a signed`,
  );
  p(
    "  cookie session (`createCookieSessionStorage`) and renders a small page, and whose action reads a form into that session and",
  );
  p("  answers 303 (the floor of transmit), built by the same `@react-router/dev` CLI from the");
  p("  repository's node_modules (identical versions). Its server is the stock setup: express 5 + `@react-router/express` + the");
  p(
    "  `compression()` middleware, as `server/app.ts` has, and none of the app's security headers, CSP nonce and origin check: the comparison",
  );
  p("  charges the app for everything it adds on top of the framework. Both load React Router, React and React DOM as Node");
  p("  resolves them under `NODE_ENV=production`: `react-router/dist/production`, `react/cjs/react.production.js`,");
  p("  `react-dom/cjs/react-dom-server.node.production.js` (the script URLs of a CPU profile of the server; React Router 7");
  p("  resolved its development build for every Node import). The browser's bundles are Vite's production builds of all three.");
  p("- **Seeding** goes through the real forms: sign-up POST, confirmation link read from `DATA_DIR/outbox/*.json`, deck");
  p("  POSTs, and 50 orders each placed as add track → generate-code → read the code on `/review` → transmit.");
  p(
    "- **Ratios** compare requests per second (for add-track: edits per second, 2 requests each; for transmit: orders, against the stock page's form POST); start-up, the medians of as many starts of each server; Lighthouse, each page against the stock page's own run in the same Chromium.",
  );
  p("- Load generator and server share the 2 cores, and the machine is shared: expect ±15 % between runs.");
}

/** The CPU-profile sections bench/scenarios/profile.js wrote into the report (kept across runs). */
export function keepProfileSections() {
  try {
    const old = fs.readFileSync(REPORT, "utf8");
    return [...old.matchAll(/<!-- (cpu-profile-(?!notes)[\w-]*):start -->[\s\S]*?<!-- \1:end -->/g)].map((m) => m[0]);
  } catch {
    return [];
  }
}

/** A section another script wrote between `<!-- marker:start -->` and `<!-- marker:end -->` (kept across runs), or null. */
export function keptSection(marker) {
  try {
    return (
      new RegExp(`<!-- ${marker}:start -->[\\s\\S]*?<!-- ${marker}:end -->`).exec(fs.readFileSync(REPORT, "utf8"))?.[0] ?? null
    );
  } catch {
    return null;
  }
}

/** Links to the decision records: the reasons behind the numbers live there. */
export function decisionLinks() {
  const dir = path.join(ROOT, "docs/decisions");
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".md"))
        .sort()
    : [];
  return files.map(
    (f) => `- [${fs.readFileSync(path.join(dir, f), "utf8").split("\n")[0].replace(/^#\s*/, "")}](decisions/${f})`,
  );
}
