// The stress click test (tests/e2e/stress.spec.ts), on its own server once the bench's is gone.
import fs from "node:fs";
import path from "node:path";
import { ROOT, now, spawnLogged } from "../lib/index.js";
import { CFG } from "../lib/config.js";

export const STRESS_SPEC = "tests/e2e/stress.spec.ts";

/**
 * `playwright test tests/e2e/stress.spec.ts --project=js-on` from this working tree, if it has the
 * file: 30 clicks of each kind (npm test runs 2 with JavaScript, 1 without).
 */
export async function stressTest() {
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
