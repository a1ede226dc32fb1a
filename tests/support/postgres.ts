// A throwaway PostgreSQL cluster from the machine's own binaries (Debian's
// postgresql-15 here), for the contract tests of the embedded adapter on real
// Postgres. One cluster per test file; a migrated template database; each test gets
// a fresh database copied from the template with CREATE DATABASE ... TEMPLATE. In the
// contract project a file's cluster is a copy of the data directory that the global setup
// made and migrated once (tests/support/contract-setup.ts), instead of its own initdb.
//
// How it runs (as root, which the sandbox and CI are):
//   runuser -u postgres -- initdb -D <tmp>/data -U postgres -A trust -E UTF8 --locale=C --no-sync
//   runuser -u postgres -- pg_ctl -D <tmp>/data -l <tmp>/postgres.log -w -t 60 \
//       -o "-p PORT -k <tmp>/sock -c listen_addresses=127.0.0.1 -c fsync=off ..." start
//   ... tests connect as the superuser `postgres` over TCP 127.0.0.1:PORT ...
//   runuser -u postgres -- pg_ctl -D <tmp>/data -m fast -w stop   (then the postmaster
//   pid read from postmaster.pid is checked, and killed if it is somehow still there)
// As a non-root user the same commands run directly as that user.
// No binaries: `skipped: no PostgreSQL` is printed and the postgres cases are skipped,
// unless CI is set, where that is a failure.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { migrate, openPostgres, type SqlDriver } from "~/server/backend/sql/db.server";
import { freePort, isProcessAlive } from "./process";

const SEARCH_DIRS = ["/usr/lib/postgresql/15/bin", "/usr/local/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin"];
const PG_USER = "postgres"; // the OS user that runs the server when we are root
const SUPERUSER = "postgres"; // the database superuser initdb creates (-U)

export const isCI = () => process.env.CI === "true" || process.env.CI === "1";

export type PostgresBinaries = { initdb: string; pgCtl: string; dir: string };

/** initdb and pg_ctl side by side: PATH first, then Debian's and /usr/local/bin. */
export function findPostgresBinaries(): PostgresBinaries | null {
  const fromPath = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  for (const dir of [...fromPath, ...SEARCH_DIRS]) {
    const initdb = path.join(dir, "initdb");
    const pgCtl = path.join(dir, "pg_ctl");
    if (isExecutable(initdb) && isExecutable(pgCtl)) {
      // /usr/local/bin/initdb is a symlink into Debian's tree: use the real directory
      // so that initdb finds its `postgres` beside it.
      const real = path.dirname(fs.realpathSync(initdb));
      return { initdb: path.join(real, "initdb"), pgCtl: path.join(real, "pg_ctl"), dir: real };
    }
  }
  return null;
}

function isExecutable(file: string) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

function userExists(name: string) {
  return spawnSync("id", ["-u", name], { stdio: "ignore" }).status === 0;
}

/**
 * Why the postgres cases cannot run here, or null when they can. As root the server
 * must run as another user: `postgres` (Debian's package creates it). In CI a missing
 * user is created with useradd; elsewhere that is left to the developer.
 */
export function postgresUnavailableReason(): string | null {
  if (!findPostgresBinaries()) return "no initdb/pg_ctl on PATH, in /usr/lib/postgresql/15/bin or /usr/local/bin";
  if (isRoot() && !userExists(PG_USER)) {
    if (isCI()) {
      const r = spawnSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PG_USER], {
        encoding: "utf8",
      });
      if (r.status !== 0) return `running as root and could not create the user ${PG_USER}: ${r.stderr}`;
      return null;
    }
    return `running as root and there is no OS user "${PG_USER}" to run the server (create it: useradd --system ${PG_USER})`;
  }
  return null;
}

/**
 * Decides at collection time whether the postgres cases run. Prints the visible
 * `skipped: no PostgreSQL` line when they do not; under CI that is an error instead.
 */
export function postgresAvailable(): boolean {
  const reason = postgresUnavailableReason();
  if (!reason) return true;
  if (isCI()) throw new Error(`PostgreSQL is required in CI but cannot run: ${reason}`);
  console.log(`skipped: no PostgreSQL (${reason})`);
  return false;
}

/** Runs a binary as the server's user (runuser when we are root). */
function runAs(bin: string, args: string[], opts: { timeout?: number } = {}) {
  const [cmd, argv] = isRoot() ? ["runuser", ["-u", PG_USER, "--", bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: opts.timeout ?? 60_000 });
}

