// The bench's budgets of speed are ratios to floors measured in the same run (the stock React Router
// page's GET, form POST, start-up and Lighthouse run): a machine twice as slow slows both sides and
// changes no verdict, while what people feel (LCP) and a host's memory stay absolute. Synthetic
// results only; nothing is timed.
import { describe, expect, it } from "vitest";
import { BUDGETS } from "../../bench/lib/config.js";
import { budgetRows } from "../../bench/report/budgets.js";

type Row = { name: string; ok: boolean };

const page = (performance: number, tbtMs: number, lcpMs: number) => ({
  performance,
  accessibility: 100,
  bestPractices: 100,
  lcpMs,
  tbtMs,
});

/** One run's results, as the whole bench gathers them, on a machine of the given speed (1: the first machine). */
function run(speed: number, tweak: (r: ReturnType<typeof base>) => void = () => {}) {
  const r = base(speed);
  tweak(r);
  return r;
}

function base(speed: number) {
  const rate = (n: number) => ({ rps: n * speed, p50: 5, p99: 40, errors: 0, runs: 3, ratio: undefined as number | undefined });
  const stockRps = 830 * speed;
  const mixRows = [0.24, 0.3, 0.36].map((share) => ({
    targetRps: Math.round(share * stockRps),
    rps: Math.round(share * stockRps),
    p99: 40,
    errors: 0,
    lost: 0,
    ok: true,
  }));
  return {
    load: {
      baseline: rate(830),
      stockPost: rate(3000),
      transmit: rate(439),
      home: { ...rate(330), ratio: 0.4 },
      orders: { ...rate(350), ratio: 0.42 },
      mixer: { ...rate(250), ratio: 0.3 },
      ordersInDb: 5001,
    },
    db: { lost: 0, duplicated: 0, exact: true },
    sizes: {
      pages: { "/": { js: { gzip: 120_000 }, css: { gzip: 7_500 }, html: { gzip: 8_000 } }, "/auth": { css: { gzip: 7_500 } } },
      baselineJs: { gzip: 110_000 },
    },
    // A slower machine blocks every page longer, the stock page by as much again as ours (its score drops with it).
    lighthouse: {
      "/": page(speed >= 1 ? 100 : 96, 40 / speed, 920),
      "/mixer": page(speed >= 1 ? 100 : 95, 180 / speed, 950),
    } as Record<string, ReturnType<typeof page>>,
    lighthouseStock: page(speed >= 1 ? 100 : 95, 160 / speed, 800),
    feel: { interactions: [], shifts: [] },
    mixes: [{ name: "no-JS shoppers", what: "forms", stockRps, rows: mixRows, best: mixRows.at(-1) }],
    webhooks: [
      {
        asked: Math.round(BUDGETS.webhooksShare * stockRps),
        rate: Math.round(BUDGETS.webhooksShare * stockRps),
        stockRps,
        refunds: 0,
        refundShare: 0,
        p50: 2,
        p99: 11,
        warmupS: 2,
        warmupWorst: 200,
        errors: 0,
        paid: 100,
        payments: 100,
        refunded: 0,
        eventRows: 100,
        distinct: 100,
        exactlyOnce: true,
      },
    ],
    drop: { rows: [] },
    stress: { ran: true, ok: true, summary: "10 passed" },
    startup: { existingMs: 820 / speed, existingRuns: [820 / speed], baselineMs: 190 / speed, baselineRuns: [190 / speed] },
    memorySettings: [
      { variant: "defaults", small: false, burstPeakMb: 412 },
      { variant: "small host", small: true, burstPeakMb: 306 },
    ],
  };
}

const verdicts = (rows: Row[]) => Object.fromEntries(rows.map((row) => [row.name, row.ok]));
const find = (rows: Row[], start: string) => {
  const row = rows.find((x) => x.name.startsWith(start));
  if (!row) throw new Error(`no budget row starting "${start}"`);
  return row;
};

describe("budgets of speed are ratios to floors of the same run", () => {
  it("a machine three times slower changes no verdict", () => {
    const fast = budgetRows(run(1) as never) as Row[];
    const slow = budgetRows(run(1 / 3) as never) as Row[];
    expect(verdicts(slow)).toEqual(verdicts(fast));
    for (const start of ["transmit", "Lighthouse performance", "Lighthouse TBT", "start-up", "capacity for the shopper mix"])
      expect(find(slow, start).ok, start).toBe(true);
  });

  it("transmit is judged against the stock page's form POST of the run", () => {
    const rows = budgetRows(run(1, (r) => (r.load.transmit.rps = BUDGETS.transmitRatio * 3000 - 1)) as never) as Row[];
    expect(find(rows, "transmit").ok).toBe(false);
  });

  it("each page may block as long again as the stock page in the same run (at least 50 ms more), and score no lower", () => {
    const over = budgetRows(run(1, (r) => (r.lighthouse["/mixer"].tbtMs = 2 * 160 + 1)) as never) as Row[];
    expect(find(over, "Lighthouse TBT").ok).toBe(false);
    const quiet = budgetRows(
      run(1, (r) => {
        r.lighthouseStock.tbtMs = 10;
        r.lighthouse["/mixer"].tbtMs = 10 + BUDGETS.tbtOverStockMs + 1;
      }) as never,
    ) as Row[];
    expect(find(quiet, "Lighthouse TBT").ok, "at least 50 ms over a stock page that hardly blocks").toBe(false);
    const lower = budgetRows(run(1, (r) => (r.lighthouse["/"].performance = 99)) as never) as Row[];
    expect(find(lower, "Lighthouse performance").ok).toBe(false);
  });

  it("start-up may take 8× the stock server's, not more", () => {
    const rows = budgetRows(run(1, (r) => (r.startup.existingMs = BUDGETS.startupRatio * 190 + 1)) as never) as Row[];
    expect(find(rows, "start-up").ok).toBe(false);
  });

  it("what people feel stays absolute: an LCP over 1 s fails whatever the stock page's", () => {
    const rows = budgetRows(run(1, (r) => (r.lighthouse["/"].lcpMs = 1_050)) as never) as Row[];
    expect(find(rows, "Lighthouse LCP").ok).toBe(false);
  });

  it("the shopper mix must carry its share of the stock page's rate", () => {
    const rows = budgetRows(
      run(1, (r) => {
        r.mixes[0].rows = r.mixes[0].rows.map((x) => (x.targetRps >= 249 ? { ...x, rps: x.targetRps * 0.9, ok: false } : x));
      }) as never,
    ) as Row[];
    expect(find(rows, "capacity for the shopper mix").ok).toBe(false);
  });
});
