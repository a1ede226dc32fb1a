// The bench judges a load asked at a rate on the rate it achieved: the helpers that
// count it, and where the JS shoppers' requests go. Synthetic answer times only; nothing is timed.
import { describe, expect, it } from "vitest";
import { BUDGETS } from "../../bench/lib/config.js";
import { achievedRate, carried, scheduledRate } from "../../bench/lib/load.js";
import { dataUrl, FLAVOURS, requestsOfVisits, rowOk } from "../../bench/scenarios/mix.js";

describe("a rate is judged on the rate achieved", () => {
  it("the shopper mix asked 250 req/s and answered 238 a second: over budget, however low its p99", () => {
    const row = { targetRps: 250, rps: 238, p99: 20, errors: 0, lost: 0 };
    expect(BUDGETS.achievedShare).toBe(0.97);
    expect(rowOk(row)).toBe(false);
    expect(rowOk({ ...row, rps: 243 })).toBe(true);
    expect(rowOk({ ...row, rps: 243, p99: BUDGETS.mixP99Ms + 1 })).toBe(false);
    expect(rowOk({ ...row, rps: 243, lost: 1 })).toBe(false);
  });

  it("answers are counted inside the measured window only", () => {
    // 5 answers before the window (a warm-up), 8 inside [1000, 2000), 3 after it.
    const done = [100, 300, 500, 700, 900, 1000, 1100, 1300, 1500, 1600, 1700, 1800, 1999, 2000, 2100, 2500];
    expect(achievedRate(done, 1000, 2000)).toBe(8);
  });

  it("steps scheduled in a window and answered late stretch the time they took: never more than asked", () => {
    const asked = 10; // 10 steps scheduled in [0, 1000)
    const onTime = Array.from({ length: asked }, (_, i) => i * 100 + 5);
    expect(scheduledRate(onTime, 0, 1000)).toBe(asked);
    // A queue: the same 10 answered by 2000 ms.
    const queued = Array.from({ length: asked }, (_, i) => 200 * (i + 1));
    expect(scheduledRate(queued, 0, 1000)).toBe(5);
    expect(carried(scheduledRate(queued, 0, 1000), asked, BUDGETS.achievedShare)).toBe(false);
    expect(carried(9.7, asked, BUDGETS.achievedShare)).toBe(true);
  });
});

describe("the JS shoppers ask React Router's single-fetch URLs", () => {
  it.each([
    ["/", "/_.data"],
    ["/?placed=ABCD1234", "/_.data?placed=ABCD1234"],
    ["/review#order-steps", "/review.data"],
    ["/review", "/review.data"],
    ["/my-mixtapes/ABCD1234", "/my-mixtapes/ABCD1234.data"],
    ["/auth", "/auth.data"],
    ["/review/", "/review/_.data"],
  ])("%s loads %s", (location, url) => {
    expect(dataUrl(location)).toBe(url);
  });
});

describe("the shopper mix's visits send what they say", () => {
  it("a slow machine's low rate makes few visits, and visit 0 logs out and in: one visit of the no-JS flavour is 23 requests", () => {
    expect(requestsOfVisits("no-js", 1)).toBe(23);
    expect(requestsOfVisits("no-js", 10) / 10).toBe(FLAVOURS["no-js"].requestsPerVisit);
    expect(requestsOfVisits("js", 20) / 20).toBe(FLAVOURS.js.requestsPerVisit);
  });
});
