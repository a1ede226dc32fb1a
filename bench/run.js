#!/usr/bin/env node
// `npm run bench`: the performance harness of issues 6, 18 and 28, in one run. Never part of
// `npm test`. It builds the app and a stock React Router page (bench/baseline), seeds
// shoppers and orders through the real forms (and 5,000 orders straight into the data dir),
// reports each page's req/s against two floors (the stock page; Node answering our `/` from
// memory), and budgets what people feel: open-loop latency, interaction delay and layout
// shift on a 4x slower CPU, capacity for a mix of shoppers, signed webhooks, transmit,
// memory, start-up, transfer sizes, Lighthouse on eight pages and the stress click test.
// It prints PASS/FAIL per budget and writes docs/performance.md.
//
// Exit status: 0 whenever the measurement completed (even with budgets FAILing);
// non-zero when the harness itself broke.
//
// Knobs (environment): BENCH_DURATION (s, default 10), BENCH_WARMUP (s, 2),
// BENCH_CONNECTIONS (20), BENCH_ROUNDS (3 interleaved throughput rounds),
// BENCH_RATIO_DURATION (s per throughput run, 6), BENCH_STARTS (5), BENCH_MIXER_ORDERS
// (5000), BENCH_LH_RUNS (3), BENCH_SKIP_LIGHTHOUSE=1, BENCH_SKIP_STRESS=1, BENCH_NO_WRITE=1,
// BENCH_ACCEPT_ENCODING (default "gzip, deflate, br", as browsers send; "identity": none).
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { execFileSync } from "node:child_process";
import { CHROMIUM_ARGS } from "../tests/support/chromium.js";
import { compareMemory } from "./memory-settings.js";
import { compareScripts } from "./scripts-lcp.js";
import { comparePages } from "./pages-ab.js";
import { startFloor } from "./floor.js";
import { CPU_SLOWDOWN, measureFeel } from "./interactions.js";
import { measureMix } from "./mix.js";
import { measureWebhooks } from "./webhooks.js";
import {
  ACCEPT_ENCODING,
  BENCH_DIR,
  BENCH_MIXER,
  Jar,
  ROOT,
  RssSampler,
  cannonGet,
  cannonRate,
  children,
  closedLoop,
  countMatches,
  dataDirLocked,
  decodeDeckCookie,
  deckIntent,
  expectStatus,
  freePort,
  median,
  mkTemp,
  newAgent,
  now,
  openLoop,
  placeOrder,
  readRssMb,
  request,
  runNode,
  seedManyAccounts,
  seedManyOrders,
  signUpShopper,
  spawnLogged,
  START_FLAGS,
  startApp,
  transmitPools,
  transmitStep,
  transmittedTo,
  stopChild,
  waitFor200,
} from "./lib.js";

const num = (v, d) => (v === undefined || v === "" ? d : Number(v));
const CFG = {
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
};
const REPORT = path.join(ROOT, "docs/performance.md");
const DEV_BIN = path.join(ROOT, "node_modules/@react-router/dev/bin.js");
const BASELINE_DIR = path.join(BENCH_DIR, "baseline");
const KB = 1000; // budgets in kB of 1000 bytes, as Vite prints them

// The budgets of issue 28 (BUDGET_REASONS says why each; docs/performance.md prints them).
const BUDGETS = {
  openLoadShare: 0.5, // the open-loop latency rows (reported, not budgeted): this share of the stock page's req/s
  transmitPerS: 300,
  jsOverBaselineGzipKb: 15, // the app's own JS on `/`, over the stock baseline app's
  cssGzipKb: 15,
  htmlGzipKb: 25,
  lighthouseScore: 100,
  lcpMs: 1000,
  tbtMs: 50,
  inpP75Ms: 100, // each kind of tap, CPU slowed 4x
  inpWorstMs: 200,
  mixRps: 250, // requests/s of the shopper mix with every request's p99 <= mixP99Ms and none lost
  mixP99Ms: 100,
  webhooksPerS: 200,
  webhooksP99Ms: 100,
  startupExistingMs: 1500, // median of CFG.starts starts
  rssMb: 350,
};
/** The mixer of the /mixer scenario (MIXER_EMAILS of every app start). */
const MIXER = BENCH_MIXER;
const APP_ENV = { MIXER_EMAILS: MIXER.email };

const t0 = now();
const log = (msg) => process.stderr.write(`[bench ${((now() - t0) / 1000).toFixed(1).padStart(5)}s] ${msg}\n`);
const temps = [];
let chrome = null;

// ---- Cleanup, whatever happens -------------------------------------------------------

async function cleanup() {
  if (chrome) {
    try {
      await chrome.kill();
    } catch {
      // already gone
    }
    chrome = null;
  }
  await Promise.all([...children].map((c) => stopChild(c, 5_000)));
  for (const dir of temps) await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
}
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    log(`${sig}: cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}

// ---- Steps -----------------------------------------------------------------------------

async function build() {
  let s = now();
  await runNode([DEV_BIN, "build"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
    name: "react-router build (app)",
  });
  const appMs = now() - s;
  log(`app built in ${(appMs / 1000).toFixed(1)} s`);
  s = now();
  await runNode([DEV_BIN, "build"], {
    cwd: BASELINE_DIR,
    env: { ...process.env, NODE_ENV: "production" },
    name: "react-router build (baseline)",
  });
  log(`baseline built in ${((now() - s) / 1000).toFixed(1)} s`);
  return { appMs };
}

async function startBaseline() {
  const port = await freePort();
  const since = now();
  const child = spawnLogged(process.execPath, [path.join(BASELINE_DIR, "server.js")], {
    cwd: BASELINE_DIR,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
    name: "baseline server",
  });
  const base = `http://127.0.0.1:${port}`;
  const startupMs = await waitFor200(`${base}/`, child, since);
  // One visitor: its signed session cookie is read on every measured request.
  const jar = new Jar();
  await expectStatus(base, { path: "/", jar }, 200);
  if (!jar.get("baseline-session")) throw new Error("the baseline set no session cookie");
  const again = await expectStatus(base, { path: "/", jar }, 200);
  if (again.setCookies.length) throw new Error("the baseline rewrote its cookie for a known visitor");
  return { child, base, jar, startupMs };
}

