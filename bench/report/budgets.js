// The budgets' rows of the report: what was measured against each, and why each budget.
import { CPU_SLOWDOWN } from "../scenarios/interactions.js";
import { CFG, KB, BUDGETS } from "../lib/config.js";
import { f0, f1, kb } from "./format.js";
import { STRESS_SPEC } from "../scenarios/stress.js";
import { carried } from "../lib/index.js";
import { MEMORY_SCENARIOS } from "../scenarios/memory-settings.js";

export function budgetRows(r) {
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
  for (const [key, page, share, p99] of [
    ["home", "`GET /` signed in, full deck", BUDGETS.homeRatio],
    ["orders", "`GET /my-mixtapes` (50 orders)", BUDGETS.ordersRatio],
    ["mixer", `\`GET /mixer\` (${f0(L.ordersInDb)} orders)`, BUDGETS.mixerRatio, BUDGETS.mixerP99Ms],
  ]) {
    const x = L[key];
    add(
      `${page} ≥ ${share}× the stock page's req/s${p99 ? `, p99 ≤ ${p99} ms` : ""} (${CFG.connections} connections, median of ${x.runs} rounds)`,
      `${x.ratio.toFixed(2)}× (${f0(x.rps)} req/s), p99 ${f0(x.p99)} ms`,
      x.ratio >= share && (!p99 || x.p99 <= p99),
    );
  }
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
  for (const mix of r.mixes) add(...mixBudget(mix));
  for (const wh of r.webhooks) add(...webhooksBudget(wh));
  // The drop's rows carry their own reason (bench/report/drop.js dropRows).
  rows.push(...r.drop.rows);
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
  // Memory on a small host: with the settings of docs/deploy.md, in every scenario of the memory rows.
  const small = r.memorySettings.find((x) => x.small);
  const defaults = r.memorySettings.find((x) => !x.small);
  for (const s of MEMORY_SCENARIOS) {
    if (small[s.key] === undefined) continue;
    add(
      `peak RSS ≤ ${BUDGETS.rssMb} MB with the small-host settings (${small.variant}): ${s.name}`,
      `${f0(small[s.key])} MB (Node's defaults: ${f0(defaults?.[s.key])} MB)`,
      small[s.key] <= BUDGETS.rssMb,
    );
  }
  return rows;
}

const pct = (x) => `${(x * 100).toFixed(1)} %`;

/** A rate asked, the rate achieved and their ratio. */
export const askedAchieved = (asked, achieved, unit = "req/s") =>
  `${f0(asked)} ${unit} asked, ${f0(achieved)} achieved (${pct(achieved / asked)})`;

/**
 * The shopper mix's budget in one flavour: PASS when a rate of at least BUDGETS.mixRps was asked
 * and carried: at least BUDGETS.achievedShare of it achieved, every request's p99 within budget,
 * no error, no order lost.
 */
export function mixBudget(mix) {
  const name = `capacity for the shopper mix, ${mix.name} (${mix.what}): ≥ ${BUDGETS.mixRps} req/s achieved ≥ ${Math.round(BUDGETS.achievedShare * 100)} % of asked, every request's p99 ≤ ${BUDGETS.mixP99Ms} ms, none lost`;
  const row = (x) => `${askedAchieved(x.targetRps, x.rps)}, p99 ${f1(x.p99)} ms, ${x.errors} errors, ${x.lost} lost`;
  const atBudget = mix.rows.find((x) => x.targetRps >= BUDGETS.mixRps);
  const passing = mix.rows.filter((x) => x.ok && x.targetRps >= BUDGETS.mixRps);
  const parts = [];
  if (atBudget) parts.push(`at ${row(atBudget)}`);
  else
    parts.push(
      `no rate of ${BUDGETS.mixRps} req/s or more was tried (stopped after ${mix.rows.at(-1) ? row(mix.rows.at(-1)) : "no rate"})`,
    );
  parts.push(
    mix.best
      ? `highest rate within budget: ${row(mix.best)} (${f0(mix.best.shoppersPerMin)} shoppers/min)`
      : "no rate tried was within budget",
  );
  return [name, parts.join("; "), passing.length > 0];
}

