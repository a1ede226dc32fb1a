// Readiness is a list of named checks, run in order: the first that fails (false, a throw)
// names the 503 of GET /readyz. tests/system/probes.test.ts and outage.test.ts run them over HTTP.
import "../support/env";
import { describe, expect, it } from "vitest";
import type { Backend } from "~/server/backend/port.server";
import { readinessChecks, runChecks } from "~/server/services/health.server";

const backend = (health: boolean, pending: string[] | null) =>
  ({ health: async () => health, pendingMigrations: async () => pending }) as unknown as Backend;

const store = (ok: boolean) => async () => (ok ? { ok: true as const } : { ok: false as const, problem: "bucket gone" });

describe("readiness", () => {
  it("checks the database, then the migrations, then the tape store", async () => {
    const checks = (b: Backend, storeOk = true) => readinessChecks(b, store(storeOk));
    expect(checks(backend(true, [])).map((c) => c.name)).toEqual(["database", "migrations", "storage"]);
    expect(await runChecks(checks(backend(true, [])))).toEqual({ ready: true });
    expect(await runChecks(checks(backend(true, null)))).toEqual({ ready: true }); // Supabase: not ours to apply
    expect(await runChecks(checks(backend(true, ["supabase/migrations/x.sql"])))).toEqual({
      ready: false,
      failing: "migrations",
    });
    expect(await runChecks(checks(backend(false, [])))).toEqual({ ready: false, failing: "database" });
    expect(await runChecks(checks(backend(true, []), false))).toEqual({ ready: false, failing: "storage" });
  });

  it("names the first check that fails or throws, and runs none after it", async () => {
    const ran: string[] = [];
    const check = (name: string, ready: () => Promise<boolean>) => ({
      name,
      ready: () => {
        ran.push(name);
        return ready();
      },
    });
    const result = await runChecks([
      check("database", async () => true),
      check("storage", () => Promise.reject(new Error("bucket gone"))),
      check("later", async () => true),
    ]);
    expect(result).toEqual({ ready: false, failing: "storage" });
    expect(ran).toEqual(["database", "storage"]);
  });
});
