#!/usr/bin/env node
// CPU profile of the app server under one load scenario:
//   node bench/run.js profile            GET / signed in with a full deck (autocannon)
//   node bench/run.js profile auth       GET /auth signed out
//   node bench/run.js profile transmit   POST /review intent=transmit, unique codes
//   node bench/run.js profile orders     GET /my-mixtapes of a shopper with 50 orders (PROF_ORDERS)
//   node bench/run.js profile mixer      GET /mixer, the mixer signed in, 5,000 orders (PROF_ORDERS)
//   node bench/run.js profile mix        the shopper mix of bench/scenarios/mix.js at PROF_MIX_RPS requests/s (150)
//   node bench/run.js profile drop-form  the drop's plain-form upload, again and again (PROF_DROP_MB, 100)
//   node bench/run.js profile drop-tus   the drop's tus upload (16 MB PATCHes), again and again
//   node bench/run.js profile drop-download  20 range readers of the drop's tape (PROF_DROP_MB)
// Uses the existing build (builds when there is none). Starts
// `node --cpu-prof --cpu-prof-dir=$PROF_DIR build/server/index.js` (PROF_DIR defaults to
// /tmp/prof) on a fresh DATA_DIR, seeds through the real forms, warms up, runs the
// measured window, stops the server (V8 writes the profile at exit) and aggregates
// only the samples of the measured window (bench/lib/cpuprofile.js). The summary is
// printed and stored in docs/performance.md between this scenario's markers.
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import {
  BENCH_MIXER,
  ROOT,
  cannon,
  children,
  closedLoop,
  deckIntent,
  freePort,
  mkTemp,
  newAgent,
  placeOrder,
  runNode,
  seedManyAccounts,
  seedManyOrders,
  signUpShopper,
  startApp,
  stopChild,
  transmitPools,
  transmitStep,
} from "../lib/index.js";
import { summarize, toMarkdown } from "../lib/cpuprofile.js";
import { REQUESTS_PER_VISIT, atRate, mixAccounts } from "./mix.js";
import { formUpload, rangeReaders, sendDrop, startDropApp, tusUpload, writeWav } from "./drop-measure.js";

const DROP_MB = Number(process.env.PROF_DROP_MB ?? 100);
const SCENARIOS = {
  home: { marker: "cpu-profile", title: "`GET /` signed in with a full 10-track deck (autocannon, 20 connections)" },
  transmit: {
    marker: "cpu-profile-transmit",
    title: "`POST /review` intent=transmit with unique codes (20 clients, one shopper each)",
  },
  auth: { marker: "cpu-profile-auth", title: "`GET /auth` signed out (autocannon, 20 connections)" },
  mixer: {
    marker: "cpu-profile-mixer",
    title: `\`GET /mixer\` first page, the mixer signed in, ${Number(process.env.PROF_ORDERS ?? 5000)} orders (autocannon, 20 connections)`,
  },
  mix: {
    marker: "cpu-profile-mix",
    title: `The shopper mix at ${Number(process.env.PROF_MIX_RPS ?? 150)} requests/s (bench/scenarios/mix.js: every form a POST and its redirect)`,
  },
  "drop-form": {
    marker: "cpu-profile-drop-form",
    title: `The drop's plain-form upload of a ${DROP_MB} MB WAV (multipart → busboy → content check → disk store), one after another`,
  },
  "drop-tus": {
    marker: "cpu-profile-drop-tus",
    title: `The drop's tus upload of a ${DROP_MB} MB WAV (16 MB PATCHes → staged → content check → disk store), one after another`,
  },
  "drop-download": {
    marker: "cpu-profile-drop-download",
    title: `The drop's downloads: 20 readers of a ${DROP_MB} MB tape by 8 MB ranges (session check → disk store)`,
  },
  orders: {
    marker: "cpu-profile-orders",
    title: `\`GET /my-mixtapes\` of a shopper with ${Number(process.env.PROF_ORDERS ?? 50)} orders (autocannon, 20 connections)`,
  },
};
const scenario = process.argv[2] ?? "home";
if (!SCENARIOS[scenario]) {
  console.error(`usage: node bench/run.js profile [${Object.keys(SCENARIOS).join("|")}]`);
  process.exit(2);
}
const PROF_DIR = process.env.PROF_DIR ?? "/tmp/prof";
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const REPORT = path.join(ROOT, "docs/performance.md");
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

