// `npm run bench`: the performance harness, in one run. Never part of
// `npm test`. It builds the app and a stock React Router page (bench/baseline), seeds
// shoppers and orders through the real forms (and 5,000 orders straight into the data dir),
// reports each page's req/s against two floors (the stock page; Node answering our `/` from
// memory), and budgets what people feel: open-loop latency, interaction delay and layout
// shift on a 4x slower CPU, capacity for a mix of shoppers with and without JavaScript (judged
// on the rate achieved), signed webhooks and the ledger, transmit, the drop's upload and
// downloads, memory with the small-host settings in every scenario, start-up, transfer sizes,
// Lighthouse on eight pages and the stress click test; and the switches of decisions 002, 006
// and 017 on and off. It prints PASS/FAIL per budget and writes docs/performance.md.
// This file runs the scenarios in order, each beside it in bench/scenarios/; the report's sections
// are in bench/report/, the knobs (bench/run.js --help) and budgets in bench/lib/config.js.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { MEMORY_SCENARIOS, compareMemory } from "./memory-settings.js";
import { compareScripts } from "./scripts-lcp.js";
import { comparePages } from "./pages-ab.js";
import { startFloor } from "./floor.js";
import { CPU_SLOWDOWN, measureFeel } from "./interactions.js";
import { measureMix } from "./mix.js";
import { measureWebhooks } from "./webhooks.js";
import {
  ROOT,
  RssSampler,
  cannonRate,
  children,
  closedLoop,
  countMatches,
  dataDirLocked,
  expectStatus,
  freePort,
  median,
  mkTemp,
  newAgent,
  now,
  openLoop,
  readRssMb,
  startApp,
  transmitPools,
  transmitStep,
  stopChild,
} from "../lib/index.js";
import { CFG, REPORT, BUDGETS, APP_ENV, MIX_SHARES, t0, log, temps, machine } from "../lib/config.js";
import { budgetRows } from "../report/budgets.js";
import { f0, f1, kb } from "../report/format.js";
import { renderReport, keepProfileSections, keptSection, decisionLinks } from "../report/render.js";
import { build } from "./build.js";
import { measureStockPost, startStockPage } from "./stock.js";
import { batchOnOff } from "./batch.js";
import { csvExport } from "./csv.js";
import { dropScenario } from "./drop.js";
import { checkOrders } from "./database.js";
import { closeChrome, lighthousePages } from "./lighthouse.js";
import { addTrackStep, cycleStep } from "./posts.js";
import { seed, seedAccounts, seedDirect } from "./seed.js";
import { transferSizes } from "./sizes.js";
import { stressTest } from "./stress.js";
import { interleaved } from "./throughput.js";

// ---- Cleanup, whatever happens -------------------------------------------------------