export type PostgresCluster = {
  port: number;
  dataDir: string;
  /** A connection URL for a database of this cluster, as the superuser. */
  url(database: string): string;
  /** Runs one statement as the superuser on the `postgres` database. */
  admin(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
  /** Creates an empty database. */
  createDatabase(name: string, template?: string): Promise<string>;
  /** The pid of the running postmaster (from postmaster.pid), or null. */
  pid(): number | null;
  /** Stops the server (fast), keeping the data. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes every file. */
  destroy(): Promise<void>;
};

/** A cluster of its own: a fresh initdb, or a copy of a stopped cluster's data directory (`from`). */
export async function startPostgresCluster(from?: string): Promise<PostgresCluster> {
  const bins = findPostgresBinaries();
  if (!bins) throw new Error("PostgreSQL binaries not found");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-pg-"));
  const dataDir = path.join(root, "data");
  const sockDir = path.join(root, "sock");
  const logFile = path.join(root, "postgres.log");
  // cp -a keeps the copy's owner (the server's user) and modes; a fifth of Node's cpSync's time here.
  if (from) execFileSync("cp", ["-a", from, dataDir]);
  else fs.mkdirSync(dataDir, { mode: 0o700 });
  fs.mkdirSync(sockDir, { mode: 0o700 });
  if (isRoot()) {
    const uid = Number(execFileSync("id", ["-u", PG_USER], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", PG_USER], { encoding: "utf8" }).trim());
    for (const p of [root, dataDir, sockDir]) fs.chownSync(p, uid, gid);
  }
  if (!from) runAs(bins.initdb, ["-D", dataDir, "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const port = await freePort();
  const serverOptions = [
    `-p ${port}`,
    `-k ${sockDir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=100",
  ].join(" ");

  const pidFromFile = (): number | null => {
    try {
      const pid = Number.parseInt(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0], 10);
      return Number.isInteger(pid) && pid > 0 ? pid : null;
    } catch {
      return null;
    }
  };

  let running = false;
  const start = async () => {
    runAs(bins.pgCtl, ["-D", dataDir, "-l", logFile, "-w", "-t", "60", "-o", serverOptions, "start"]);
    running = true;
  };
  const stopSync = () => {
    const pid = pidFromFile();
    if (pid === null) return;
    try {
      runAs(bins.pgCtl, ["-D", dataDir, "-m", "fast", "-w", "-t", "30", "stop"]);
    } catch {
      /* fall through to the pid check */
    }
    if (isProcessAlive(pid)) {
      // pg_ctl failed somehow: stop our own postmaster by its pid, nothing else.
      try {
        process.kill(pid, "SIGQUIT");
      } catch {
        /* gone */
      }
    }
  };
  const stop = async () => {
    stopSync();
    running = false;
  };
  const onExit = () => {
    if (running) stopSync();
    fs.rmSync(root, { recursive: true, force: true });
  };
  // Normally destroy() stops the server; these catch a worker that exits or is
  // interrupted first, so that no postmaster outlives the test run.
  const onSignal = (signal: NodeJS.Signals) => {
    onExit();
    process.kill(process.pid, signal);
  };
  process.once("exit", onExit);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const unhook = () => {
    process.removeListener("exit", onExit);
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  };

  try {
    await start();
  } catch (e) {
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "";
    unhook();
    onExit();
    throw new Error(`pg_ctl start failed: ${(e as Error).message}\n${log}`);
  }

  const url = (database: string) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  const admin = async (sql: string, params?: unknown[]) => {
    const client = new pg.Client({ connectionString: url("postgres") });
    await client.connect();
    try {
      return await client.query(sql, params);
    } finally {
      await client.end();
    }
  };

  return {
    port,
    dataDir,
    url,
    admin,
    async createDatabase(name, template) {
      await admin(`create database "${name}"${template ? ` template "${template}"` : ""}`);
      return url(name);
    },
    pid: pidFromFile,
    stop,
    start,
    async destroy() {
      await stop();
      unhook();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export type PostgresTemplate = {
  cluster: PostgresCluster;
  /** The migrations applied to the template (all of them; none when it is the run's copy). */
  applied: string[];
  /** A fresh migrated database; its driver. */
  fresh(): Promise<{ db: SqlDriver; url: string; name: string }>;
  close(): Promise<void>;
};

/** A cluster with a migrated template database (the run's copy where there is one); fresh() copies it per test. */
export async function bootPostgres(copy = inject("postgresData")): Promise<PostgresTemplate> {
  const cluster = await startPostgresCluster(copy ?? undefined);
  try {
    let applied: string[] = [];
    if (!copy) {
      const db = await openPostgres(await cluster.createDatabase("mixtape_template"));
      try {
        applied = await migrate(db);
      } finally {
        await db.close(); // CREATE DATABASE ... TEMPLATE needs it without connections
      }
    }
    const open = new Set<SqlDriver>();
    let n = 0;
    return {
      cluster,
      applied,
      async fresh() {
        const name = `mixtape_t${++n}_${process.pid}`;
        const url = await cluster.createDatabase(name, "mixtape_template");
        const driver = await openPostgres(url);
        const close = driver.close;
        let closed = false;
        driver.close = async () => {
          if (closed) return;
          closed = true;
          open.delete(driver);
          await close();
        };
        open.add(driver);
        return { db: driver, url, name };
      },
      async close() {
        for (const d of [...open]) await d.close().catch(() => {});
        await cluster.destroy();
      },
    };
  } catch (e) {
    await cluster.destroy();
    throw e;
  }
}