async function inBatches(items, size, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

async function seed(base, dataDir, loopClients) {
  const agent = newAgent(16);
  const s = now();
  // The shopper with the full deck (GET / and Lighthouse).
  const deckShopper = await signUpShopper(base, dataDir, "deck", agent);
  for (let id = 1; id <= 10; id++) await deckIntent(base, deckShopper, { intent: "add", songId: String(id) }, agent);
  const home = await expectStatus(base, { path: "/", jar: deckShopper.jar, agent }, 200);
  const tracks = countMatches(home.body, /data-testid="deck-track"/g);
  if (tracks !== 10) throw new Error(`the full deck shows ${tracks} tracks, expected 10`);

  // The shopper with 50 orders (GET /my-mixtapes), each placed the realistic way.
  const orderShopper = await signUpShopper(base, dataDir, "orders", agent);
  const seededCodes = [];
  for (let i = 0; i < 50; i++) seededCodes.push(await placeOrder(base, orderShopper, (i % 30) + 1, agent));
  // 20 a page, newest first: pages 1-2 hold 20 each, page 3 the oldest 10.
  for (const [search, expected] of [
    ["", 20],
    ["?page=3", 10],
  ]) {
    const orders = await expectStatus(base, { path: `/my-mixtapes${search}`, jar: orderShopper.jar, agent }, 200);
    const cards = countMatches(orders.body, /data-testid="order-card"/g);
    if (cards !== expected) throw new Error(`/my-mixtapes${search} shows ${cards} orders, expected ${expected}`);
  }

  // One shopper per virtual client of the POST loops, each with a 9-track deck.
  const clients = await inBatches(
    Array.from({ length: loopClients }, (_, i) => i),
    4,
    async (i) => {
      const shopper = await signUpShopper(base, dataDir, `load${i}`, agent);
      for (let id = 1; id <= 9; id++) await deckIntent(base, shopper, { intent: "add", songId: String(id) }, agent);
      shopper.has10 = false;
      return shopper;
    },
  );
  agent.destroy();
  log(`seeded ${2 + loopClients} shoppers and 50 orders in ${((now() - s) / 1000).toFixed(1)} s`);
  return { deckShopper, orderShopper, seededCodes, clients };
}

// ---- Many orders: the mixer's console and a shopper with 500 ----------------------------

/** On the first boot: the accounts of the many-orders scenarios (bench/lib.js). */
const seedAccounts = (base, dataDir) => seedManyAccounts(base, dataDir, MIXER);

/** The orders of those scenarios, straight into the stopped server's data dir. */
async function seedDirect(dataDir, accounts) {
  const s = now();
  const n = await seedManyOrders(dataDir, accounts, { total: CFG.mixerOrders, many: CFG.manyOrders });
  log(`seeded ${CFG.mixerOrders} orders into the data dir in ${((now() - s) / 1000).toFixed(1)} s (${n} in all)`);
  return n;
}

/** GET /mixer/orders.csv of every order, CFG.csvRuns times: time to the last byte, rows, RSS. */
async function csvExport(base, cookie, sampler) {
  const runs = [];
  for (let i = 0; i < CFG.csvRuns; i++) {
    sampler.start("CSV export");
    const res = await request(base, {
      path: "/mixer/orders.csv",
      headers: { cookie, "accept-encoding": ACCEPT_ENCODING },
      raw: true,
      timeout: 120_000,
    });
    sampler.stop();
    if (res.status !== 200) throw new Error(`GET /mixer/orders.csv answered ${res.status}`);
    const enc = res.headers["content-encoding"];
    const text = (
      enc === "br" ? zlib.brotliDecompressSync(res.body) : enc === "gzip" ? zlib.gunzipSync(res.body) : res.body
    ).toString("utf8");
    runs.push({ ms: res.ms, rows: text.trimEnd().split("\n").length - 1, bytes: res.body.length, rawBytes: text.length, enc });
  }
  return {
    ms: median(runs.map((r) => r.ms)),
    runsMs: runs.map((r) => r.ms),
    rows: runs[0].rows,
    bytes: runs[0].bytes,
    rawBytes: runs[0].rawBytes,
    encoding: runs[0].enc ?? "identity",
    peakRss: sampler.peaks["CSV export"],
  };
}

// ---- Throughput against the baseline, interleaved --------------------------------------

/**
 * For each round and each target: a baseline run, then the app's run. A target's ratio is
 * the median over the rounds of app req/s ÷ the req/s of the baseline run just before it,
 * so machine noise hits both sides alike.
 */
async function interleaved(targets, baseline, sampler, baseSampler) {
  const common = { connections: CFG.connections, warmupS: CFG.ratioWarmupS, durationS: CFG.ratioDurationS };
  const runs = Object.fromEntries(targets.map((t) => [t.key, []]));
  const baseRuns = [];
  for (let round = 1; round <= CFG.rounds; round++) {
    for (const t of targets) {
      baseSampler.start("baseline");
      const b = await cannonGet({ ...common, base: baseline.base, path: "/", cookie: baseline.jar.header() });
      baseSampler.stop();
      sampler.start(t.label);
      const a = await cannonGet({ ...common, base: t.base, path: t.path, cookie: t.cookie });
      sampler.stop();
      baseRuns.push(b);
      runs[t.key].push({ ...a, ratio: a.rps / b.rps, baselineRps: b.rps });
      log(
        `round ${round} ${t.label}: ${f0(a.rps)} vs baseline ${f0(b.rps)} req/s (${f2(a.rps / b.rps)}×), p99 ${f1(a.p99)} ms, errors ${a.errors}, load ${f1(a.load1)}`,
      );
    }
  }
  const summary = (list) => ({
    rps: median(list.map((x) => x.rps)),
    p50: median(list.map((x) => x.p50)),
    p99: median(list.map((x) => x.p99)),
    errors: list.reduce((n, x) => n + x.errors, 0),
    requests: list.reduce((n, x) => n + x.requests, 0),
    load1: median(list.map((x) => x.load1)),
    ratio: list[0]?.ratio === undefined ? undefined : median(list.map((x) => x.ratio)),
    ratios: list.map((x) => x.ratio),
    runs: list.length,
  });
  const out = { baseline: summary(baseRuns) };
  for (const t of targets) out[t.key] = summary(runs[t.key]);
  return out;
}

// ---- The stress click test -------------------------------------------------------------

const STRESS_SPEC = "tests/e2e/stress.spec.ts";

/**
 * `playwright test tests/e2e/stress.spec.ts --project=js-on` from this working tree, if it has the
 * file: 30 clicks of each kind (npm test runs 2 with JavaScript, 1 without).
 */
async function stressTest() {
  if (!fs.existsSync(path.join(ROOT, STRESS_SPEC))) return { ran: false, reason: `${STRESS_SPEC} is not in this working tree` };
  if (CFG.skipStress) return { ran: false, reason: "BENCH_SKIP_STRESS=1" };
  const env = { ...process.env, STRESS_ROUNDS: process.env.STRESS_ROUNDS ?? "30" };
  delete env.E2E_DATA_DIR;
  delete env.E2E_PORT;
  const s = now();
  const child = spawnLogged(
    process.execPath,
    [path.join(ROOT, "node_modules/@playwright/test/cli.js"), "test", STRESS_SPEC, "--project=js-on", "--reporter=list"],
    { env, name: "playwright stress test" },
  );
  const timer = setTimeout(() => child.kill("SIGTERM"), 30 * 60_000);
  const { code, signal } = await child.exited;
  clearTimeout(timer);
  const counts = [...child.log.matchAll(/^\s*(\d+ (?:passed|failed|flaky|skipped|did not run))/gm)].map((m) => m[1]);
  return {
    ran: true,
    ok: code === 0,
    summary: counts.join(", ") || `exit ${code ?? signal}`,
    seconds: (now() - s) / 1000,
    tail: code === 0 ? "" : child.log.slice(-2_000),
  };
}

// ---- Client transfer sizes -------------------------------------------------------------

function compressedSizes(buf) {
  return {
    raw: buf.length,
    gzip: zlib.gzipSync(buf, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(buf, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buf.length },
    }).length,
  };
}

function sumSizes(files, clientDir = path.join(ROOT, "build/client")) {
  const total = { raw: 0, gzip: 0, brotli: 0, files: [] };
  for (const f of files) {
    const s = compressedSizes(fs.readFileSync(path.join(clientDir, f)));
    total.raw += s.raw;
    total.gzip += s.gzip;
    total.brotli += s.brotli;
    total.files.push({ file: f, ...s });
  }
  return total;
}

/** The React Router manifest of the build (build/client/assets/manifest-*.js). */
function readRouterManifest(html, dir = path.join(ROOT, "build/client/assets")) {
  const version = /"version"\s*:\s*"([\w-]+)"/.exec(html)?.[1];
  const candidates = fs.readdirSync(dir).filter((f) => /^manifest-[\w-]+\.js$/.test(f));
  const file = candidates.find((f) => version && f === `manifest-${version}.js`) ?? candidates[0];
  if (!file) throw new Error("no build/client/assets/manifest-*.js");
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  const json = /window\.__reactRouterManifest\s*=\s*(\{[\s\S]*\})\s*;?\s*$/.exec(text)?.[1];
  if (!json) throw new Error(`cannot parse ${file}`);
  return { file: `assets/${file}`, manifest: JSON.parse(json) };
}