async function cleanup() {
  await closeChrome();
  await Promise.all([...children].map((c) => stopChild(c, 5_000)));
  for (const dir of temps) await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
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

  // The stock page: the floor of every budget of speed, measured beside the app all through the run.
  const stock = await startStockPage();
  const baseline = stock.baseline;
  log(`baseline at ${baseline.base} (start-up ${Math.round(stock.startupMs)} ms, the median of ${stock.startups.length})`);

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
    // The console shows QUEUE_PAGE_SIZE (app/domain/queue.ts) orders a page.
    ["/mixer", mixerCookie, /data-testid="queue-order"/g, 25],
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
  // The floor of transmit: the stock page's form POST, just before it.
  load.stockPost = await measureStockPost(baseline, agent);
  show("stock page POST", load.stockPost);
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

  const { lighthouse, lighthouseStock, lighthouseVersion } = await lighthousePages({
    base,
    baseline,
    cookies: { deck: deckCookie, orders: ordersCookie, mixer: mixerCookie },
    orderCode,
  });
  await stopChild(baseline.child);

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
  log("one trip per request on and off (BATCH_DB_CALLS=1 and 0)");
  const batching = await batchOnOff();
  for (const x of batching)
    log(`  ${x.variant} · ${x.page.replaceAll("`", "")}: ${f0(x.rps)} req/s, p99 ${f1(x.p99)} ms, ${x.errors} errors`);
  log("Node's memory settings on and off: peak RSS in every scenario");
  const memorySettings = await compareMemory({ durationS: CFG.durationS, log });
  for (const x of memorySettings)
    log(`  ${x.variant}: ${MEMORY_SCENARIOS.map((s) => `${f0(x[s.key])} MB`).join(", ")} (${MEMORY_SCENARIOS.length} scenarios)`);

  // What a shopper feels and what the shop can carry, each on a server of its own.
  log(`interaction delay and layout shift (CPU ${CPU_SLOWDOWN}× slower)`);
  const feel = await measureFeel();
  for (const x of feel.interactions) log(`  ${x.kind}: p75 ${f0(x.p75)} ms, worst ${f0(x.worst)} ms`);
  for (const x of feel.shifts) log(`  CLS ${x.page} at ${x.width} px: load ${x.load.toFixed(4)}, scroll ${x.scroll.toFixed(4)}`);
  const mixes = [];
  for (const flavour of ["no-js", "js"]) {
    log(`capacity for the shopper mix: ${flavour}`);
    // Rates asked as shares of the stock page's req/s in this run.
    const rates = MIX_SHARES.map((share) => Math.max(1, Math.round(share * load.baseline.rps)));
    const mix = {
      ...(await measureMix({ flavour, rates, durationS: CFG.durationS, warmupS: CFG.warmupS })),
      stockRps: load.baseline.rps,
    };
    for (const x of mix.rows)
      log(
        `  ${x.targetRps} req/s asked: ${f0(x.rps)} achieved (${(x.ratio * 100).toFixed(1)} %), p99 ${f1(x.p99)} ms, ${x.errors} errors, ${x.lost} lost: ${x.ok ? "within budget" : "over"}`,
      );
    mixes.push(mix);
  }
  const webhooks = [];
  for (const refundShare of [0, BUDGETS.webhooksRefundShare]) {
    const rate = Math.max(1, Math.round(BUDGETS.webhooksShare * load.baseline.rps));
    log(`webhooks at ${rate} events/s${refundShare ? `, ${refundShare * 100} % refunds` : ""}`);
    const wh = {
      ...(await measureWebhooks({ rate, durationS: CFG.durationS, warmupS: CFG.warmupS, refundShare })),
      stockRps: load.baseline.rps,
    };
    log(
      `  ${f0(wh.rate)} of ${wh.asked} events/s achieved, p99 ${f1(wh.p99)} ms, ${wh.errors} errors, exactly once: ${wh.exactlyOnce}`,
    );
    webhooks.push(wh);
  }

  const drop = await dropScenario();

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
      baselineMs: stock.startupMs,
      baselineRuns: stock.startups,
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
    lighthouseStock,
    lighthouseVersion,
    deviations,
    rendering,
    batching,
    memorySettings,
    feel,
    mixes,
    webhooks,
    drop,
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
  // Kept from the last report: the before/after of the last move of the whole build (bench/scenarios/builds-ab.js),
  // what the JS of `/` carries over the stock page, module by module, and the rows beyond their budget: why.
  for (const kept of ["builds-ab", "js-weight", "beyond-budget"].map(keptSection)) if (kept) report += `\n\n${kept}`;
  report += `\n\n## Decisions\n\nWhy the app is built the way these numbers measure:\n\n${decisionLinks().join("\n")}\n`;
  report += `\n## CPU profiles\n\n${profiles.length ? profiles.join("\n\n") : "Not recorded yet: run `node bench/run.js profile` (GET /) and `node bench/run.js profile transmit`."}\n`;
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

/** The whole bench; true when the measurement completed (budgets may FAIL), false when the harness broke. */
export async function runAll() {
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      log(`${sig}: cleaning up`);
      cleanup().finally(() => process.exit(130));
    });
  }
  try {
    await main();
    return true;
  } catch (error) {
    console.error(`\nbench: the harness failed: ${error instanceof Error ? error.stack : error}`);
    return false;
  } finally {
    await cleanup();
  }
}