/** The measured page once more: kept in PROF_DIR/<scenario>.html; its raw and gzip size go in the summary. */
async function pageSize(url, headers) {
  const html = await (await fetch(url, { headers })).text();
  fs.writeFileSync(path.join(PROF_DIR, `${scenario}.html`), html);
  const kb = (n) => (n / 1024).toFixed(1);
  return `The page: ${kb(Buffer.byteLength(html))} kB of HTML, ${kb(zlib.gzipSync(html).length)} kB gzip.`;
}

async function loadHome(app, dataDir) {
  const agent = newAgent(4);
  const shopper = await signUpShopper(app.base, dataDir, "prof", agent);
  for (let id = 1; id <= 10; id++) await deckIntent(app.base, shopper, { intent: "add", songId: String(id) }, agent);
  agent.destroy();
  const headers = { cookie: shopper.jar.header(["mixtape-auth", "mixtape-deck"]) };
  await cannon({ url: `${app.base}/`, connections: 20, duration: 2, headers });
  const from = monoUs();
  const r = await cannon({ url: `${app.base}/`, connections: 20, duration: DURATION, headers });
  const to = monoUs();
  if (r.non2xx || r.errors) throw new Error(`GET / answered ${r.non2xx} non-2xx and ${r.errors} errors while profiling`);
  const size = await pageSize(`${app.base}/`, headers);
  return { from, to, rate: `${Math.round(r.requests.total / r.duration)} req/s, p99 ${r.latency.p99} ms`, page: size };
}

async function loadAuth(app) {
  const url = `${app.base}/auth`;
  await cannon({ url, connections: 20, duration: 2 });
  const from = monoUs();
  const r = await cannon({ url, connections: 20, duration: DURATION });
  const to = monoUs();
  if (r.non2xx || r.errors) throw new Error(`GET /auth answered ${r.non2xx} non-2xx and ${r.errors} errors while profiling`);
  const page = await pageSize(url, {});
  return { from, to, rate: `${Math.round(r.requests.total / r.duration)} req/s, p99 ${r.latency.p99} ms`, page };
}

async function loadOrders(app, dataDir) {
  const agent = newAgent(4);
  const shopper = await signUpShopper(app.base, dataDir, "prof", agent);
  const n = Number(process.env.PROF_ORDERS ?? 50);
  for (let i = 0; i < n; i++) await placeOrder(app.base, shopper, (i % 30) + 1, agent);
  agent.destroy();
  const headers = { cookie: shopper.jar.header(["mixtape-auth", "mixtape-deck"]) };
  const url = `${app.base}/my-mixtapes`;
  await cannon({ url, connections: 20, duration: 2, headers });
  const from = monoUs();
  const r = await cannon({ url, connections: 20, duration: DURATION, headers });
  const to = monoUs();
  if (r.non2xx || r.errors)
    throw new Error(`GET /my-mixtapes answered ${r.non2xx} non-2xx and ${r.errors} errors while profiling`);
  const size = await pageSize(url, headers);
  return { from, to, rate: `${Math.round(r.requests.total / r.duration)} req/s, p99 ${r.latency.p99} ms`, page: size };
}

/** The mixer scenario: its orders go in while the server is down, so this restarts it. */
async function loadMixer(app, dataDir, restart) {
  const accounts = await seedManyAccounts(app.base, dataDir);
  await stopChild(app.child);
  await seedManyOrders(dataDir, accounts, { total: Number(process.env.PROF_ORDERS ?? 5000), many: 500 });
  const again = await restart();
  const headers = { cookie: accounts.mixer.jar.header(["mixtape-auth", "mixtape-deck"]) };
  const url = `${again.base}/mixer`;
  await cannon({ url, connections: 20, duration: 2, headers });
  const from = monoUs();
  const r = await cannon({ url, connections: 20, duration: DURATION, headers });
  const to = monoUs();
  if (r.non2xx || r.errors) throw new Error(`GET /mixer answered ${r.non2xx} non-2xx and ${r.errors} errors while profiling`);
  const size = await pageSize(url, headers);
  return {
    app: again,
    from,
    to,
    rate: `${Math.round(r.requests.total / r.duration)} req/s, p99 ${r.latency.p99} ms`,
    page: size,
  };
}