/** JS and CSS a first visit to a page loads: the entry, and each matched route with its imports. */
function pageAssets(m, routeIds) {
  const js = new Set([m.manifest.entry.module, ...m.manifest.entry.imports]);
  const css = new Set(m.manifest.entry.css ?? []);
  for (const id of routeIds) {
    const r = m.manifest.routes[id];
    if (!r) throw new Error(`route ${id} is not in the manifest`);
    if (r.module) js.add(r.module);
    for (const i of r.imports ?? []) js.add(i);
    for (const c of r.css ?? []) css.add(c);
  }
  const strip = (u) => u.replace(/^\//, "");
  return { js: [...js].map(strip), css: [...css].map(strip) };
}

/**
 * Assets the server-rendered HTML makes the browser load: modulepreload and
 * stylesheet links, script src, and the static and dynamic imports of inline
 * module scripts (not the URLs inside the inlined route manifest).
 */
function htmlAssets(html) {
  const js = new Set();
  const css = new Set();
  const attr = (tag, name) => new RegExp(`\\s${name}=["']([^"']+)["']`, "i").exec(tag)?.[1];
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attr(tag, "rel");
    const href = attr(tag, "href");
    if (!href?.startsWith("/assets/")) continue;
    if (rel === "modulepreload" || (rel === "preload" && attr(tag, "as") === "script")) js.add(href.slice(1));
    if (rel === "stylesheet") css.add(href.slice(1));
  }
  for (const [, src] of html.matchAll(/<script\b[^>]*\ssrc=["'](\/assets\/[^"']+)["']/gi)) js.add(src.slice(1));
  for (const [, body] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const [, u] of body.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\/assets\/[^"']+)["']/g))
      js.add(u.slice(1));
  }
  return { js: [...js], css: [...css] };
}

async function transferSizes(base, deckShopper, baselineBase) {
  const home = await expectStatus(base, { path: "/", jar: deckShopper.jar.clone() }, 200);
  const auth = await expectStatus(base, { path: "/auth" }, 200);
  const m = readRouterManifest(home.body);
  const pages = {
    "/": pageAssets(m, ["root", "routes/home", "routes/home/index"]),
    "/auth": pageAssets(m, ["root", "routes/auth"]),
  };
  // The framework's own floor: the stock baseline app's first-visit JS.
  const baselineHtml = await (await fetch(`${baselineBase}/`)).text();
  const bm = readRouterManifest(baselineHtml, path.join(BASELINE_DIR, "build/client/assets"));
  const baselineFiles = new Set([...pageAssets(bm, ["root", "routes/home"]).js, ...htmlAssets(baselineHtml).js]);
  const baselineJs = sumSizes([...baselineFiles], path.join(BASELINE_DIR, "build/client"));
  // What the server really sends for / (its compression middleware, per-chunk flushes included).
  const served = {};
  for (const enc of ["gzip", "br"]) {
    const res = await request(base, { path: "/", jar: deckShopper.jar.clone(), headers: { "accept-encoding": enc }, raw: true });
    served[enc] = { bytes: res.body.length, encoding: res.headers["content-encoding"] ?? "identity" };
  }
  const out = { manifestFile: m.file, pages: {}, baselineJs, servedHome: served };
  for (const [page, assets] of Object.entries(pages)) {
    const html = page === "/" ? home.body : auth.body;
    const loaded = htmlAssets(html);
    // What the page really fetches: the manifest walk plus anything else its HTML loads.
    const onlyInHtml = [...loaded.js, ...loaded.css].filter((f) => !assets.js.includes(f) && !assets.css.includes(f));
    const notInHtml = [...assets.js, ...assets.css].filter((f) => !loaded.js.includes(f) && !loaded.css.includes(f));
    out.pages[page] = {
      js: sumSizes([...new Set([...assets.js, ...loaded.js])]),
      css: sumSizes([...new Set([...assets.css, ...loaded.css])]),
      html: compressedSizes(Buffer.from(html)),
      onlyInHtml,
      notInHtml,
    };
  }
  return out;
}

// ---- Load phases -------------------------------------------------------------------

function addTrackStep(base, clients, agent) {
  const headers = { "accept-encoding": ACCEPT_ENCODING };
  return async (i) => {
    const c = clients[i];
    const adding = !c.has10;
    const started = now();
    const post = await request(base, {
      method: "POST",
      path: "/",
      form: { intent: adding ? "add" : "remove", songId: "10" },
      jar: c.jar,
      agent,
      headers,
    });
    if (post.status !== 303) return { ok: false, error: `POST / answered ${post.status}` };
    const to = String(post.headers.location ?? "/").split("#")[0] || "/";
    const get = await request(base, { path: to, jar: c.jar, agent, headers });
    if (get.status !== 200) return { ok: false, error: `GET ${to} after the POST answered ${get.status}` };
    c.has10 = adding;
    return { ok: true, ms: now() - started, kind: adding ? "add" : "remove" };
  };
}

/** The realistic order: generate-code, then transmit that code (2 POSTs per order). */
function cycleStep(base, clients, agent, ledger) {
  return async (i) => {
    const c = clients[i];
    const started = now();
    const gen = await request(base, {
      method: "POST",
      path: "/review",
      form: { intent: "generate-code" },
      headers: { cookie: c.jar.header(["mixtape-auth", "mixtape-deck"]) },
      agent,
    });
    if (gen.status !== 303) return { ok: false, error: `generate-code answered ${gen.status}` };
    const deck = new Jar().update(gen.setCookies).get("mixtape-deck");
    const code = decodeDeckCookie(deck).code;
    const res = await request(base, {
      method: "POST",
      path: "/review",
      form: { intent: "transmit", code },
      headers: { cookie: `mixtape-auth=${c.jar.get("mixtape-auth")}; mixtape-deck=${deck}` },
      agent,
    });
    if (res.status === 303 && transmittedTo(res.headers.location, code)) {
      ledger.ok.push(code);
      return { ok: true, ms: now() - started };
    }
    ledger.failed.push(code);
    return { ok: false, error: `transmit answered ${res.status}` };
  };
}

// ---- Database check ----------------------------------------------------------------

async function checkOrders(dataDir, { ok, failed, seeded, emails }) {
  if (dataDirLocked(dataDir)) throw new Error(`a process still holds ${dataDir}/mixtape.lock: cannot open the database safely`);
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(path.join(dataDir, "pgdata"));
  await db.waitReady;
  try {
    const counts = new Map();
    const all = [...ok, ...failed, ...seeded];
    const { rows } = await db.query(
      `select code, count(*)::int as n from public.mixtapes where code = any($1::text[]) group by code`,
      [all],
    );
    for (const r of rows) counts.set(r.code, r.n);
    const okSet = new Set(ok);
    const lost = ok.filter((c) => (counts.get(c) ?? 0) === 0).length;
    const duplicated = [...counts.values()].filter((n) => n > 1).length;
    const storedAfterError = failed.filter((c) => counts.has(c) && !okSet.has(c)).length;
    const seededStored = seeded.filter((c) => counts.get(c) === 1).length;
    const { rows: totals } = await db.query(
      `select count(*)::int as n from public.mixtapes m join auth.users u on u.id = m.user_id where lower(u.email) = any($1::text[])`,
      [emails.map((e) => e.toLowerCase())],
    );
    return {
      successes: ok.length,
      uniqueSuccessCodes: okSet.size,
      lost,
      duplicated,
      storedAfterError,
      failedAnswers: failed.length,
      rowsForLoadShoppers: totals[0].n,
      seededStored,
      exact: lost === 0 && duplicated === 0 && okSet.size === ok.length,
    };
  } finally {
    await db.close();
  }
}

// ---- Lighthouse ------------------------------------------------------------------------

/** A short reason for a failing audit: its value, or what its first items say. */
function auditDetail(a) {
  if (a.displayValue && a.details?.type !== "table") return a.displayValue;
  const items = a.details?.items ?? [];
  const text = items
    .slice(0, 3)
    .map((it) => {
      const where = it.sourceLocation?.url ?? it.url ?? it.source?.url;
      const what = it.description ?? it.issueType;
      return what
        ? `${what}${where ? ` [${where.replace(/^https?:\/\/[^/]+/, "")}]` : ""}`
        : (where ?? JSON.stringify(it).slice(0, 120));
    })
    .map((t) => String(t).replace(/\s+/g, " ").slice(0, 160))
    .join(" | ");
  return text || a.displayValue || String(a.score);
}

let lighthouseRetries = 0;

async function runLighthouse(pages, runs) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
    logLevel: "silent",
  });
  const results = {};
  try {
    for (const page of pages) {
      const list = [];
      for (let i = 0; i < runs; i++) {
        const flags = {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility", "best-practices"],
          ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
        };
        // Default config: the mobile preset. A run that fails to record (NO_NAVSTART and the
        // like happen on a busy machine) is repeated, at most twice.
        let lhr;
        for (let attempt = 1; ; attempt++) {
          let problem;
          try {
            ({ lhr } = await lighthouse(page.url, flags));
            if (lhr.runtimeError) problem = `${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
          } catch (e) {
            problem = e instanceof Error ? e.message : String(e);
          }
          if (!problem) break;
          if (attempt >= 3) throw new Error(`Lighthouse on ${page.name} failed 3 times: ${problem}`);
          log(`lighthouse ${page.name} run ${i + 1} failed (${problem.slice(0, 120)}): trying again`);
          lighthouseRetries++;
        }
        if (lhr.finalDisplayedUrl && new URL(lhr.finalDisplayedUrl).pathname !== new URL(page.url).pathname) {
          throw new Error(`Lighthouse on ${page.name} ended on ${lhr.finalDisplayedUrl} (signed out?)`);
        }
        const score = (k) => Math.round((lhr.categories[k]?.score ?? NaN) * 100);
        const failing = [];
        for (const cat of ["performance", "accessibility", "best-practices"]) {
          for (const ref of lhr.categories[cat].auditRefs) {
            const a = lhr.audits[ref.id];
            if (ref.weight > 0 && a.score !== null && a.score < 1) failing.push(`${cat}: ${ref.id} (${auditDetail(a)})`);
          }
        }
        list.push({
          performance: score("performance"),
          accessibility: score("accessibility"),
          bestPractices: score("best-practices"),
          lcpMs: lhr.audits["largest-contentful-paint"].numericValue,
          fcpMs: lhr.audits["first-contentful-paint"].numericValue,
          tbtMs: lhr.audits["total-blocking-time"].numericValue,
          cls: lhr.audits["cumulative-layout-shift"].numericValue,
          formFactor: lhr.configSettings.formFactor,
          failing,
        });
        log(
          `lighthouse ${page.name} run ${i + 1}: perf ${list.at(-1).performance}, a11y ${list.at(-1).accessibility}, bp ${list.at(-1).bestPractices}, LCP ${Math.round(list.at(-1).lcpMs)} ms`,
        );
      }
      const med = (k) => median(list.map((r) => r[k]));
      results[page.name] = {
        runs: list,
        performance: med("performance"),
        accessibility: med("accessibility"),
        bestPractices: med("bestPractices"),
        lcpMs: med("lcpMs"),
        fcpMs: med("fcpMs"),
        tbtMs: med("tbtMs"),
        cls: med("cls"),
        failing: [...new Set(list.flatMap((r) => r.failing))],
        formFactor: list[0].formFactor,
      };
    }
  } finally {
    await chrome.kill();
    chrome = null;
  }
  return results;
}

// ---- Report ------------------------------------------------------------------------

const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : "n/a");
const kb = (bytes) => (Number.isFinite(bytes) ? (bytes / KB).toFixed(1) : "n/a");
const pf = (ok) => (ok ? "PASS" : "**FAIL**");

function machine() {
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

function budgetRows(r) {
  const rows = [];
  const add = (name, measured, ok) => rows.push({ name, measured, ok });
  const L = r.load;
  const t = L.transmit;
  add(
    `transmit ≥ ${BUDGETS.transmitPerS} orders/s on PGlite, none lost`,
    `${f0(t.rps)} orders/s; ${r.db.lost} lost, ${r.db.duplicated} duplicated, ${t.errors} errors`,
    t.rps >= BUDGETS.transmitPerS && r.db.exact && t.errors === 0,
  );
  const js = r.sizes.pages["/"].js.gzip;
  const delta = js - r.sizes.baselineJs.gzip;
  add(
    `client JS on \`/\` over the stock baseline ≤ ${BUDGETS.jsOverBaselineGzipKb} kB gzip`,
    `${kb(delta)} kB (total ${kb(js)} kB; baseline ${kb(r.sizes.baselineJs.gzip)} kB)`,
    delta <= BUDGETS.jsOverBaselineGzipKb * KB,
  );
  const css = Math.max(r.sizes.pages["/"].css.gzip, r.sizes.pages["/auth"].css.gzip);
  add(`CSS ≤ ${BUDGETS.cssGzipKb} kB gzip`, `${kb(css)} kB`, css <= BUDGETS.cssGzipKb * KB);
  const html = r.sizes.pages["/"].html.gzip;
  add(`HTML of \`/\` ≤ ${BUDGETS.htmlGzipKb} kB gzip`, `${kb(html)} kB`, html <= BUDGETS.htmlGzipKb * KB);
  if (r.lighthouse) {
    const lh = r.lighthouse;
    const pages = Object.keys(lh);
    const all = (k, fmt = (v) => v) => pages.map((p) => `${p} ${fmt(lh[p][k])}`).join(", ");
    for (const [key, label] of [
      ["performance", "performance"],
      ["accessibility", "accessibility"],
      ["bestPractices", "best practices"],
    ]) {
      add(
        `Lighthouse ${label} = ${BUDGETS.lighthouseScore} (mobile, median of ${CFG.lighthouseRuns})`,
        all(key),
        pages.every((p) => lh[p][key] >= BUDGETS.lighthouseScore),
      );
    }
    add(
      `Lighthouse LCP ≤ ${(BUDGETS.lcpMs / 1000).toFixed(1)} s`,
      all("lcpMs", (v) => `${(v / 1000).toFixed(2)} s`),
      pages.every((p) => lh[p].lcpMs <= BUDGETS.lcpMs),
    );
    add(
      `Lighthouse TBT ≤ ${BUDGETS.tbtMs} ms`,
      all("tbtMs", (v) => `${f0(v)} ms`),
      pages.every((p) => lh[p].tbtMs <= BUDGETS.tbtMs),
    );
  } else {
    add("Lighthouse (skipped: BENCH_SKIP_LIGHTHOUSE=1)", "not measured", false);
  }
  const feel = r.feel;
  for (const x of feel.interactions) {
    add(
      `interaction delay of ${x.kind} (CPU ${CPU_SLOWDOWN}× slower, ${x.n} taps): p75 ≤ ${BUDGETS.inpP75Ms} ms, worst ≤ ${BUDGETS.inpWorstMs} ms`,
      `p75 ${f0(x.p75)} ms, worst ${f0(x.worst)} ms`,
      x.p75 <= BUDGETS.inpP75Ms && x.worst <= BUDGETS.inpWorstMs,
    );
  }
  for (const x of feel.shifts) {
    add(
      `no layout shift on \`${x.page}\` at ${x.width} px (CLS while loading and while scrolled) = 0`,
      `loading ${x.load.toFixed(4)}, scrolling ${x.scroll.toFixed(4)}`,
      x.load === 0 && x.scroll === 0,
    );
  }
  const mix = r.mix;
  add(
    `capacity for the shopper mix ≥ ${BUDGETS.mixRps} req/s with every request's p99 ≤ ${BUDGETS.mixP99Ms} ms, none lost`,
    mix.best
      ? `${f0(mix.best.rps)} req/s (${f0(mix.best.shoppersPerMin)} shoppers/min), p99 ${f1(mix.best.p99)} ms`
      : `none of the rates tried (${mix.rows.map((x) => `${x.targetRps}: p99 ${f0(x.p99)} ms`).join(", ")})`,
    Boolean(mix.best) && mix.best.rps >= BUDGETS.mixRps * 0.95,
  );
  const wh = r.webhooks;
  add(
    `${BUDGETS.webhooksPerS} signed payment events/s with replays: p99 ≤ ${BUDGETS.webhooksP99Ms} ms, each order paid exactly once`,
    `${f0(wh.rate)} events/s, p50 ${f1(wh.p50)} ms, p99 ${f1(wh.p99)} ms (warm; the first ${wh.warmupS} s worst ${f0(wh.warmupWorst)} ms), ${wh.errors} errors; ${wh.paid} paid of ${wh.distinct}, ${wh.eventRows} event rows`,
    wh.rate >= BUDGETS.webhooksPerS * 0.95 && wh.p99 <= BUDGETS.webhooksP99Ms && wh.errors === 0 && wh.exactlyOnce,
  );
  const st = r.stress;
  add(
    `no lost clicks: \`${STRESS_SPEC}\` (js-on) passes`,
    st.ran ? `${st.ok ? "passed" : "failed"}: ${st.summary}` : `not run (${st.reason})`,
    st.ran && st.ok,
  );
  add(
    `start-up with existing data ≤ ${(BUDGETS.startupExistingMs / 1000).toFixed(1)} s (median of ${r.startup.existingRuns.length})`,
    `${(r.startup.existingMs / 1000).toFixed(2)} s (${r.startup.existingRuns.map((ms) => (ms / 1000).toFixed(2)).join(", ")})`,
    r.startup.existingMs <= BUDGETS.startupExistingMs,
  );
  add(`RSS ≤ ${BUDGETS.rssMb} MB (peak under load)`, `${f0(r.rss.peak)} MB`, r.rss.peak <= BUDGETS.rssMb);
  return rows;
}

function renderReport(r, budgets) {
  const L = [];
  const p = (s = "") => L.push(s);
  const m = r.machine;
  p("# Performance");
  p();
  p(`Measured by \`npm run bench\` (bench/run.js) on ${r.date}. Re-run it to refresh this file; the`);
  p("CPU-profile sections at the end are written by `node bench/profile.js [home|auth|orders|mixer|transmit|mix]` and kept.");
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
  p(
    "- The stock React Router page and the Node floor are reported, not budgeted (a page of 30 song cards is not a two-line page); so are the open-loop rows, which ran at a share of the stock page's rate. The shopper mix replaced them.",
  );
  p();
  p("## Throughput and latency");
  p();
  p(
    `Throughput rows: ${CFG.rounds} rounds; in each, for every page, a run of the baseline and then the app's run, each ${CFG.connections}`,
  );
  p(
    `concurrent keep-alive clients (autocannon 8) for ${CFG.ratioDurationS} s after a ${CFG.ratioWarmupS} s warm-up. A page's ratio is the median over the rounds`,
  );
  p("of its req/s ÷ the req/s of the baseline run just before it; req/s, p50 and p99 are medians over the rounds, errors");
  p("and requests sums. POST rows: a closed loop of virtual clients over node:http, one shopper each. Every request sends");
  p(`\`Accept-Encoding: ${ACCEPT_ENCODING}\` as a browser does, so compression is part of the cost (app and baseline alike).`);
  p("Errors: socket errors, timeouts and any status other than the expected one (200 for GETs, 303 for POSTs).");
  p(
    "Load avg: the machine's 1-minute load average at the end of the row (median over the rounds; 2 cores, the harness itself adds about 2).",
  );
  p();
  p("The floors are reported, never budgeted: a page of 30 song cards is not a two-line page. Read down the `/` rows:");
  p("Node alone (our `/` from memory), then the stock React Router page (Node + React Router + a render), then our `/`");
  p("(our pipeline, our render, the deck cookie and the database).");
  p();
  p("| scenario | req/s | p50 ms | p99 ms | errors | requests | × stock page | × Node floor | load avg |");
  p("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  const base = r.load.baseline.rps;
  const nodeFloor = r.load.floor.rps;
  const row = (name, x, unit = "") =>
    p(
      `| ${name} | ${f0(x.rps)}${unit} | ${f1(x.p50)} | ${f1(x.p99)} | ${x.errors} | ${f0(x.requests)} | ${f2(x.ratio ?? x.rps / base)} | ${f2(x.rps / nodeFloor)} | ${f1(x.load1)} |`,
    );
  row("Node floor: `node:http` answering our `/` HTML from memory (compressed once)", r.load.floor);
  row(
    `baseline: stock React Router 7.18.4, GET \`/\` (signed cookie session), all ${r.load.baseline.runs} runs`,
    r.load.baseline,
  );
  row("GET `/` signed in, full 10-track deck", r.load.home);
  row("GET `/auth` (signed out)", r.load.auth);
  row("GET `/my-mixtapes` with 50 orders (first page: 20)", r.load.orders);
  row(`GET \`/my-mixtapes\` with ${CFG.manyOrders} orders (first page: 20)`, r.load.orders500);
  row(`GET \`/mixer\` (first page: 50 of ${f0(r.load.ordersInDb)} orders), the mixer signed in`, r.load.mixer);
  row("POST `/` add/remove track + GET of the redirect, closed loop (1 op = 2 requests)", r.load.addTrack, " op/s");
  row("POST `/review` transmit (unique codes), orders/s", r.load.transmit, " orders/s");
  row(`order cycle: POST generate-code + POST transmit (${CFG.cycleS} s), orders/s`, r.load.cycle, " orders/s");
  p();
  const o = r.load.open;
  p(`### Latency at a fixed load (open loop at ${f0(o.rate)} req/s)`);
  p();
  p(
    `${Math.round(BUDGETS.openLoadShare * 100)} % of the baseline's measured req/s (${f0(base)}), ${CFG.warmupS} s warm-up + ${CFG.durationS} s. GETs: autocannon's \`overallRate\``,
  );
  p(
    `over ${CFG.connections} connections (latency from each request's send). Add-track: an edit (POST + GET of its redirect, 2 requests) starts`,
  );
  p(
    `every ${f1(2000 / o.rate)} ms on schedule (${f1(o.rate / 2)} edits/s: the same request rate), on one of ${CFG.connections} shoppers; its latency counts from`,
  );
  p("the scheduled start, so a queue behind a slow answer shows in it.");
  p();
  p("| scenario | achieved /s | p50 ms | p99 ms | max ms | errors |");
  p("|---|---:|---:|---:|---:|---:|");
  for (const [name, x] of [
    ["GET `/` (full deck)", o.home],
    ["POST `/` add/remove + GET (edits)", o.addTrack],
    ["GET `/my-mixtapes` (50 orders)", o.orders],
  ])
    p(`| ${name} | ${f0(x.rps)} | ${f1(x.p50)} | ${f1(x.p99)} | ${f1(x.max)} | ${x.errors} |`);
  p();
  const at = r.load.addTrack.kinds;
  p(
    `Closed-loop add-track detail: the 20 clients alternate adding and removing song 10 on a 9-track deck, each edit followed by the`,
  );
  p(`GET its 303 points to. Adds only: ${f0(at.add?.count)} ops, p50 ${f1(at.add?.p50)} ms, p99 ${f1(at.add?.p99)} ms;`);
  p(`removes: p50 ${f1(at.remove?.p50)} ms, p99 ${f1(at.remove?.p99)} ms.`);
  p();
  const c = r.load.csv;
  p("### The mixer's CSV export");
  p();
  p(
    `\`GET /mixer/orders.csv\` (filter "all": every order) by the mixer, ${CFG.csvRuns} times in a row after the throughput runs, with \`Accept-Encoding: ${ACCEPT_ENCODING}\`:`,
  );
  p(
    `**${c.rows.toLocaleString("en-US")} rows in ${f0(c.ms)} ms** (median; runs ${c.runsMs.map(f0).join(", ")} ms, request to last byte), ${kb(c.rawBytes)} kB of CSV sent as`,
  );
  p(
    `${kb(c.bytes)} kB (${c.encoding}); **peak RSS of the server during the exports ${f0(c.peakRss)} MB**. The export reads and writes 500 orders at a time.`,
  );
  p();
  p(
    `The orders: ${f0(CFG.mixerOrders)} written straight into the stopped server's data dir (PGlite) after its first boot, the newest ${CFG.manyOrders} owned by one`,
  );
  p("shopper (the 500-order row) and the rest by another, each a copy of one real order (5 tracks, a note, options),");
  p("7 minutes apart, a fifth sent, a fifth mixing, a third paid; plus the orders placed through the forms.");
  p();
  p(`Transmit detail: before the measured run each client generated fresh codes with \`POST /review intent=generate-code\``);
  p(
    `(${f0(r.load.transmitPool)} deck cookies, each holding its own code and 9-10 tracks); the run then sends only the transmit POSTs,`,
  );
  p(
    `so the row is the capacity of the transmit path (session lookup + RLS insert). The order-cycle row is the full sequence per order.`,
  );
  p();
  p("### Every transmitted order, checked in the database");
  p();
  p(
    "After the server stopped (SIGTERM, its data-dir lock released) the harness opened `DATA_DIR/pgdata` with PGlite and counted `public.mixtapes` by code.",
  );
  p();
  const d = r.db;
  p("| check | value |");
  p("|---|---:|");
  p(`| transmit answers 303 → \`/\` (success), all runs incl. warm-up and order cycle | ${d.successes} |`);
  p(`| distinct codes among them | ${d.uniqueSuccessCodes} |`);
  p(`| successes not stored (lost) | ${d.lost} |`);
  p(`| codes stored more than once | ${d.duplicated} |`);
  p(`| error answers / of which stored anyway | ${d.failedAnswers} / ${d.storedAfterError} |`);
  p(`| rows of the load shoppers in \`public.mixtapes\` | ${d.rowsForLoadShoppers} |`);
  p(`| seeded orders (50, placed through /review) stored once | ${d.seededStored} |`);
  p(`| verdict | ${d.exact ? "every success stored exactly once" : "**MISMATCH**"} |`);
  p();
  p("## Start-up and memory");
  p();
  p("| measure | value |");
  p("|---|---:|");
  p(`| \`react-router build\` of the app | ${f1(r.buildMs / 1000)} s |`);
  p(`| start-up, new data dir (spawn → \`/healthz\` 200) | ${f2(r.startup.freshMs / 1000)} s |`);
  p(
    `| start-up, existing data dir (${f0(r.load.ordersInDb)} orders), median of ${r.startup.existingRuns.length} | ${f2(r.startup.existingMs / 1000)} s (${r.startup.existingRuns.map((ms) => f2(ms / 1000)).join(", ")}) |`,
  );
  p(
    `| of which the server's own "ready in" (database open + migrations + listen), new / existing | ${f2(r.startup.freshBootMs / 1000)} / ${f2(r.startup.existingBootMs / 1000)} s |`,
  );
  p(`| baseline start-up (spawn → \`/\` 200) | ${f2(r.startup.baselineMs / 1000)} s |`);
  p(`| RSS after the first boot (idle) | ${f0(r.rss.afterFresh)} MB |`);
  p(`| RSS after reopening (idle) | ${f0(r.rss.afterReopen)} MB |`);
  for (const [label, mb] of Object.entries(r.rss.peaks)) p(`| peak RSS during ${label} | ${f0(mb)} MB |`);
  p(`| **peak RSS under load** | **${f0(r.rss.peak)} MB** |`);
  p(`| baseline peak RSS during its load | ${f0(r.rss.baseline)} MB |`);
  p();
  p("RSS is VmRSS of the server process from `/proc/<pid>/status`, sampled every 100 ms during each load phase.");
  p();
  p("## Client transfer sizes");
  p();
  p(
    `From the React Router build manifest (\`build/client/${r.sizes.manifestFile}\`; Vite's own manifest is not written by this build):`,
  );
  p("a first visit loads the entry module and its imports, then the module, imports and CSS of each matched route");
  p("(`/` = root + routes/home + routes/home/index; `/auth` = root + routes/auth), cross-checked against the");
  p("modulepreload/stylesheet links and module imports in the served HTML (the route manifest is inlined in the HTML,");
  p("so `manifest-*.js` is not fetched on a first visit and is not counted).");
  p("Each file compressed on its own: gzip level 9, brotli quality 11. 1 kB = 1000 bytes.");
  p();
  p("| asset | files | raw kB | gzip kB | brotli kB |");
  p("|---|---:|---:|---:|---:|");
  for (const [page, s] of Object.entries(r.sizes.pages)) {
    p(`| JS for \`${page}\` | ${s.js.files.length} | ${kb(s.js.raw)} | ${kb(s.js.gzip)} | ${kb(s.js.brotli)} |`);
    p(`| CSS for \`${page}\` | ${s.css.files.length} | ${kb(s.css.raw)} | ${kb(s.css.gzip)} | ${kb(s.css.brotli)} |`);
  }
  const h = r.sizes.pages["/"].html;
  p(`| HTML of \`/\` (signed in, full deck) | 1 | ${kb(h.raw)} | ${kb(h.gzip)} | ${kb(h.brotli)} |`);
  const ha = r.sizes.pages["/auth"].html;
  p(`| HTML of \`/auth\` | 1 | ${kb(ha.raw)} | ${kb(ha.gzip)} | ${kb(ha.brotli)} |`);
  const bj = r.sizes.baselineJs;
  p(
    `| reference: JS of the stock baseline app (React 19 + React Router, no app code) | ${bj.files.length} | ${kb(bj.raw)} | ${kb(bj.gzip)} | ${kb(bj.brotli)} |`,
  );
  p();
  const sv = r.sizes.servedHome;
  p(
    `HTML of \`/\` as the server actually sends it (its compression middleware): ${kb(sv.gzip.bytes)} kB with \`Accept-Encoding: gzip\``,
  );
  p(
    `(${sv.gzip.encoding}), ${kb(sv.br.bytes)} kB with \`br\` (${sv.br.encoding}), against ${kb(h.gzip)} / ${kb(h.brotli)} kB for the same bytes compressed in one piece.`,
  );
  p();
  p("<details><summary>JS files of <code>/</code> (gzip kB)</summary>");
  p();
  for (const f of [...r.sizes.pages["/"].js.files].sort((a, b) => b.gzip - a.gzip))
    p(`- \`${f.file}\`: ${kb(f.raw)} raw, ${kb(f.gzip)} gzip, ${kb(f.brotli)} brotli`);
  p();
  p("</details>");
  for (const [page, s] of Object.entries(r.sizes.pages)) {
    if (s.onlyInHtml.length)
      p(`Note: the HTML of \`${page}\` also loads ${s.onlyInHtml.map((f) => `\`${f}\``).join(", ")} (counted).`);
    if (s.notInHtml.length)
      p(
        `Note: the manifest walk for \`${page}\` includes ${s.notInHtml.map((f) => `\`${f}\``).join(", ")}, which its HTML does not preload (counted).`,
      );
  }
  p();
  p("## Lighthouse");
  p();
  if (r.lighthouse) {
    p(
      `Lighthouse ${r.lighthouseVersion} (npm), Debian Chromium headless, default config = mobile preset (simulated slow 4G, 4× CPU slowdown),`,
    );
    p(
      `categories performance, accessibility, best practices; median of ${CFG.lighthouseRuns} runs${lighthouseRetries ? ` (${lighthouseRetries} failed recording(s) repeated)` : ""}. \`/\` and the review dialog`,
    );
    p(
      "(`/review`) are signed in with the full-deck shopper's cookies, `/my-mixtapes` with the 50-order shopper's, sent through Lighthouse's `extraHeaders`.",
    );
    p();
    p("| page | performance | accessibility | best practices | LCP s | FCP s | TBT ms | CLS | runs (perf / LCP s) |");
    p("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const [page, x] of Object.entries(r.lighthouse)) {
      const runs = x.runs.map((y) => `${y.performance} / ${(y.lcpMs / 1000).toFixed(2)}`).join("; ");
      p(
        `| \`${page}\` | ${x.performance} | ${x.accessibility} | ${x.bestPractices} | ${(x.lcpMs / 1000).toFixed(2)} | ${(x.fcpMs / 1000).toFixed(2)} | ${f0(x.tbtMs)} | ${x.cls.toFixed(3)} | ${runs} |`,
      );
    }
    p();
    for (const [page, x] of Object.entries(r.lighthouse)) {
      if (x.failing.length) p(`Audits below 1 on \`${page}\` (any run): ${x.failing.map((a) => `\`${a}\``).join(", ")}.`);
      p();
    }
  } else {
    p("Skipped (BENCH_SKIP_LIGHTHOUSE=1).");
    p();
  }
  p("## What a shopper on a slow phone feels");
  p();
  p(
    `Chromium with the CPU slowed ${CPU_SLOWDOWN}× (DevTools' CPU throttling), a 390 px phone, JavaScript on, on a server of its own. Interaction delay:`,
  );
  p(
    'Event Timing entries (`PerformanceObserver`, `type: "event"`, `durationThreshold: 16`); a tap\'s delay is the longest entry of its',
  );
  p("interactionId, and a tap under 16 ms (no entry) counts as 16. Layout shift: the CLS while the page loads, then while");
  p("it is scrolled top to bottom by the wheel, half a screen at a time.");
  p();
  p("| tap | taps | p75 ms | worst ms |");
  p("|---|---:|---:|---:|");
  for (const x of r.feel.interactions) p(`| ${x.kind} | ${x.n} | ${f0(x.p75)} | ${f0(x.worst)} |`);
  p();
  p("| page | width | CLS loading | CLS scrolling |");
  p("|---|---:|---:|---:|");
  for (const x of r.feel.shifts) p(`| \`${x.page}\` | ${x.width} px | ${x.load.toFixed(4)} | ${x.scroll.toFixed(4)} |`);
  p();
  const moved = r.feel.shifts.filter((x) => x.sources?.length);
  if (moved.length) {
    p("What moved (element, then its box before and after as x,y,width,height, at ms after navigation):");
    p();
    for (const x of moved)
      for (const s of x.sources)
        p(`- \`${x.page}\` at ${x.width} px, ${s.value.toFixed(4)} at ${s.at} ms: ${s.nodes.join("; ")}`);
    p();
  }
  p("## Capacity for a mix of shoppers");
  p();
  p("Virtual shoppers arrive in an open loop, each doing what a shopper without JavaScript does (every form a POST");
  p("answered by a redirect, then its page): open `/`, add 3 songs, choose a design, set an option and a note, open the");
  p("review, generate a code, transmit, open My Mixtapes and the order's page; 1 in 10 also logs out and in (scrypt).");
  p(`Each rate runs ${CFG.durationS} s; latency counts from each request's send; the orders are checked afterwards.`);
  p();
  p("| asked req/s | achieved req/s | shoppers/min | p50 ms | p99 ms | max ms | errors | lost | load avg |");
  p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const x of r.mix.rows)
    p(
      `| ${x.targetRps} | ${f0(x.rps)} | ${f0(x.shoppersPerMin)} | ${f1(x.p50)} | ${f1(x.p99)} | ${f0(x.max)} | ${x.errors} | ${x.lost} | ${f1(x.load1)} |`,
    );
  p();
  p("## Payment webhooks");
  p();
  p(
    `Signed Standard Webhooks events to \`POST /webhooks/checkout\` at ${BUDGETS.webhooksPerS}/s in an open loop for ${CFG.durationS} s, one payment per order with`,
  );
  p("replays of earlier events mixed in; afterwards the stopped server's database is read. The server is fresh: the first");
  p(
    `${r.webhooks.warmupS} s of events (counted for exactly once) warm it up, and their latency is shown apart from the p50 and p99.`,
  );
  p();
  const wh = r.webhooks;
  p(
    "| events | distinct | events/s | p50 ms | p99 ms | worst while warming up ms | errors | orders paid | event rows | exactly once |",
  );
  p("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  p(
    `| ${wh.events} | ${wh.distinct} | ${f0(wh.rate)} | ${f1(wh.p50)} | ${f1(wh.p99)} | ${f0(wh.warmupWorst)} | ${wh.errors} | ${wh.paid} | ${wh.eventRows} | ${wh.exactlyOnce ? "yes" : "**no**"} |`,
  );
  p();
  p("## Deviations from React Router's defaults, on and off");
  p();
  p(
    "Each deviation that remains has a switch and a record in `docs/decisions/`. Both settings run side by side in this run, interleaved, on `/auth` and on `/` with 5 tracks.",
  );
  p();
  if (r.deviations) {
    p("| deviation | setting | page | throttling | LCP ms | TBT ms | interactive ms | performance |");
    p("|---|---|---|---|---:|---:|---:|---:|");
    for (const x of r.deviations)
      p(
        `| deferred scripts ([002](decisions/002-deferred-scripts.md)) | ${x.variant} | \`${x.page}\` | ${x.throttling === "simulate" ? "simulated (Lighthouse's default)" : "applied (devtools: slow 4G, CPU 4×)"} | ${f0(x.lcpMs)} | ${f0(x.tbtMs)} | ${f0(x.ttiMs)} | ${x.score} |`,
      );
  } else p("Skipped (BENCH_SKIP_LIGHTHOUSE=1).");
  p();
  p(
    "The whole page rendered before it is sent ([006](decisions/006-whole-page-render.md)), against React Router's streamed template: two servers, 10 connections, two alternating rounds of 5 s per page (`/` and `/my-mixtapes` with 10 tracks):",
  );
  p();
  p("| setting | page | req/s | p99 ms | kB per answer | errors |");
  p("|---|---|---:|---:|---:|---:|");
  for (const x of r.rendering ?? [])
    p(`| ${x.variant} | \`${x.page}\` | ${f0(x.rps)} | ${f1(x.p99)} | ${f1(x.kB)} | ${x.errors} |`);
  p();
  p(
    "Node's memory settings for a small host are not part of `npm start` ([001](decisions/001-framework-defaults.md)); the README gives them. Peak RSS while 16 shoppers sign up (4 at a time) and `GET /` loads at 20 connections:",
  );
  p();
  p("| settings | peak RSS MB | during the sign-ups MB | GET / req/s | p99 ms |");
  p("|---|---:|---:|---:|---:|");
  for (const x of r.memorySettings) p(`| ${x.variant} | ${f0(x.peakMb)} | ${f0(x.signUpPeakMb)} | ${f0(x.rps)} | ${f1(x.p99)} |`);
  p();
  p("## No lost clicks");
  p();
  const st = r.stress;
  if (st.ran) {
    p(
      `\`playwright test ${STRESS_SPEC} --project=js-on\` (its own server, playwright.config.ts), run after the measurements: **${st.ok ? "passed" : "failed"}** (${st.summary}, ${f0(st.seconds)} s).`,
    );
    if (!st.ok) {
      p();
      p("```");
      p(st.tail.trim());
      p("```");
    }
  } else {
    p(`Not run: ${st.reason}.`);
  }
  p();
  p("## How to run");
  p();
  p("```sh");
  p(
    "npm run bench                      # ~25 min: build, both servers, seed, load, sizes, Lighthouse, stress test; writes this file",
  );
  p(
    "BENCH_DURATION=3 BENCH_RATIO_DURATION=2 BENCH_ROUNDS=1 BENCH_STARTS=2 BENCH_LH_RUNS=1 BENCH_SKIP_STRESS=1 BENCH_NO_WRITE=1 npm run bench   # quick check",
  );
  p("node bench/profile.js              # CPU profile of GET / (node --cpu-prof, files in /tmp/prof)");
  p("node bench/profile.js transmit     # CPU profile of the transmit POSTs");
  p("node bench/profile.js orders       # CPU profile of GET /my-mixtapes (PROF_ORDERS=50 orders)");
  p("node bench/profile.js mix          # CPU profile of the shopper mix (PROF_MIX_RPS=150 requests/s)");
  p("node bench/cpuprofile.js FILE.cpuprofile [--from µs --to µs]   # aggregate any .cpuprofile");
  p("```");
  p();
  p(
    "Other knobs: `BENCH_WARMUP` (s), `BENCH_CONNECTIONS`, `BENCH_MIXER_ORDERS` (5000), `BENCH_SKIP_LIGHTHOUSE=1`, `BENCH_ACCEPT_ENCODING=identity`",
  );
  p("(no compression). Never part of `npm test`. Exit status 0 when the measurement completed, budgets passing or not;");
  p("non-zero when the harness broke. Every server and Chromium it starts is stopped by pid; temp dirs are removed.");
  p();
  p("## Method notes");
  p();
  p(
    `- **Server under test**: \`node ${START_FLAGS.join(" ")} build/server/index.js\` (the flags of \`npm start\`, read from package.json;`,
  );
  p("  no `MALLOC_ARENA_MAX`) with `NODE_ENV=production`, `RATE_LIMIT_FACTOR=10000` (rate limits out of");
  p(`  the way), \`MIXER_EMAILS=${MIXER.email}\` (the /mixer scenario), a fresh temporary \`DATA_DIR\``);
  p("  (embedded PGlite backend), on 127.0.0.1 and a free port.");
  p(
    "- **Baseline** (`bench/baseline/`): a stock React Router 7.18.4 framework-mode app with one route whose loader reads a signed",
  );
  p(
    "  cookie session (`createCookieSessionStorage`) and renders a small page, built by the same `@react-router/dev` CLI from the",
  );
  p("  repository's node_modules (identical versions). Its server is the stock setup: express 5 + `@react-router/express` + the");
  p(
    "  `compression()` middleware, as `server/app.ts` has, and none of the app's security headers, CSP nonce and origin check: the comparison",
  );
  p("  charges the app for everything it adds on top of the framework. Both load react-router as Node resolves it (the");
  p("  package's development build, which differs from the production one by one warnings flag).");
  p("- **Seeding** goes through the real forms: sign-up POST, confirmation link read from `DATA_DIR/outbox/*.json`, deck");
  p("  POSTs, and 50 orders each placed as add track → generate-code → read the code on `/review` → transmit.");
  p("- **Ratios** compare requests per second (for add-track: edits per second, 2 requests each; for transmit: orders).");
  p("- Load generator and server share the 2 cores, and the machine is shared: expect ±15 % between runs.");
  return L.join("\n");
}

