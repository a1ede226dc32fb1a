// The embedded database's first boot, made at build time (docs/decisions/019-first-boot.md):
// `react-router build` runs this after the server build (vite.config.ts), and writes an empty
// PGlite cluster (initdb's output) to build/server/pgdata-template, with the PGlite version that
// made it beside it. A first start copies it into DATA_DIR instead of running initdb, whose
// WebAssembly instances take about 770 MB for a few seconds: more than a 512 MB host has.
//   node scripts/db-template.js OUT_DIR
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The installed PGlite's version: a template made by another is not used. */
export function pgliteVersion() {
  const entry = fileURLToPath(import.meta.resolve("@electric-sql/pglite"));
  return JSON.parse(fs.readFileSync(path.join(path.dirname(entry), "../package.json"), "utf8")).version;
}

export async function makeDbTemplate(out) {
  const { PGlite } = await import("@electric-sql/pglite");
  const building = `${out}.building`;
  fs.rmSync(building, { recursive: true, force: true });
  const db = new PGlite(building);
  await db.waitReady;
  await db.close();
  fs.rmSync(out, { recursive: true, force: true });
  fs.renameSync(building, out);
  fs.writeFileSync(`${out}.json`, `${JSON.stringify({ pglite: pgliteVersion() })}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.argv[2]) {
    console.error("usage: node scripts/db-template.js OUT_DIR");
    process.exit(2);
  }
  await makeDbTemplate(path.resolve(process.argv[2]));
}
