// What a vitest or Playwright run reported (its JSON report), for the one "tests: N passed, N failed"
// line of `npm test` and `npm run test:node22`. No report from a run that failed counts as one failure.
import fs from "node:fs";

/** @returns {{ passed: number, failed: number }} */
function counts(file, status, read) {
  try {
    return read(JSON.parse(fs.readFileSync(file, "utf8")));
  } catch {
    return { passed: 0, failed: status !== 0 ? 1 : 0 };
  }
}

export const vitestCounts = (file, status) =>
  counts(file, status, (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests }));

export const playwrightCounts = (file, status) =>
  counts(file, status, (r) => ({ passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected }));
