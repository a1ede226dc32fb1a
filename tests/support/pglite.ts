// One migrated PGlite per test file, copied per test with PGlite's clone(): the ~5 s
// first boot (initdb inside WASM plus the migrations) is paid once, each clone is a
// separate database with the same schema and data at the moment of cloning.
import { PGlite } from "@electric-sql/pglite";
import { migrate, wrapPglite, type SqlDriver } from "~/server/backend/sql/db.server";

export type PgliteDriver = SqlDriver & { raw: unknown };

export type PgliteTemplate = {
  /** A fresh, migrated database (a clone of the template). */
  clone(): Promise<PgliteDriver>;
  /** The migrations that the boot applied (all of them). */
  applied: string[];
  close(): Promise<void>;
};

export async function bootPglite(): Promise<PgliteTemplate> {
  const raw = new PGlite(); // in memory
  await raw.waitReady;
  const template = wrapPglite(raw);
  const applied = await migrate(template);
  const clones = new Set<PgliteDriver>();
  return {
    applied,
    async clone() {
      const copy = wrapPglite(await raw.clone()) as PgliteDriver;
      const close = copy.close;
      copy.close = async () => {
        clones.delete(copy);
        // Closing twice (a test closes, then afterEach) must not throw.
        if ((copy.raw as PGlite).closed) return;
        await close();
      };
      clones.add(copy);
      return copy;
    },
    async close() {
      for (const c of [...clones]) await c.close().catch(() => {});
      await raw.close();
    },
  };
}
