// One migrated PGlite per test file. The ~5 s first boot (initdb inside WASM plus the
// migrations) is paid once, or not at all where the contract project's global setup left a
// migrated dump to load (tests/support/contract-setup.ts); each test then gets a database with the same schema and data
// as right after the migrations: the previous test's instance emptied (every table
// truncated, the rows the migrations seeded put back), or a clone when it is still open.
// A clone costs ~1.7 s on these machines, a reset a few milliseconds.
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { inject } from "vitest";
import { migrate, wrapPglite, type SqlDriver } from "~/server/backend/sql/db.server";

export type PgliteDriver = SqlDriver & { raw: unknown };

export type PgliteTemplate = {
  /** A fresh, migrated database. Close it when the test is done (it is then reused). */
  clone(): Promise<PgliteDriver>;
  /** The migrations that the boot applied (all of them; none when it loaded the run's dump). */
  applied: string[];
  close(): Promise<void>;
};

/** The statements that bring a migrated database back to its state right after the migrations. */
async function resetStatements(db: SqlDriver): Promise<{ text: string; params?: unknown[] }[]> {
  const { rows: tables } = await db.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema', 'mixtape_meta') order by 1`,
  );
  const statements: { text: string; params?: unknown[] }[] = [
    { text: `truncate ${tables.map((t) => t.name).join(", ")} restart identity cascade` },
  ];
  for (const { name } of tables) {
    const { rows } = await db.query<{ row: unknown }>(`select to_jsonb(t) as row from ${name} t`);
    if (rows.length === 0) continue;
    const { rows: columns } = await db.query<{ column: string }>(
      `select format('%I', attname) as column from pg_attribute
        where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
      [name],
    );
    const list = columns.map((c) => c.column).join(", ");
    statements.push({
      text: `insert into ${name} (${list}) overriding system value select ${list} from jsonb_populate_recordset(null::${name}, $1)`,
      params: [JSON.stringify(rows.map((r) => r.row))],
    });
  }
  return statements;
}

export async function bootPglite(): Promise<PgliteTemplate> {
  const dump = inject("pgliteDump");
  const raw = dump ? new PGlite({ loadDataDir: new Blob([fs.readFileSync(dump)]) }) : new PGlite(); // in memory
  await raw.waitReady;
  const template = wrapPglite(raw);
  const applied = await migrate(template);
  const reset = await resetStatements(template);
  const open = new Set<PgliteDriver>();
  const idle: PGlite[] = [];
  return {
    applied,
    async clone() {
      let instance = idle.pop();
      if (instance) {
        await instance.transaction(async (tx) => {
          for (const s of reset) await tx.query(s.text, s.params);
        });
      } else instance = (await raw.clone()) as PGlite;
      const copy = wrapPglite(instance) as PgliteDriver;
      let closed = false;
      // Once closed, this handle answers as a closed database would.
      const { query, transaction } = copy;
      copy.query = (text, params) => (closed ? Promise.reject(new Error("database closed")) : query(text, params));
      copy.transaction = (fn) => (closed ? Promise.reject(new Error("database closed")) : transaction(fn));
      // Closing hands the instance back for the next test; closing twice is harmless.
      copy.close = async () => {
        if (closed) return;
        closed = true;
        open.delete(copy);
        if (!instance.closed) idle.push(instance);
      };
      open.add(copy);
      return copy;
    },
    async close() {
      for (const c of [...open]) await c.close().catch(() => {});
      for (const i of idle.splice(0)) if (!i.closed) await i.close();
      await raw.close();
    },
  };
}
