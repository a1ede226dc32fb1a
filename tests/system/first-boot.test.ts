// A first start on an empty DATA_DIR (decision 019): the build's empty cluster is copied into
// place instead of running initdb, but only one made by the installed PGlite; otherwise initdb
// runs (in a worker thread, whose memory goes when it ends). Either way the database opens.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openPglite } from "~/server/backend/sql/db.server";
import { ROOT, suiteTempDir } from "./setup";

describe("the first boot's database", () => {
  const work = suiteTempDir("first-boot");
  const built = path.join(ROOT, "build/server/pgdata-template");

  /** A copy of the build's template, marked by a file only a copy of it would hold. */
  function template(name: string, pglite?: string) {
    const dir = path.join(work, name);
    fs.cpSync(built, dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "mixtape-template-mark"), name);
    const made = JSON.parse(fs.readFileSync(`${built}.json`, "utf8"));
    fs.writeFileSync(`${dir}.json`, JSON.stringify({ ...made, ...(pglite ? { pglite } : {}) }));
    return dir;
  }

  it("the build made it, with the PGlite version that made it", () => {
    expect(fs.existsSync(path.join(built, "PG_VERSION"))).toBe(true);
    const made = JSON.parse(fs.readFileSync(`${built}.json`, "utf8"));
    const installed = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8"));
    expect(made.pglite).toBe(installed.version);
  });

  it("an empty DATA_DIR gets a copy of the template, and opens", async () => {
    const dataDir = path.join(work, "copied");
    const db = await openPglite(dataDir, { template: template("same") });
    try {
      expect(fs.readFileSync(path.join(dataDir, "pgdata/mixtape-template-mark"), "utf8")).toBe("same");
      expect(fs.existsSync(path.join(dataDir, "pgdata.copying"))).toBe(false);
      expect((await db.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
    // An existing cluster is never replaced.
    const again = await openPglite(dataDir, { template: template("later") });
    await again.close();
    expect(fs.readFileSync(path.join(dataDir, "pgdata/mixtape-template-mark"), "utf8")).toBe("same");
  });

  it("a template made by another PGlite is not used: initdb runs, and the database opens", async () => {
    const dataDir = path.join(work, "initdb");
    const db = await openPglite(dataDir, { template: template("other", "0.0.1") });
    try {
      expect(fs.existsSync(path.join(dataDir, "pgdata/PG_VERSION"))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, "pgdata/mixtape-template-mark"))).toBe(false);
      expect((await db.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  }, 120_000);
});