async function loadTransmit(app, dataDir) {
  const agent = newAgent(20);
  const clients = [];
  for (let i = 0; i < 20; i += 4) {
    clients.push(
      ...(await Promise.all(
        [0, 1, 2, 3].map(async (k) => {
          const s = await signUpShopper(app.base, dataDir, `tx${i + k}`, agent);
          for (let id = 1; id <= 9; id++) await deckIntent(app.base, s, { intent: "add", songId: String(id) }, agent);
          return s;
        }),
      )),
    );
  }
  const pools = await transmitPools(app.base, clients, 200, 15_000);
  const ledger = { ok: [], failed: [] };
  const step = transmitStep(app.base, pools, agent, ledger);
  await closedLoop({ workers: 20, durationMs: 1_000, step });
  const from = monoUs();
  const r = await closedLoop({ workers: 20, durationMs: DURATION * 1000, step });
  const to = monoUs();
  agent.destroy();
  if (r.errors) throw new Error(`transmit: ${r.errors} errors while profiling: ${r.errorSamples.join("; ")}`);
  return { from, to, rate: `${Math.round(r.rps)} orders/s, p99 ${r.p99.toFixed(0)} ms` };
}

async function loadMix(app, dataDir) {
  const agent = newAgent(4);
  const accounts = await mixAccounts(app.base, dataDir, agent);
  agent.destroy();
  const rps = Number(process.env.PROF_MIX_RPS ?? 150);
  const from = monoUs();
  const r = await atRate(app.base, accounts, rps / REQUESTS_PER_VISIT, DURATION * 1000);
  const to = monoUs();
  if (r.errors.length) throw new Error(`the mix: ${r.errors.length} errors while profiling: ${r.errors[0]}`);
  const p = (q) => r.latencies[Math.min(r.latencies.length - 1, Math.floor((q / 100) * r.latencies.length))];
  return {
    from,
    to,
    rate: `${Math.round(r.requests / r.seconds)} req/s (${r.visits} visits), p50 ${p(50).toFixed(0)} ms, p99 ${p(99).toFixed(0)} ms`,
  };
}

/** The drop's rows, on a server of their own (bench/scenarios/drop-measure.js): its uploads or downloads, repeated through the window. */
function loadDrop(kind) {
  return async (_app, _dataDir, _start, nodeArgs) => {
    const app = await startDropApp(DROP_MB, {}, nodeArgs);
    const work = await mkTemp("mixtape-prof-drop-");
    try {
      const file = path.join(work, "tape.wav");
      await writeWav(file, Math.round(DROP_MB * 1024 * 1024));
      const size = fs.statSync(file).size;
      let once;
      if (kind === "download") {
        await formUpload(app, app.mixer, app.code, file);
        await sendDrop(app);
        const cookie = app.shopper.jar.header();
        once = () => rangeReaders(app.base, `/my-mixtapes/${app.code}/tape`, size, { cookie });
      } else {
        once = () => (kind === "form" ? formUpload : tusUpload)(app, app.mixer, app.code, file);
      }
      await once(); // warm-up
      const from = monoUs();
      let runs = 0;
      while (monoUs() - from < DURATION * 1e6) {
        await once();
        runs++;
      }
      const to = monoUs();
      const mb = (runs * size * (kind === "download" ? 20 : 1)) / (1024 * 1024);
      return { app, from, to, rate: `${runs} runs, ${(mb / ((to - from) / 1e6)).toFixed(1)} MB/s`, cleanup: () => app.stop() };
    } finally {
      await fsp.rm(work, { recursive: true, force: true });
    }
  };
}

