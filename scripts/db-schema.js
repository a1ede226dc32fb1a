// `npm run db:schema` writes db/schema.sql: the schema of a fully migrated database, to read (nothing
// applies it). PGlite takes db/shim*.sql and supabase/migrations as the server does (`migrate` of
// app/server/backend/sql/db.server.ts, loaded through Vite for its import.meta.glob), pglite-tools'
// pg_dump writes the schema, and `tidy` drops what varies with the dump tool's version.
// tests/contract/schema.test.ts fails when the file is not what the migrations make
// (docs/decisions/026-schema-dump.md).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const SCHEMA_FILE = "db/schema.sql";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const HEADER = `-- ${SCHEMA_FILE}: the schema after db/shim*.sql and every file of supabase/migrations, as
-- pg_dump --schema-only --no-owner writes it. For reading: nothing applies this file, a change is a
-- new migration. Made by \`npm run db:schema\`; tests/contract/schema.test.ts fails when it is stale.
-- Each function's and view's purpose and newest migration: docs/architecture.md, The SQL functions.
`;

/** The schema of this PGlite database (migrated), as db/schema.sql holds it. */
export async function dumpSchema(pg) {
  const { pgDump } = await import("@electric-sql/pglite-tools/pg_dump");
  const file = await pgDump({ pg, args: ["--schema-only", "--no-owner"] });
  return tidy(await file.text());
}

/** pg_dump's text without its versions, its session settings and its three-line banners. */
export function tidy(dump) {
  const body = dump
    .replace(/^--\n-- PostgreSQL database dump( complete)?\n--\n/gm, "")
    .replace(/^-- Dumped (from|by) .*\n/gm, "")
    .replace(/^\\(un)?restrict .*\n/gm, "")
    .replace(/^SET \w+ = .*;\n/gm, "")
    .replace(/^SELECT pg_catalog\.set_config\(.*\);\n/gm, "")
    .replace(/\n*--\n-- (Name: [^\n]*?)(?:; Owner: -)?\n--\n\n/g, "\n\n-- $1\n");
  return `${HEADER}\n${body.trim()}\n`;
}

async function main() {
  const { runnerImport } = await import("vite");
  const { module: db } = await runnerImport("/app/server/backend/sql/db.server.ts", {
    root: ROOT,
    configFile: false,
    logLevel: "error",
    resolve: { tsconfigPaths: true },
  });
  const { PGlite } = await import("@electric-sql/pglite");
  const pg = new PGlite();
  await pg.waitReady;
  try {
    await db.migrate(db.wrapPglite(pg));
    const schema = await dumpSchema(pg);
    const file = path.join(ROOT, SCHEMA_FILE);
    const before = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    fs.writeFileSync(file, schema);
    console.log(`${SCHEMA_FILE}: ${before === schema ? "unchanged" : "written"}`);
  } finally {
    await pg.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
