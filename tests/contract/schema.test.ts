// db/schema.sql is the schema the migrations make (scripts/db-schema.js): a migration that changes
// the schema fails here until `npm run db:schema` writes the file again. The run's migrated PGlite
// (tests/support/contract-setup.ts) is dumped as the script dumps its own.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, inject, it } from "vitest";
import { migrate, migrationList, wrapPglite } from "~/server/backend/sql/db.server";
import { dumpSchema, SCHEMA_FILE } from "../../scripts/db-schema.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Where two texts first differ, a few lines of each, for the failure's message. */
function firstDifference(written: string, made: string): string {
  const a = written.split("\n");
  const b = made.split("\n");
  const at = a.findIndex((line, i) => line !== b[i]);
  const line = at === -1 ? a.length : at;
  const show = (lines: string[], mark: string) =>
    lines
      .slice(line, line + 4)
      .map((l) => `${mark} ${l}`)
      .join("\n");
  return `first difference at line ${line + 1}:\n${show(a, `- ${SCHEMA_FILE}:`)}\n${show(b, "+ the migrations:")}`;
}

describe(SCHEMA_FILE, () => {
  it("is the schema-only dump of a fully migrated database", async () => {
    const dump = inject("pgliteDump");
    const pg = dump ? new PGlite({ loadDataDir: new Blob([fs.readFileSync(dump)]) }) : new PGlite();
    await pg.waitReady;
    try {
      await migrate(wrapPglite(pg));
      const made = await dumpSchema(pg);
      const written = fs.readFileSync(path.join(ROOT, SCHEMA_FILE), "utf8");
      const stale = `${SCHEMA_FILE} is not the schema the migrations make: run \`npm run db:schema\` and commit it.`;
      expect(written === made, `${stale}\n${firstDifference(written, made)}\n`).toBe(true);
    } finally {
      await pg.close();
    }
  });

  it("is never applied: the SQL backends take only db/shim*.sql and supabase/migrations", () => {
    const names = migrationList().map((m) => m.name);
    expect(names).not.toContain(SCHEMA_FILE);
    expect(names.every((n) => /^(db\/shim[^/]*|supabase\/migrations\/[^/]+)\.sql$/.test(n))).toBe(true);
  });
});