let dataDir;
try {
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) {
    await runNode([path.join(ROOT, "node_modules/@react-router/dev/bin.cjs"), "build"], {
      env: { ...process.env, NODE_ENV: "production" },
    });
  }
  fs.mkdirSync(PROF_DIR, { recursive: true });
  const before = new Set(fs.readdirSync(PROF_DIR));
  dataDir = await mkTemp("mixtape-prof-");
  const port = await freePort();
  const start = () =>
    startApp({
      dataDir,
      port,
      nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${PROF_DIR}`],
      env: { MIXER_EMAILS: BENCH_MIXER.email },
    });
  const drop = scenario.startsWith("drop-");
  // The drop's scenarios start a server of their own (DROP_MAX_MB above the tape).
  let app = drop ? null : await start();
  const load = {
    home: loadHome,
    auth: loadAuth,
    transmit: loadTransmit,
    orders: loadOrders,
    mixer: loadMixer,
    mix: loadMix,
    "drop-form": loadDrop("form"),
    "drop-tus": loadDrop("tus"),
    "drop-download": loadDrop("download"),
  }[scenario];
  const measured = await load(app, dataDir, start, ["--cpu-prof", `--cpu-prof-dir=${PROF_DIR}`]);
  const { from, to, rate, page } = measured;
  app = measured.app ?? app;
  await stopChild(app.child);
  await measured.cleanup?.();

  // One file per thread (the module-hooks thread has its own): take the main thread's (tid 0).
  const fresh = fs.readdirSync(PROF_DIR).filter((f) => f.endsWith(".cpuprofile") && !before.has(f));
  const main = fresh.filter((f) => f.includes(`.${app.child.pid}.0.`));
  const file = (main.length ? main : fresh)
    .map((f) => path.join(PROF_DIR, f))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  if (!file) throw new Error(`no new .cpuprofile in ${PROF_DIR} (did the server exit cleanly?)`);
  const profile = JSON.parse(fs.readFileSync(file, "utf8"));
  if (profile.startTime > from || profile.endTime < to) {
    throw new Error(
      `the profile (${profile.startTime}..${profile.endTime} µs) does not cover the load window (${from}..${to} µs)`,
    );
  }
  const summary = summarize(profile, { from, to, top: 20 });
  const loadAvg = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" / ");
  const { marker, title } = SCENARIOS[scenario];
  const md = [
    `<!-- ${marker}:start -->`,
    `### ${title}`,
    "",
    `Recorded by \`node bench/run.js profile${scenario === "home" ? "" : ` ${scenario}`}\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC (load ${loadAvg} on ${os.availableParallelism()} cores) with`,
    `\`node --cpu-prof build/server/index.js\`: ${rate} while profiling (the profiler slows the server down), ${DURATION} s window;`,
    `only the samples inside the measured window are counted. Re-aggregate with`,
    `\`node bench/run.js cpuprofile ${file} --from ${from} --to ${to}\`.`,
    ...(page ? ["", page] : []),
    "",
    toMarkdown(summary, { top: 20 }),
    `<!-- ${marker}:end -->`,
  ].join("\n");
  console.log(md);
  console.log("\n**Total time by function** (top)\n");
  for (const r of summary.totalByFunction)
    console.log(`${r.ms.toFixed(0).padStart(7)} ms ${r.pct.toFixed(1).padStart(5)} %  ${r.key}`);
  const re = new RegExp(`<!-- ${marker}:start -->[\\s\\S]*?<!-- ${marker}:end -->`);
  const old = fs.existsSync(REPORT) ? fs.readFileSync(REPORT, "utf8") : "# Performance\n";
  const next = re.test(old)
    ? old.replace(re, () => md)
    : /\n## CPU profiles\n/.test(old)
      ? `${old.trimEnd().replace(/\nNot recorded yet: run `node bench\/profile\.js`[^\n]*$/, "")}\n\n${md}\n`
      : `${old.trimEnd()}\n\n## CPU profiles\n\n${md}\n`;
  fs.mkdirSync(path.dirname(REPORT), { recursive: true });
  fs.writeFileSync(REPORT, next);
} catch (error) {
  console.error(`profile: ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 1;
} finally {
  await Promise.all([...children].map((c) => stopChild(c, 5_000)));
  // PROF_KEEP=1 keeps the data dir (say, to EXPLAIN a query against it).
  if (dataDir && !process.env.PROF_KEEP) await fsp.rm(dataDir, { recursive: true, force: true });
  else if (dataDir) console.log(`data dir kept: ${dataDir}`);
}
