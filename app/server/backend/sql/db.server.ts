import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { DbStats } from "../../platform/db-stats.server";
import { BackendUnavailableError, type BackendError } from "../port.server";

export type Row = Record<string, unknown>;
export interface Sql {
  query<T extends Row = Row>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}
export interface SqlDriver extends Sql {
  kind: "pglite" | "postgres";
  /** Use only the tx handed to fn inside it. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Adds to the counts of the request this driver serves (counted); absent elsewhere. */
  count?(kind: keyof DbStats): void;
  /** PostgreSQL: a session lock held until close (on a connection of its own); false when another process holds it. */
  holdLock?(key: number): Promise<boolean>;
  close(): Promise<void>;
}

export type DbError = Error & { code?: string; constraint?: string; table?: string };
export const isDbError = (e: unknown): e is DbError => e instanceof Error && typeof (e as DbError).code === "string";

const shims = import.meta.glob("/db/shim*.sql", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const migrations = import.meta.glob("/supabase/migrations/*.sql", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const byName = ([a]: [string, string], [b]: [string, string]) => a.localeCompare(b);

/** db/shim.sql first: the rest assume what Supabase provides. */
export function migrationList(): { name: string; sql: string }[] {
  const first = "/db/shim.sql";
  const list = [
    ...Object.entries(shims).filter(([file]) => file === first),
    ...Object.entries(shims)
      .filter(([file]) => file !== first)
      .sort(byName),
    ...Object.entries(migrations).sort(byName),
  ];
  return list.map(([file, sql]) => ({ name: file.replace(/^\//, ""), sql }));
}

export async function migrate(db: SqlDriver, list = migrationList()): Promise<string[]> {
  const applied: string[] = [];
  const run = async (tx: Sql) => {
    await tx.query(`create schema if not exists mixtape_meta`);
    await tx.query(
      `create table if not exists mixtape_meta.migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
    const done = new Set((await tx.query<{ name: string }>(`select name from mixtape_meta.migrations`)).rows.map((r) => r.name));
    for (const m of list) {
      if (done.has(m.name)) continue;
      await execScript(tx, db.kind, m.sql);
      await tx.query(`insert into mixtape_meta.migrations (name) values ($1)`, [m.name]);
      applied.push(m.name);
    }
  };
  await db.transaction(async (tx) => {
    if (db.kind === "postgres") {
      // Several app processes may start at once: one migrates, the others wait.
      await tx.query(`select pg_advisory_xact_lock(7243001)`);
    }
    await run(tx);
  });
  return applied;
}

async function execScript(tx: Sql, kind: SqlDriver["kind"], sql: string) {
  const execer = tx as Sql & { exec?: (sql: string) => Promise<unknown> };
  if (kind === "pglite" && typeof execer.exec === "function") await execer.exec(sql);
  else await tx.query(sql); // node-postgres runs a multi-statement script without params
}

/**
 * dataDir's database (in memory without one). A first start copies template, the empty cluster
 * the build made (scripts/db-template.js), when the same PGlite made it; otherwise it runs initdb.
 */
export async function openPglite(dataDir: string | undefined, options: { template?: string } = {}): Promise<SqlDriver> {
  const { PGlite } = await import("@electric-sql/pglite");
  // The default 128 MB of shared buffers would be most of our memory.
  const startParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];
  if (!dataDir) {
    const db = new PGlite({ startParams });
    await db.waitReady;
    return wrapPglite(db);
  }
  const pgdata = path.join(dataDir, "pgdata");
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(path.join(pgdata, "PG_VERSION")) && !copyTemplate(options.template, pgdata))
    await createCluster(pgdata, startParams);
  const db = new PGlite(pgdata, { startParams });
  await db.waitReady;
  return wrapPglite(db);
}

/** Copied aside and renamed into place, so a start cut short never leaves half a cluster. */
function copyTemplate(template: string | undefined, pgdata: string): boolean {
  if (!template || !fs.existsSync(path.join(template, "PG_VERSION"))) return false;
  try {
    const made = JSON.parse(fs.readFileSync(`${template}.json`, "utf8")) as { pglite?: string };
    if (made.pglite !== pgliteVersion()) return false;
  } catch {
    return false;
  }
  const copying = `${pgdata}.copying`;
  fs.rmSync(copying, { recursive: true, force: true });
  fs.cpSync(template, copying, { recursive: true });
  fs.rmSync(pgdata, { recursive: true, force: true });
  fs.renameSync(copying, pgdata);
  return true;
}

function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve("@electric-sql/pglite"));
  return (JSON.parse(fs.readFileSync(path.join(path.dirname(entry), "../package.json"), "utf8")) as { version: string }).version;
}

/**
 * initdb in a worker thread: its WebAssembly memory (about 550 MB) never shrinks and, in this
 * thread, stayed until a garbage collection came; a worker's goes when the worker ends.
 */
async function createCluster(pgdata: string, startParams: string[]) {
  const { Worker } = await import("node:worker_threads");
  const worker = new Worker(
    `const { workerData } = require("node:worker_threads");
     import(workerData.pglite).then(async ({ PGlite }) => {
       const init = new PGlite(workerData.pgdata, { startParams: workerData.startParams });
       await init.waitReady;
       await init.close();
     });`,
    { eval: true, workerData: { pglite: import.meta.resolve("@electric-sql/pglite"), pgdata, startParams } },
  );
  const [code] = (await once(worker, "exit")) as [number];
  if (code !== 0) throw new Error(`the database could not be created in ${pgdata} (initdb exited ${code})`);
}

type PgliteLike = {
  query<T>(q: string, p?: unknown[]): Promise<{ rows: T[] }>;
  exec(q: string): Promise<unknown>;
  transaction<T>(fn: (tx: PgliteLike) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  clone?: () => Promise<unknown>;
};

export function wrapPglite(raw: unknown): SqlDriver & { raw: unknown } {
  const db = raw as PgliteLike;
  const wrapTx = (tx: PgliteLike): Sql =>
    ({
      query: (text: string, params?: unknown[]) => tx.query(text, params),
      exec: (text: string) => tx.exec(text),
    }) as Sql;
  return {
    kind: "pglite",
    raw,
    query: (text, params) => db.query(text, params) as never,
    transaction: (fn) => db.transaction((tx) => fn(wrapTx(tx))),
    close: () => db.close(),
  };
}

export async function openPostgres(url: string): Promise<SqlDriver> {
  const pg = (await import("pg")).default;
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  pool.on("error", (err) => console.error("[db] idle client error:", err.message));
  const held: import("pg").PoolClient[] = [];
  let closed = false;
  async function holdLock(key: number): Promise<boolean> {
    const client = await pool.connect();
    const { rows } = await client
      .query<{ ok: boolean }>(`select pg_try_advisory_lock($1) as ok`, [key])
      .catch((error: Error) => (client.release(error), Promise.reject(error)));
    if (!rows[0]?.ok) {
      client.release();
      return false;
    }
    held.push(client);
    // A checked-out client that loses its server emits 'error'; unheard, that ends the process.
    // The lock went with the connection: take it again once the database is back.
    client.on("error", (err) => {
      console.error("[db] the connection holding lock", key, "was lost:", err.message);
      held.splice(held.indexOf(client), 1);
      client.release(err);
      const retry = () => {
        if (closed) return;
        holdLock(key).then(
          (ok) => ok || console.error("[db] lock", key, "is now held by another process"),
          () => setTimeout(retry, 5_000).unref(),
        );
      };
      setTimeout(retry, 5_000).unref();
    });
    return true;
  }
  return {
    kind: "postgres",
    holdLock,
    query: async (text, params) => (await pool.query(text, params as unknown[])) as never,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn({ query: (t, p) => client.query(t, p as unknown[]) as never });
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      closed = true;
      for (const client of held.splice(0)) client.release();
      await pool.end();
    },
  };
}

/** The same driver for one request, counting each statement and transaction into its stats. */
export function counted(db: SqlDriver, stats: DbStats): SqlDriver {
  const inTransaction = (tx: Sql): Sql =>
    Object.assign(Object.create(tx) as Sql, {
      query: (text: string, params?: unknown[]) => {
        stats.statements += 1;
        return tx.query(text, params);
      },
    });
  return Object.assign(Object.create(db) as SqlDriver, {
    count: (kind: keyof DbStats) => void (stats[kind] += 1),
    query: (text: string, params?: unknown[]) => {
      stats.statements += 1;
      return db.query(text, params);
    },
    transaction: <T>(fn: (tx: Sql) => Promise<T>) => {
      stats.transactions += 1;
      return db.transaction((tx) => fn(inTransaction(tx)));
    },
  });
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "57P01",
  "57P03",
  "08006",
  "08001",
  "08003",
]);

export function classify(error: unknown): never {
  const code = (error as { code?: string })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (
    (code && CONNECTION_CODES.has(code)) ||
    /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED/i.test(message)
  ) {
    throw new BackendUnavailableError(error);
  }
  throw error;
}

export function toError(e: unknown): BackendError {
  if (e instanceof BackendUnavailableError) throw e;
  return isDbError(e) ? { message: e.message, code: e.code } : { message: e instanceof Error ? e.message : String(e) };
}

export async function ownerQuery<T extends Row>(db: SqlDriver, text: string, params?: unknown[]): Promise<T[]> {
  try {
    return (await db.query<T>(text, params)).rows;
  } catch (e) {
    classify(e);
  }
}

/** As ownerQuery, for a transaction: an outage becomes BackendUnavailableError, any other error is thrown as it was. */
export async function ownerTransaction<T>(db: SqlDriver, fn: (tx: Sql) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(fn);
  } catch (e) {
    classify(e);
  }
}

/** The RLS policies, not the caller, decide which rows are seen; one statement sets both, as PostgREST does. */
export function asRole<T>(
  db: SqlDriver,
  role: "authenticated" | "anon",
  claims: object,
  fn: (tx: Sql) => Promise<T>,
): Promise<T> {
  db.count?.("rls");
  return ownerTransaction(db, async (tx) => {
    await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('role', $2, true)`, [
      JSON.stringify({ ...claims, role }),
      role,
    ]);
    return fn(tx);
  });
}

/**
 * A call's answer in the port's shape: what `work` answers with `error: null` (unless it names its own error), or,
 * when it throws, the fallback with the error as PostgREST would give it. An outage still throws (toError).
 */
export async function attempt<T extends object>(
  fallback: NoInfer<T>,
  work: () => Promise<T & { error?: BackendError | null }>,
): Promise<T & { error: BackendError | null }> {
  try {
    const answer = await work();
    return { ...answer, error: answer.error ?? null };
  } catch (e) {
    return { ...fallback, error: toError(e) };
  }
}
