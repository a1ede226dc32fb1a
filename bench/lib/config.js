// The bench's knobs (environment), budgets, paths and log; the temp dirs it removes at the end;
// and the machine it runs on.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { BENCH_DIR, BENCH_MIXER, ROOT, now } from "./index.js";

const num = (v, d) => (v === undefined || v === "" ? d : Number(v));
export const CFG = {
  durationS: num(process.env.BENCH_DURATION, 10),
  warmupS: num(process.env.BENCH_WARMUP, 2),
  connections: num(process.env.BENCH_CONNECTIONS, 20),
  lighthouseRuns: num(process.env.BENCH_LH_RUNS, 3),
  skipLighthouse: process.env.BENCH_SKIP_LIGHTHOUSE === "1",
  skipStress: process.env.BENCH_SKIP_STRESS === "1",
  rounds: num(process.env.BENCH_ROUNDS, 3),
  ratioDurationS: num(process.env.BENCH_RATIO_DURATION, 6),
  ratioWarmupS: 1,
  starts: num(process.env.BENCH_STARTS, 5),
  mixerOrders: num(process.env.BENCH_MIXER_ORDERS, 5000),
  manyOrders: 500,
  csvRuns: 3,
  write: process.env.BENCH_NO_WRITE !== "1",
  transmitPoolPerClient: 300,
  transmitPoolMaxMs: 15_000,
  cycleS: 5,
  dropUploadMb: num(process.env.BENCH_DROP_UPLOAD_MB, 300),
  dropDownloadMb: num(process.env.BENCH_DROP_DOWNLOAD_MB, 100),
  dropRounds: num(process.env.BENCH_DROP_ROUNDS, 2),
};
export const REPORT = path.join(ROOT, "docs/performance.md");
export const DEV_BIN = path.join(ROOT, "node_modules/@react-router/dev/bin.cjs");
export const BASELINE_DIR = path.join(BENCH_DIR, "baseline");
/** The React Router the app and the stock baseline are built with (both from this node_modules). */
export const RR_VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/react-router/package.json"), "utf8")).version;
export const KB = 1000; // budgets in kB of 1000 bytes, as Vite prints them

// The budgets (BUDGET_REASONS in bench/report/budgets.js says why each; docs/performance.md prints them).
// A budget of speed is a ratio to a floor measured in the same run, on the same machine: the stock
// React Router page (bench/baseline: its GET, its form POST, its start-up, its Lighthouse run), a bare
// Node stream, nginx. A slower or busier machine moves the floor with the app, so it fails neither.
// What people feel (LCP, interaction delay, layout shift, a request's p99), bytes sent and a host's
// memory are not the machine's speed: those stay absolute.
export const BUDGETS = {
  openLoadShare: 0.5, // the open-loop latency rows (reported, not budgeted): this share of the stock page's req/s
  transmitRatio: 0.08, // transmit's orders/s against the stock page's form POST req/s (a session, a form, a redirect)
  jsOverBaselineGzipKb: 15, // the app's own JS on `/`, over the stock baseline app's
  cssGzipKb: 15,
  htmlGzipKb: 25,
  lighthouseScore: 100, // accessibility and best practices (what the machine's speed does not move)
  lcpMs: 1000, // people-felt: kept absolute
  tbtOverStockMs: 50, // each page's TBT over the stock page's own in the same run: that again, or at least this
  inpP75Ms: 100, // each kind of tap, CPU slowed 4x
  inpWorstMs: 200,
  // A load asked at a rate passes only when at least this share of the rate was achieved
  // (answers in the measured window per second), and its latency budget holds.
  achievedShare: 0.97,
  mixShare: 0.3, // the shopper mix's requests/s, in each flavour, against the stock page's req/s, every request's p99 <= mixP99Ms and none lost
  mixP99Ms: 100,
  webhooksShare: 0.24, // signed events/s against the stock page's req/s
  webhooksP99Ms: 100,
  webhooksRefundShare: 0.2, // the ledger row: a fifth of the events refund an order already paid
  dropRatio: 0.7, // the drop's uploads against a bare Node stream, its range downloads against nginx (bench/scenarios/drop-measure.js)
  dropRssGrowthMb: 64, // the server's RSS growth during each of them
  startupRatio: 8, // start-up with existing data (median of CFG.starts) against the stock server's (median of as many)
  rssMb: 350, // peak RSS with the small-host settings of docs/deploy.md (SMALL_HOST_ENV) in every scenario of the memory rows
  // The pages people open most, each as the median ratio to the stock page's req/s in the same rounds (20 connections).
  homeRatio: 0.35,
  ordersRatio: 0.4,
  mixerRatio: 0.25,
  mixerP99Ms: 200,
};

/**
 * The shopper mix's rates asked, rising, as shares of the stock page's req/s in the same run (each
 * flavour; bench/scenarios/mix.js). BENCH_MIX_SHARES overrides them; `node bench/run.js mix` alone
 * takes rates in requests/s (it measures no stock page).
 */
export const MIX_SHARES = (process.env.BENCH_MIX_SHARES ?? "0.12,0.15,0.18,0.21,0.24,0.3,0.36,0.42").split(",").map(Number);
/** The mix's rates in requests/s when it runs alone. */
export const MIX_RATES = [100, 125, 150, 175, 200, 250, 300, 350];

/** The settings docs/deploy.md gives a small (512 MB) host: the memory rows' budget holds with them. */
export const SMALL_HOST_ENV = { NODE_OPTIONS: "--max-old-space-size=192", UV_THREADPOOL_SIZE: "1" };
/** And the node flag docs/deploy.md gives it (not allowed in NODE_OPTIONS): PGlite's WebAssembly never tiered up (decision 030). */
export const SMALL_HOST_NODE_ARGS = ["--liftoff-only"];

/** One trip per request (decision 017) on and off: seconds per page and round, rounds, connections, the shopper's orders. */
export const BATCH_AB = { seconds: num(process.env.BENCH_AB_SECONDS, 5), rounds: 2, connections: 10, orders: 50 };

/** The mixer of the /mixer scenario (MIXER_EMAILS of every app start). */
export const MIXER = BENCH_MIXER;
export const APP_ENV = { MIXER_EMAILS: MIXER.email };

export const t0 = now();
export const log = (msg) => process.stderr.write(`[bench ${((now() - t0) / 1000).toFixed(1).padStart(5)}s] ${msg}\n`);
export const temps = [];

export function machine() {
  const cpus = os.cpus();
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const dirty = execFileSync(
      "git",
      ["status", "--porcelain", "--", "app", "server", "public", "vite.config.ts", "react-router.config.ts"],
      { cwd: ROOT, encoding: "utf8" },
    ).trim();
    if (dirty) commit += " (with uncommitted changes in app/server/public)";
  } catch {
    // not a git checkout
  }
  return {
    cpu: `${cpus[0]?.model ?? "unknown"} × ${cpus.length}`,
    memGb: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" / "),
    commit,
  };
}