/** The CPU-profile sections bench/profile.js wrote into the report (kept across runs). */
function keepProfileSections() {
  try {
    const old = fs.readFileSync(REPORT, "utf8");
    return [...old.matchAll(/<!-- (cpu-profile-(?!notes)[\w-]*):start -->[\s\S]*?<!-- \1:end -->/g)].map((m) => m[0]);
  } catch {
    return [];
  }
}

/** Why each budget: what a shopper, the mixer or a deployer feels when it fails. */
const BUDGET_REASONS = [
  [
    "transmit ≥ 300 orders/s, none lost",
    "a launch or a sale sends orders in bursts; each must be stored exactly once, and the shop must not become the bottleneck of its own checkout.",
  ],
  [
    "client JS on `/` ≤ 15 kB gzip over the framework",
    "on slow 4G every 10 kB is about 50 ms more before the page answers a tap; the framework's own JS is the floor, the app's share is ours to keep small.",
  ],
  ["CSS ≤ 15 kB, HTML of `/` ≤ 25 kB gzip", "both block the first paint on a slow line."],
  [
    "Lighthouse 100/100/100, LCP ≤ 1.0 s, TBT ≤ 50 ms on every page (mobile)",
    "a slow phone on slow 4G: the page shows at once, nothing blocks the first taps, and it is accessible to everyone.",
  ],
  [
    "interaction delay p75 ≤ 100 ms, worst ≤ 200 ms per kind of tap, CPU 4× slower",
    "a tap whose answer takes longer than 100 ms feels laggy; 200 ms feels broken (the web's own INP thresholds).",
  ],
  ["no layout shift (CLS 0) while loading and scrolling", "a card that moves under a finger makes a shopper tap the wrong song."],
  [
    "the shopper mix ≥ 250 requests/s, every request's p99 ≤ 100 ms, none lost",
    "many shoppers doing different things at once, on one 2-core box: what a small shop needs on its busiest hour.",
  ],
  [
    "200 signed payment events/s, p99 ≤ 100 ms, each order paid once",
    "a checkout provider retries slow or failed webhooks; a replay must never pay twice.",
  ],
  ["the stress click test passes", "a click made while the page is still loading or busy is never lost."],
  ["start-up with existing data ≤ 1.5 s", "a deploy or a crash restart is a short blip, not an outage."],
  ["peak RSS ≤ 350 MB", "the app fits a small (512 MB) host with room for the system."],
];

