// Where a tape may live has one list, STORAGE_KINDS of app/server/platform/config.server.ts. A kind
// added there alone fails here: DROP_STORAGE takes it, so it needs its adapter (built, and saying its
// kind), its harness in the storage contract, its line in .env.example and its row in docs/drop.md.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, STORAGE_KINDS } from "~/server/platform/config.server";
import { createStorage, STORAGE_ADAPTERS } from "~/server/storage/index.server";
import { allStorageHarnesses } from "../support/storage-adapters";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-storage-kinds-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What each kind needs besides DROP_STORAGE to be a valid configuration. */
const NEEDS: Record<string, Record<string, string>> = {
  s3: { S3_BUCKET: "tapes", S3_ENDPOINT: "http://127.0.0.1:9" },
  supabase: { SUPABASE_URL: "http://127.0.0.1:9", SUPABASE_SERVICE_ROLE_KEY: "service-role" },
};

describe("the storage kinds", () => {
  it("each kind is configured, built by its own adapter, and says its kind", async () => {
    expect(Object.keys(STORAGE_ADAPTERS).sort()).toEqual([...STORAGE_KINDS].sort());
    for (const kind of STORAGE_KINDS) {
      const config = loadConfig({ DATA_DIR: dir, DROP_STORAGE: kind, ...NEEDS[kind] });
      expect((await createStorage(config)).kind, kind).toBe(kind);
    }
  });

  it("DROP_STORAGE refuses any other, naming every kind", () => {
    const refused = (() => {
      try {
        loadConfig({ DATA_DIR: dir, DROP_STORAGE: "ftp" });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).problems).toEqual([`DROP_STORAGE: must be one of ${STORAGE_KINDS.join(", ")}`]);
  });

  it("the storage contract runs against every kind", () => {
    expect(allStorageHarnesses().map((h) => h.name)).toEqual([...STORAGE_KINDS]);
  });

  it(".env.example and docs/drop.md describe every kind", () => {
    const example = fs.readFileSync(path.join(ROOT, ".env.example"), "utf8");
    expect([...example.matchAll(/^#\s{3}(\w+)\s{2,}/gm)].map((m) => m[1])).toEqual([...STORAGE_KINDS]);
    const manual = fs.readFileSync(path.join(ROOT, "docs/drop.md"), "utf8");
    expect([...manual.matchAll(/^\| `([a-z0-9]+)`/gm)].map((m) => m[1])).toEqual([...STORAGE_KINDS]);
  });
});
