// The host's two probes. Liveness (GET /healthz) does no work at all. Readiness (GET /readyz)
// runs the checks below in order; the first that fails names the 503's one word.
import type { Backend } from "../backend/port.server";
import { getLog, reason } from "../platform/log.server";
import type { Root } from "../root.server";
import type { StorageHealth } from "../storage/port.server";

export type ReadinessCheck = { name: string; ready: () => Promise<boolean> };
export type Readiness = { ready: true } | { ready: false; failing: string };

/** Longer than this, and the check counts as failed (a host's probe gives up sooner anyway). */
const CHECK_MS = 5_000;

/** What must hold before this process takes traffic: the database, its migrations, the tape store. */
export function readinessChecks(backend: Backend, storeHealth: () => Promise<StorageHealth>): ReadinessCheck[] {
  return [
    { name: "database", ready: () => backend.health() },
    {
      name: "migrations",
      ready: async () => {
        const pending = await backend.pendingMigrations();
        return pending === null || pending.length === 0;
      },
    },
    { name: "storage", ready: async () => (await storeHealth()).ok },
  ];
}

export async function runChecks(checks: readonly ReadinessCheck[]): Promise<Readiness> {
  for (const check of checks) {
    if (!(await passes(check))) return { ready: false, failing: check.name };
  }
  return { ready: true };
}

let last: string | null = null;

/** The process's readiness (its backend and tape store); a change (ready to failing, or back) is logged once, not every probe. */
export async function readiness({ backend, storage }: Pick<Root, "backend" | "storage">): Promise<Readiness> {
  const result = await runChecks(readinessChecks(backend, () => storage.health()));
  const now = result.ready ? null : result.failing;
  if (now !== last) {
    if (now) getLog().warn({ failing: now }, `not ready: ${now}`);
    else getLog().info("ready again");
    last = now;
  }
  return result;
}

async function passes(check: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_MS);
  });
  try {
    return await Promise.race([check.ready(), timeout]);
  } catch (error) {
    getLog().debug({ check: check.name, err: reason(error) }, "readiness check failed");
    return false;
  } finally {
    clearTimeout(timer);
  }
}