/** Links to the decision records: the reasons behind the numbers live there. */
function decisionLinks() {
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

// ---- Main --------------------------------------------------------------------------

async function main() {
  const date = new Date().toISOString().replace("T", " ").slice(0, 16) + " UTC";
  const mach = machine();
  log(`machine: ${mach.cpu}, ${mach.memGb.toFixed(1)} GB, Node ${mach.node}, load ${mach.load}`);
  const { appMs } = await build();
  const buildStamp = () => {
    try {
      return `${fs.statSync(path.join(ROOT, "build/server/index.js")).mtimeMs}:${fs
        .readdirSync(path.join(ROOT, "build/client/assets"))
        .filter((f) => f.startsWith("manifest-"))
        .join(",")}`;
    } catch {
      return "missing";
    }
  };
  const stampAfterBuild = buildStamp();

  const dataDir = await mkTemp("mixtape-bench-");
  temps.push(dataDir);
  const port = await freePort();

  // Start-up: a new data dir; on it the accounts of the many-orders scenarios.
  const fresh = await startApp({ dataDir, port, env: APP_ENV });
  const rssAfterFresh = readRssMb(fresh.child.pid);
  log(`start-up with a new data dir: ${Math.round(fresh.startupMs)} ms (RSS ${Math.round(rssAfterFresh)} MB)`);
  const accounts = await seedAccounts(fresh.base, dataDir);
  await stopChild(fresh.child);
  if (dataDirLocked(dataDir)) throw new Error("the server still holds its data-dir lock after SIGTERM");
  const ordersInDb = await seedDirect(dataDir, accounts);

  // Start-up with the existing data dir (now holding the seeded orders): the median of
  // CFG.starts starts; the last one stays up for the measurements.
  const readyIn = (child) => Number(/ready in (\d+) ms/.exec(child.log)?.[1]);
  const starts = [];
  let app;
  for (let i = 1; i <= CFG.starts; i++) {
    app = await startApp({ dataDir, port, env: APP_ENV });
    starts.push({ ms: app.startupMs, bootMs: readyIn(app.child) });
    log(`start-up with the existing data dir, ${i} of ${CFG.starts}: ${Math.round(app.startupMs)} ms`);
    if (i < CFG.starts) await stopChild(app.child);
  }
  const rssAfterReopen = readRssMb(app.child.pid);
  const base = app.base;

  const baseline = await startBaseline();
  log(`baseline at ${baseline.base} (start-up ${Math.round(baseline.startupMs)} ms)`);

  const seeded = await seed(base, dataDir, CFG.connections);
  const sizes = await transferSizes(base, seeded.deckShopper, baseline.base);
  log(
    `sizes: JS / ${kb(sizes.pages["/"].js.gzip)} kB gzip, CSS ${kb(sizes.pages["/"].css.gzip)} kB, HTML / ${kb(sizes.pages["/"].html.gzip)} kB`,
  );

  // The sessions of the first boot still hold; the pages show what the scenarios expect.
  const cookieOf = (shopper) => shopper.jar.header(["mixtape-auth", "mixtape-deck"]);
  const deckCookie = cookieOf(seeded.deckShopper);
  const ordersCookie = cookieOf(seeded.orderShopper);
  const manyCookie = cookieOf(accounts.many);
  const mixerCookie = cookieOf(accounts.mixer);
  for (const [p, cookie, re, expected] of [
    ["/my-mixtapes", manyCookie, /data-testid="order-card"/g, 20],
    ["/mixer", mixerCookie, /data-testid="queue-order"/g, 50],
  ]) {
    const res = await expectStatus(base, { path: p, headers: { cookie } }, 200);
    const n = countMatches(res.body, re);
    if (n !== expected) throw new Error(`${p} shows ${n} orders, expected ${expected}`);
  }

  const orderCode = /href="\/my-mixtapes\/([A-Z0-9]{8})"/.exec(
    (await expectStatus(base, { path: "/my-mixtapes", headers: { cookie: ordersCookie } }, 200)).body,
  )?.[1];
  if (!orderCode) throw new Error("/my-mixtapes links no order page");
  const sampler = new RssSampler(app.child.pid);
  const baseSampler = new RssSampler(baseline.child.pid);
  const common = { connections: CFG.connections, warmupS: CFG.warmupS, durationS: CFG.durationS };
  const show = (name, x) => log(`${name}: ${f0(x.rps)}/s, p50 ${f1(x.p50)} ms, p99 ${f1(x.p99)} ms, errors ${x.errors}`);

  // Throughput, each page against the floors (the stock page, and Node answering our `/` from memory), interleaved.
  const floorHtml = (await expectStatus(base, { path: "/", headers: { cookie: deckCookie } }, 200)).body;
  const floor = await startFloor(floorHtml);
  const load = await interleaved(
    [
      { key: "floor", label: "Node floor GET / (our HTML from memory)", base: floor.base, path: "/" },
      { key: "home", label: "GET /", base, path: "/", cookie: deckCookie },
      { key: "auth", label: "GET /auth", base, path: "/auth" },
      { key: "orders", label: "GET /my-mixtapes (50 orders)", base, path: "/my-mixtapes", cookie: ordersCookie },
      { key: "orders500", label: "GET /my-mixtapes (500 orders)", base, path: "/my-mixtapes", cookie: manyCookie },
      { key: "mixer", label: `GET /mixer (${f0(ordersInDb)} orders)`, base, path: "/mixer", cookie: mixerCookie },
    ],
    baseline,
    sampler,
    baseSampler,
  );
  load.ordersInDb = ordersInDb;
  await floor.close();
  show("baseline GET / (median)", load.baseline);

  // Latency at a fixed load: an open loop at BUDGETS.openLoadShare of the baseline's req/s.
  const rate = Math.max(1, Math.round(BUDGETS.openLoadShare * load.baseline.rps));
  const agent = newAgent(CFG.connections);
  load.open = { rate };
  sampler.start("open loop");
  load.open.home = await cannonRate({ ...common, base, path: "/", cookie: deckCookie, rate });
  show(`open loop GET / at ${rate} req/s`, load.open.home);
  load.open.orders = await cannonRate({ ...common, base, path: "/my-mixtapes", cookie: ordersCookie, rate });
  show(`open loop GET /my-mixtapes at ${rate} req/s`, load.open.orders);
  const openAdd = addTrackStep(base, seeded.clients, agent);
  const opsRate = rate / 2; // an edit is 2 requests: the same request rate as the GETs
  await openLoop({ clients: seeded.clients.length, rate: opsRate, durationMs: CFG.warmupS * 1000, step: openAdd });
  load.open.addTrack = await openLoop({
    clients: seeded.clients.length,
    rate: opsRate,
    durationMs: CFG.durationS * 1000,
    step: openAdd,
  });
  show(`open loop add-track at ${f1(opsRate)} edits/s`, load.open.addTrack);
  if (load.open.addTrack.errorSamples.length) log(`  add-track errors: ${load.open.addTrack.errorSamples.join("; ")}`);
  sampler.stop();

  // The CSV export of every order, by the mixer.
  load.csv = await csvExport(base, mixerCookie, sampler);
  log(`CSV export: ${load.csv.rows} rows in ${f0(load.csv.ms)} ms (median), peak RSS ${f0(load.csv.peakRss)} MB`);
  if (load.csv.rows < ordersInDb) throw new Error(`the CSV export has ${load.csv.rows} rows, the database ${ordersInDb}`);
  await stopChild(baseline.child);

  sampler.start("add-track");
  const addStep = addTrackStep(base, seeded.clients, agent);
  await closedLoop({ workers: CFG.connections, durationMs: CFG.warmupS * 1000, step: addStep });
  load.addTrack = await closedLoop({ workers: CFG.connections, durationMs: CFG.durationS * 1000, step: addStep });
  show("POST add-track + GET", load.addTrack);
  if (load.addTrack.errorSamples.length) log(`  add-track errors: ${load.addTrack.errorSamples.join("; ")}`);
  sampler.stop();

  // Transmit: deck cookies with fresh codes first (not measured), then the transmit POSTs.
  const pools = await transmitPools(base, seeded.clients, CFG.transmitPoolPerClient, CFG.transmitPoolMaxMs);
  load.transmitPool = pools.reduce((n, p) => n + p.length, 0);
  log(`generated ${load.transmitPool} order codes`);
  const ledger = { ok: [], failed: [] };
  sampler.start("transmit");
  const tStep = transmitStep(base, pools, agent, ledger);
  await closedLoop({ workers: CFG.connections, durationMs: Math.min(1, CFG.warmupS) * 1000, step: tStep });
  load.transmit = await closedLoop({ workers: CFG.connections, durationMs: CFG.durationS * 1000, step: tStep });
  show("POST transmit", load.transmit);
  if (load.transmit.errorSamples.length) log(`  transmit errors: ${load.transmit.errorSamples.join("; ")}`);
  if (load.transmit.seconds < CFG.durationS * 0.9) log(`  (the code pool ran out after ${f1(load.transmit.seconds)} s)`);
  sampler.start("order cycle");
  load.cycle = await closedLoop({
    workers: CFG.connections,
    durationMs: CFG.cycleS * 1000,
    step: cycleStep(base, seeded.clients, agent, ledger),
  });
  show("order cycle (generate + transmit)", load.cycle);
  sampler.stop();
  agent.destroy();

  let lighthouse = null;
  let lighthouseVersion = null;
  if (!CFG.skipLighthouse) {
    lighthouseVersion = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/lighthouse/package.json"), "utf8")).version;
    lighthouse = await runLighthouse(
      [
        { name: "/auth", url: `${base}/auth` },
        { name: "/", url: `${base}/`, cookie: deckCookie },
        { name: "/my-mixtapes", url: `${base}/my-mixtapes`, cookie: ordersCookie },
        { name: "review dialog", url: `${base}/review`, cookie: deckCookie },
        { name: "order page", url: `${base}/my-mixtapes/${orderCode}`, cookie: ordersCookie },
        { name: "/account", url: `${base}/account`, cookie: ordersCookie },
        { name: "/mixer", url: `${base}/mixer`, cookie: mixerCookie },
        { name: "/mixer/insights", url: `${base}/mixer/insights`, cookie: mixerCookie },
      ],
      CFG.lighthouseRuns,
    );
  }

  await stopChild(app.child);
  log("server stopped; checking the orders in the database");
  const db = await checkOrders(dataDir, {
    ok: ledger.ok,
    failed: ledger.failed,
    seeded: seeded.seededCodes,
    emails: seeded.clients.map((c) => c.email),
  });
  log(`database: ${db.successes} successes, ${db.lost} lost, ${db.duplicated} duplicated`);

  let deviations = null;
  if (!CFG.skipLighthouse) {
    log("deferred scripts on and off (Lighthouse, both throttling methods)");
    deviations = await compareScripts(CFG.lighthouseRuns);
  }
  log("the whole page against the streamed one (BUFFER_HTML on and off)");
  const rendering = await comparePages({
    variants: [
      { name: "whole page, compressed once (BUFFER_HTML=1, the default)", env: { BUFFER_HTML: "1" } },
      { name: "streamed as React Router's template does (BUFFER_HTML=0)", env: { BUFFER_HTML: "0" } },
    ],
    seconds: 5,
    rounds: 2,
  });
  log("Node's memory settings on and off");
  const memorySettings = await compareMemory({ durationS: CFG.durationS });

  // What a shopper feels and what the shop can carry, each on a server of its own.
  log(`interaction delay and layout shift (CPU ${CPU_SLOWDOWN}× slower)`);
  const feel = await measureFeel();
  for (const x of feel.interactions) log(`  ${x.kind}: p75 ${f0(x.p75)} ms, worst ${f0(x.worst)} ms`);
  for (const x of feel.shifts) log(`  CLS ${x.page} at ${x.width} px: load ${x.load.toFixed(4)}, scroll ${x.scroll.toFixed(4)}`);
  log("capacity for the shopper mix");
  const mix = await measureMix({ durationS: CFG.durationS });
  for (const x of mix.rows)
    log(`  ${x.targetRps} req/s asked: ${f0(x.rps)} req/s, p99 ${f1(x.p99)} ms, ${x.errors} errors, ${x.lost} lost`);
  log(`webhooks at ${BUDGETS.webhooksPerS} events/s`);
  const webhooks = await measureWebhooks({ rate: BUDGETS.webhooksPerS, durationS: CFG.durationS });
  log(`  ${f0(webhooks.rate)} events/s, p99 ${f1(webhooks.p99)} ms, exactly once: ${webhooks.exactlyOnce}`);

  // The stress click test runs its own server (playwright.config.ts) once ours is gone.
  const stress = await stressTest();
  log(
    stress.ran
      ? `stress click test: ${stress.ok ? "passed" : "FAILED"} (${stress.summary})`
      : `stress click test not run: ${stress.reason}`,
  );

  const result = {
    date,
    machine: mach,
    buildMs: appMs,
    startup: {
      freshMs: fresh.startupMs,
      existingMs: median(starts.map((x) => x.ms)),
      existingRuns: starts.map((x) => x.ms),
      baselineMs: baseline.startupMs,
      freshBootMs: readyIn(fresh.child),
      existingBootMs: median(starts.map((x) => x.bootMs)),
    },
    rss: {
      afterFresh: rssAfterFresh,
      afterReopen: rssAfterReopen,
      peaks: sampler.peaks,
      peak: sampler.peak,
      baseline: baseSampler.peak,
    },
    load,
    db,
    sizes,
    lighthouse,
    lighthouseVersion,
    deviations,
    rendering,
    memorySettings,
    feel,
    mix,
    webhooks,
    stress,
  };
  if (buildStamp() !== stampAfterBuild) {
    result.warning =
      "build/ was rebuilt by another process during this run (e.g. `npm test` builds first): the server kept serving the old build from memory, so asset requests (Lighthouse, sizes) may have hit missing or different files. Re-run when the machine is quiet.";
    log(`WARNING: ${result.warning}`);
  }
  const budgets = budgetRows(result);
  let report = renderReport(result, budgets);
  const profiles = keepProfileSections();
  report += `\n\n## Decisions\n\nWhy the app is built the way these numbers measure:\n\n${decisionLinks().join("\n")}\n`;
  report += `\n## CPU profiles\n\n${profiles.length ? profiles.join("\n\n") : "Not recorded yet: run `node bench/profile.js` (GET /) and `node bench/profile.js transmit`."}\n`;
  if (CFG.write) {
    fs.mkdirSync(path.dirname(REPORT), { recursive: true });
    fs.writeFileSync(REPORT, report);
    log(`wrote ${path.relative(ROOT, REPORT)}`);
  }
  process.stdout.write(`${report}\n`);
  process.stdout.write(
    `\nBudgets:\n${budgets.map((b) => `  ${b.ok ? "PASS" : "FAIL"}  ${b.name.replaceAll("`", "")}: ${b.measured}`).join("\n")}\n`,
  );
  log(`done in ${((now() - t0) / 1000).toFixed(0)} s`);
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error(`\nbench: the harness failed: ${error instanceof Error ? error.stack : error}`);
} finally {
  await cleanup();
}
process.exit(failed ? 1 : 0);
