// The report's sections on the server: throughput and latency, start-up and memory.
import { ACCEPT_ENCODING } from "../lib/index.js";
import { CFG, BUDGETS, RR_VERSION } from "../lib/config.js";
import { MEMORY_SCENARIOS } from "../scenarios/memory-settings.js";
import { f0, f1, f2, kb, pf } from "./format.js";

/** Throughput against the floors, latency at a fixed load, the POST loops, the CSV export, the database check. */
export function throughputSection(r, p) {
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
  p(
    "The stock page is the floor the budgets of these rows divide by (the Budgets table); the Node floor is reported only. Read down the `/` rows:",
  );
  p("Node alone (our `/` from memory), then the stock React Router page (Node + React Router + a render), then our `/`");
  p(
    "(our pipeline, our render, the deck cookie and the database). The POST rows read against the stock page's form POST (its session",
  );
  p("read, a form parsed, the session written, a 303), measured just before transmit: the `× stock POST` column.");
  p();
  p("| scenario | req/s | p50 ms | p99 ms | errors | requests | × stock page | × stock POST | × Node floor | load avg |");
  p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  const base = r.load.baseline.rps;
  const nodeFloor = r.load.floor.rps;
  const stockPost = r.load.stockPost?.rps;
  const row = (name, x, unit = "", post = false) =>
    p(
      `| ${name} | ${f0(x.rps)}${unit} | ${f1(x.p50)} | ${f1(x.p99)} | ${x.errors} | ${f0(x.requests)} | ${f2(x.ratio ?? x.rps / base)} | ${post ? f2(x.rps / stockPost) : ""} | ${f2(x.rps / nodeFloor)} | ${f1(x.load1)} |`,
    );
  row("Node floor: `node:http` answering our `/` HTML from memory (compressed once)", r.load.floor);
  row(
    `baseline: stock React Router ${RR_VERSION}, GET \`/\` (signed cookie session), all ${r.load.baseline.runs} runs`,
    r.load.baseline,
  );
  if (r.load.stockPost)
    row(
      "stock React Router page: POST `/?index` (session read, form parsed, session written, 303), closed loop",
      r.load.stockPost,
      "",
      true,
    );
  row("GET `/` signed in, full 10-track deck", r.load.home);
  row("GET `/auth` (signed out)", r.load.auth);
  row("GET `/my-mixtapes` with 50 orders (first page: 20)", r.load.orders);
  row(`GET \`/my-mixtapes\` with ${CFG.manyOrders} orders (first page: 20)`, r.load.orders500);
  row(`GET \`/mixer\` (first page: 25 of ${f0(r.load.ordersInDb)} orders), the mixer signed in`, r.load.mixer);
  row("POST `/` add/remove track + GET of the redirect, closed loop (1 op = 2 requests)", r.load.addTrack, " op/s", true);
  row("POST `/review` transmit (unique codes), orders/s", r.load.transmit, " orders/s", true);
  row(`order cycle: POST generate-code + POST transmit (${CFG.cycleS} s), orders/s`, r.load.cycle, " orders/s", true);
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
  p("| scenario | asked /s | achieved /s | achieved ÷ asked | p50 ms | p99 ms | max ms | errors |");
  p("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const [name, x] of [
    ["GET `/` (full deck)", o.home],
    ["POST `/` add/remove + GET (edits)", o.addTrack],
    ["GET `/my-mixtapes` (50 orders)", o.orders],
  ])
    p(
      `| ${name} | ${f1(x.asked)} | ${f1(x.rps)} | ${((x.rps / x.asked) * 100).toFixed(1)} % | ${f1(x.p50)} | ${f1(x.p99)} | ${f1(x.max)} | ${x.errors} |`,
    );
  p();
  p(
    "Achieved: the answers within the measured seconds, per second (autocannon's count for the GETs; the edits answered within the scheduled duration). Below the rate asked, the server fell behind and the latency shows the queue.",
  );
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
}

/** Build and start-up times, and memory. */
export function startupSection(r, p) {
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
  p(
    `| the stock server's start-up (spawn → \`/\` 200), median of ${r.startup.baselineRuns.length} | ${f2(r.startup.baselineMs / 1000)} s (${r.startup.baselineRuns.map((ms) => f2(ms / 1000)).join(", ")}); the shop's existing-data start-up is ${f1(r.startup.existingMs / r.startup.baselineMs)}× it |`,
  );
  p(`| RSS after the first boot (idle) | ${f0(r.rss.afterFresh)} MB |`);
  p(`| RSS after reopening (idle) | ${f0(r.rss.afterReopen)} MB |`);
  for (const [label, mb] of Object.entries(r.rss.peaks)) p(`| peak RSS during ${label} | ${f0(mb)} MB |`);
  p(
    `| **peak RSS under load** (Node's defaults; the budget is with the small-host settings, below) | **${f0(r.rss.peak)} MB** |`,
  );
  p(`| baseline peak RSS during its load | ${f0(r.rss.baseline)} MB |`);
  p();
  p("RSS is VmRSS of the server process from `/proc/<pid>/status`, sampled every 100 ms during each load phase.");
  p();
}

/** Peak RSS with the small-host settings of docs/deploy.md and with Node's defaults, in every scenario of the memory rows. */
export function memorySection(r, p) {
  p("## Memory on a small host");
  p();
  p(
    "A 512 MB host must never be killed for memory: with the small-host settings of docs/deploy.md the server's peak RSS stays within the budget in every scenario below, and Node's defaults (`npm start`, [001](decisions/001-framework-defaults.md)) are shown beside for comparison.",
  );
  const m = r.memorySettings;
  const drop = m.find((x) => x.uploadMb !== undefined);
  p(
    `Each settings on servers of their own: a new data dir whose first start is sampled from the spawn (the build's empty cluster copied, [019](decisions/019-first-boot.md)), then 16 shoppers signing up 4 at a time, then \`GET /\` signed in at 20 connections for ${CFG.durationS} s;${drop ? ` then the drop's rows once each (a ${f0(drop.uploadMb)} MB tape by the plain form and by tus, 20 range readers of a ${f0(drop.downloadMb)} MB tape).` : ""}`,
  );
  p("VmRSS from `/proc/<pid>/status`, every 100 ms (the drop's runs every 50 ms).");
  p();
  p(`| scenario | ${m.map((x) => `${x.variant} MB`).join(" | ")} | ≤ ${BUDGETS.rssMb} MB with the small-host settings |`);
  p(`|---|${m.map(() => "---:").join("|")}|---|`);
  const small = m.find((x) => x.small);
  const rows = [
    { key: "firstStartMb", name: "first start on a new data dir" },
    { key: "signUpPeakMb", name: "16 sign-ups, 4 at a time" },
    ...MEMORY_SCENARIOS,
    { key: "formPeakMb", name: "of which the plain-form upload" },
    { key: "tusPeakMb", name: "of which the tus upload" },
  ];
  const budgeted = new Set(MEMORY_SCENARIOS.map((s) => s.key));
  for (const row of rows) {
    if (small[row.key] === undefined) continue;
    const verdict = budgeted.has(row.key) ? pf(small[row.key] <= BUDGETS.rssMb) : "";
    p(`| ${row.name} | ${m.map((x) => f0(x[row.key])).join(" | ")} | ${verdict} |`);
  }
  p(`| GET / req/s (p99 ms) | ${m.map((x) => `${f0(x.rps)} (${f1(x.p99)})`).join(" | ")} | |`);
  p();
}
