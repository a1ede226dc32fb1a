// What the files of the RLS contract (tests/contract/rls*.test.ts) share: the two embedded
// databases, two users A and B with one order each, and a transaction as a role with the
// request's JWT claims, exactly as Supabase's PostgREST sets them.
import type { Sql, SqlDriver } from "~/server/backend/sql/db.server";
import { freshEachTest } from "./per-file";
import { bootPglite, type PgliteTemplate } from "./pglite";
import { bootPostgres, postgresAvailable, type PostgresTemplate } from "./postgres";

export type Db = {
  name: "pglite" | "postgres";
  available: boolean;
  boot(): Promise<void>;
  fresh(): Promise<SqlDriver>;
  shutdown(): Promise<void>;
};

function pglite(): Db {
  let t: PgliteTemplate | undefined;
  return {
    name: "pglite",
    available: true,
    boot: async () => void (t = await bootPglite()),
    fresh: () => t!.clone(),
    shutdown: async () => t?.close(),
  };
}
function postgres(): Db {
  let t: PostgresTemplate | undefined;
  return {
    name: "postgres",
    available: postgresAvailable(),
    boot: async () => void (t = await bootPostgres()),
    fresh: async () => (await t!.fresh()).db,
    shutdown: async () => t?.close(),
  };
}

/** The databases the RLS contract runs on, in order. */
export const sqlTargets = () => [pglite(), postgres()];

export const A = "00000000-0000-4000-8000-00000000000a";
export const B = "00000000-0000-4000-8000-00000000000b";

/** Runs fn as `role` with the claims of `sub`, inside one transaction (rolled back on error). */
export function as<T>(
  db: SqlDriver,
  role: "authenticated" | "anon",
  sub: string | null,
  fn: (tx: Sql) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const claims = sub ? { sub, role } : { role };
    await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
    await tx.query(`set local role ${role}`);
    return fn(tx);
  });
}
export const asA = <T>(db: SqlDriver, fn: (tx: Sql) => Promise<T>) => as(db, "authenticated", A, fn);
export const asAnon = <T>(db: SqlDriver, fn: (tx: Sql) => Promise<T>) => as(db, "anon", null, fn);
export const insertOrder = (tx: Sql, o: { user_id: string; code: string; note?: string; tracks?: string; toggles?: string }) =>
  tx.query(`insert into public.mixtapes (user_id, code, tracks, toggles, note) values ($1, $2, $3::jsonb, $4::jsonb, $5)`, [
    o.user_id,
    o.code,
    o.tracks ?? "[]",
    o.toggles ?? "{}",
    o.note ?? "",
  ]);

/** Boots the target once for the file; each test gets a fresh database (handed to `onFresh`) with A, B and their orders. */
export function rlsDatabase(target: Db, onFresh: (db: SqlDriver) => void) {
  freshEachTest(target, async (db) => {
    onFresh(db);
    // As the superuser (the app's own connection): two users, their profiles come
    // from the trigger, one order each.
    await db.query(
      `insert into auth.users (id, email, raw_user_meta_data) values
         ($1, 'a@example.test', '{"username":"rebel_a"}'), ($2, 'b@example.test', '{"username":"rebel_b"}')`,
      [A, B],
    );
    await db.query(`insert into public.mixtapes (user_id, code) values ($1, 'AAAAAAA1'), ($2, 'BBBBBBB1')`, [A, B]);
  });
}
