// The SQL layer under the embedded auth and data: one small driver interface over
// PGlite (embedded, default) and node-postgres (DATABASE_URL), migrations applied
// exactly once each, and the data-dir lock file that keeps a second process out.
import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";

export type Row = Record<string, unknown>;
export interface Sql {
  query<T extends Row = Row>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}
export interface SqlDriver extends Sql {
  kind: "pglite" | "postgres";
  /** Runs fn inside one transaction; use only the tx handed to fn inside it. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Postgres-style error with the SQLSTATE code, as both drivers raise them. */
export type DbError = Error & { code?: string; constraint?: string; table?: string };
export const isDbError = (e: unknown): e is DbError => e instanceof Error && typeof (e as DbError).code === "string";

// ---- Migrations ----------------------------------------------------------------

const shim = import.meta.glob("/db/shim.sql", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const migrations = import.meta.glob("/supabase/migrations/*.sql", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** The ordered list: the shim first, then supabase/migrations by file name. */
export function migrationList(): { name: string; sql: string }[] {
  const list = [...Object.entries(shim), ...Object.entries(migrations).sort(([a], [b]) => a.localeCompare(b))];
  return list.map(([file, sql]) => ({ name: file.replace(/^\//, ""), sql }));
}

/** Applies each migration that is not yet recorded, in its own transaction. */
export async function migrate(db: SqlDriver): Promise<string[]> {
  const applied: string[] = [];
  const run = async (tx: Sql) => {
    await tx.query(`create schema if not exists mixtape_meta`);
    await tx.query(
      `create table if not exists mixtape_meta.migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
    const done = new Set(
      (await tx.query<{ name: string }>(`select name from mixtape_meta.migrations`)).rows.map((r) => r.name),
    );
    for (const m of migrationList()) {
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

// ---- PGlite --------------------------------------------------------------------

export async function openPglite(dataDir: string | undefined): Promise<SqlDriver> {
  const { PGlite } = await import("@electric-sql/pglite");
  // A small buffer pool: the shop's data is small, and the default 128 MB of shared
  // buffers is most of the process's memory.
  const startParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];
  if (!dataDir) {
    const db = new PGlite({ startParams });
    await db.waitReady;
    return wrapPglite(db);
  }
  const pgdata = path.join(dataDir, "pgdata");
  if (!fs.existsSync(path.join(pgdata, "PG_VERSION"))) {
    // A new data dir: initdb grows the WebAssembly memory to ~700 MB of RSS, and that
    // memory never shrinks while the instance lives. Open once to create the cluster,
    // close, and serve from a fresh instance (~300 MB) instead.
    await createCluster(PGlite, pgdata, startParams);
    releaseGarbage();
  }
  const db = new PGlite(pgdata, { startParams });
  await db.waitReady;
  return wrapPglite(db);
}

async function createCluster(PGlite: typeof import("@electric-sql/pglite").PGlite, pgdata: string, startParams: string[]) {
  const init = new PGlite(pgdata, { startParams });
  await init.waitReady;
  await init.close();
}

/**
 * One full garbage collection, so the closed instance's WebAssembly memory goes back
 * to the system within about a second rather than whenever V8 next collects (measured
 * a second after reopening: ~540 MB without it, ~290 MB with it). Best effort: without it the memory
 * is released later.
 */
function releaseGarbage() {
  try {
    v8.setFlagsFromString("--expose-gc");
    (vm.runInNewContext("gc") as () => void)();
  } catch {
    // no-op: a later collection frees it
  }
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

// ---- node-postgres ---------------------------------------------------------------

export async function openPostgres(url: string): Promise<SqlDriver> {
  const pg = (await import("pg")).default;
  // Keep timestamps and bigints as text; the domain reads them tolerantly.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  pool.on("error", (err) => console.error("[db] idle client error:", err.message));
  return {
    kind: "postgres",
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
    close: () => pool.end(),
  };
}

// ---- The data-dir lock -------------------------------------------------------------

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      `Another server process (pid ${pid}) is using this data directory. ` +
        `Its lock file is ${lockFile}. Stop that process, or set DATA_DIR to another directory.`,
    );
    this.name = "DataDirLockedError";
  }
}

export const isProcessAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Takes DATA_DIR/mixtape.lock for this process. A lock left by a dead process is
 * taken over; a live one is refused with DataDirLockedError. Returns a release
 * function, also run on exit.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.resolve(dataDir, "mixtape.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockFile, "wx", 0o600);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      const release = () => {
        try {
          if (fs.readFileSync(lockFile, "utf8").trim() === String(process.pid)) fs.unlinkSync(lockFile);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number.parseInt(fs.readFileSync(lockFile, "utf8").trim(), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isProcessAlive(pid)) {
        throw new DataDirLockedError(lockFile, pid);
      }
      // Stale: its process is gone (or the file is garbage). Take it over.
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not take the lock file ${lockFile}.`);
}