/** One webhook row: the rate carried (achieved ≥ BUDGETS.achievedShare of asked), the p99, no error, every event recorded once. */
export function webhooksBudget(wh) {
  const what = wh.refunds
    ? `${wh.asked} signed payment and refund events/s (the ledger: ${Math.round(wh.refundShare * 100)} % partial refunds of paid orders) with replays`
    : `${wh.asked} signed payment events/s with replays`;
  return [
    `${what}: achieved ≥ ${Math.round(BUDGETS.achievedShare * 100)} % of asked, p99 ≤ ${BUDGETS.webhooksP99Ms} ms, each order paid${wh.refunds ? " and refunded" : ""} exactly once`,
    `${askedAchieved(wh.asked, wh.rate, "events/s")}, p50 ${f1(wh.p50)} ms, p99 ${f1(wh.p99)} ms (warm; the first ${wh.warmupS} s worst ${f0(wh.warmupWorst)} ms), ${wh.errors} errors; ${wh.paid} paid of ${wh.payments}${wh.refunds ? `, ${wh.refunded} refunded of ${wh.refunds}` : ""}, ${wh.eventRows} event rows of ${wh.distinct}`,
    carried(wh.rate, wh.asked, BUDGETS.achievedShare) && wh.p99 <= BUDGETS.webhooksP99Ms && wh.errors === 0 && wh.exactlyOnce,
  ];
}

/** Why each budget: what a shopper, the mixer or a deployer feels when it fails. */
export const BUDGET_REASONS = [
  [
    "transmit ≥ 300 orders/s, none lost",
    "a launch or a sale sends orders in bursts; each must be stored exactly once, and the shop must not become the bottleneck of its own checkout.",
  ],
  [
    "client JS on `/` ≤ 15 kB gzip over the framework",
    "on slow 4G every 10 kB is about 50 ms more before the page answers a tap; the framework's own JS is the floor, the app's share is ours to keep small.",
  ],
  [
    "`GET /` ≥ 0.35×, `/my-mixtapes` ≥ 0.4×, `/mixer` ≥ 0.25× the stock page's req/s (p99 ≤ 200 ms)",
    "the pages people open most, measured against what React Router itself serves on this box in the same rounds: the shop's own work per page is ours to keep within a small multiple of the framework's.",
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
    "the shopper mix ≥ 250 requests/s achieved (at least 97 % of the rate asked), every request's p99 ≤ 100 ms, none lost, in each flavour",
    "many shoppers doing different things at once, on one 2-core box: what a small shop needs on its busiest hour. A rate counts only when the shop answered it: a server that falls behind answers fewer requests than were asked, and the rest wait in a queue. Shoppers come with and without JavaScript, and they cost the server differently (a page render per edit, or a fetcher's data).",
  ],
  [
    "200 signed payment events/s achieved (at least 97 % of the rate asked), p99 ≤ 100 ms, each order paid once; and the same with a fifth of them refunds",
    "a checkout provider retries slow or failed webhooks; a replay must never pay twice, and a refund must land on the payment it names exactly once, however many arrive at once (money is a ledger).",
  ],
  ["the stress click test passes", "a click made while the page is still loading or busy is never lost."],
  ["start-up with existing data ≤ 1.5 s", "a deploy or a crash restart is a short blip, not an outage."],
  [
    "peak RSS ≤ 350 MB with the small-host settings of docs/deploy.md, in every scenario of the memory rows (the first start and the sign-up burst, GET / under load, the drop's upload and downloads)",
    "the app fits a small (512 MB) host with room for the system, from its first start on. With Node's defaults V8 grows its heap while the host has memory to spare, so the defaults' peaks are shown beside, not budgeted; docs/deploy.md tells a small host to set these two variables.",
  ],
];
