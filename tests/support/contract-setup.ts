// The contract project's global setup (vitest.config.ts): one migrated PGlite, dumped, and
// one migrated PostgreSQL data directory, made once per run. Each contract file boots its
// own copy of them (tests/support/pglite.ts, tests/support/postgres.ts) instead of its own
// initdb and migrations: a file's boot then costs about a second instead of several.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { migrate, wrapPglite } from "~/server/backend/sql/db.server";
import { bootPostgres, postgresUnavailableReason } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite's data directory (PGlite's dumpDataDir). */
    pgliteDump: string | null;
    /** A stopped PostgreSQL cluster's data directory whose mixtape_template database is migrated. */
    postgresData: string | null;
  }
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-contract-setup-"));
  const raw = new PGlite();
  await raw.waitReady;
  await migrate(wrapPglite(raw));
  const dump = path.join(dir, "pglite.tar");
  fs.writeFileSync(dump, Buffer.from(await (await raw.dumpDataDir("none")).arrayBuffer()));
  await raw.close();
  project.provide("pgliteDump", dump);

  // Without binaries each file says why it skips (postgresAvailable); nothing to make here.
  const postgres = postgresUnavailableReason() ? null : await bootPostgres(null);
  await postgres?.cluster.stop();
  project.provide("postgresData", postgres?.cluster.dataDir ?? null);

  return async () => {
    await postgres?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
