// Shared helpers of the system tests: they drive the production server
// (`node build/server/index.js`, the build in build/) over HTTP on 127.0.0.1 only.
// - The build: tests/support/build.ts, vitest's global setup of the "system" project,
//   builds once per run when build/ is older than the sources.
// - The harness: suiteServer() gives a describe block (or the file) one server on a data dir of its
//   own; suiteTempDir() a dir for the block, testTempDir() one for the running test; suitePostgres()
//   and suiteSupabaseFake() the other backends, started before the block's server. A dir is removed
//   after its block or test, pass or fail, once every server started on it has stopped.
// - startServer()/spawnServer(): a server on a free port with a DATA_DIR, stopped or SIGKILLed by its own pid.
// - Client (./http): one shopper's cookie jar over fetch, redirects not followed.
// - seedShoppers()/openDataDir(): confirmed accounts written straight into a new
//   data dir before its server starts, and the data read back after it stopped.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import crypto from "node:crypto";
import { afterAll, beforeAll, onTestFinished } from "vitest";
import { migrate, migrationList, openPglite, type SqlDriver } from "~/server/backend/sql/db.server";
import { hashPassword } from "~/server/backend/passwords.server";
import { confirmationLink } from "../support/outbox";
import { bootPglite, type PgliteTemplate } from "../support/pglite";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres";
import { freePort } from "../support/process";
import { startSupabaseFake, type SupabaseFake } from "../support/supabase-fake";
import { Client, PASSWORD } from "./http";
export * from "./http";
export { freePort };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The node flags of `npm start` (package.json): the servers run as deployed. */
const START_FLAGS: string[] =
  JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start.match(/--[\w-]+(=\S+)?/g) ?? [];
/** What a set-up hook may take: a first start, a seed of 200 accounts, a PostgreSQL cluster. */
const SETUP_MS = 300_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- Servers -------------------------------------------------------------------------

type Env = Record<string, string | undefined>;

/**
 * A data dir's database, created and migrated once for these migrations: startServer() and
 * seedShoppers() copy it into an empty data dir (a first boot's initdb and migrations take
 * seconds; startup.test.ts boots from nothing through spawnServer()).
 */
export async function fromTemplate(dir: string) {
  if (!fs.existsSync(path.join(dir, "pgdata"))) fs.cpSync(await migratedTemplate(), dir, { recursive: true });
}

async function migratedTemplate(): Promise<string> {
  const pglite = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8")).version;
  const hash = crypto
    .createHash("sha256")
    .update(JSON.stringify([pglite, migrationList()]))
    .digest("hex")
    .slice(0, 16);
  const template = path.join(ROOT, "node_modules/.cache", `mixtape-migrated-${hash}`);
  if (fs.existsSync(path.join(template, "pgdata", "PG_VERSION"))) return template;
  // Made aside and renamed into place, so a test file running beside this one never copies half of it.
  const building = `${template}.${process.pid}`;
  fs.mkdirSync(building, { recursive: true });
  const db = await openPglite(building);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  try {
    fs.renameSync(building, template);
  } catch {
    fs.rmSync(building, { recursive: true, force: true }); // another file made it first
  }
  return template;
}

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type Server = {
  url: string;
  port: number;
  dataDir: string;
  pid: number;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  exited: Promise<Exit>;
  /** SIGTERM (graceful: releases the lock), then waits for the exit. */
  stop(): Promise<Exit>;
  /** SIGKILL by its own pid, then waits for the exit. */
  kill(): Promise<Exit>;
};

/** The servers running now, each with its DATA_DIR: a dir's clean-up stops those on it. */
const running = new Map<ChildProcess, { dataDir: string; exited: Promise<Exit> }>();
// A worker that dies first must not leave servers behind (each by its own pid).
process.once("exit", () => {
  for (const child of running.keys()) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/**
 * Spawns `node build/server/index.js` (production) with its own env; resolves when it listens.
 * `root` is the folder whose build runs (a production install's copy); by default this checkout.
 */
export function spawnServer(opts: { dataDir: string; port: number; env?: Env; root?: string }) {
  const env: Env = {
    ...process.env,
    // A developer's shell or .env must not send these servers elsewhere (an empty
    // value is "unset" for the app's config, and the server's .env loading never overrides it).
    DATABASE_URL: "",
    SUPABASE_URL: "",
    SUPABASE_ANON_KEY: "",
    SMTP_URL: "",
    SITE_URL: "",
    SESSION_SECRET: "",
    TRUST_PROXY: "",
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(opts.port),
    DATA_DIR: opts.dataDir,
    RATE_LIMIT_FACTOR: "10000",
    ...opts.env,
  };
  // The parent test run's settings must not leak into the server.
  for (const key of ["VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID", "TEST"]) delete env[key];
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const root = opts.root ?? ROOT;
  const child = spawn(process.execPath, [...START_FLAGS, path.join(root, "build/server/index.js")], {
    cwd: root,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  running.set(child, { dataDir: opts.dataDir, exited });
  return { child, exited, output: () => out };
}

/** A server on this data dir (from the migrated template when it has no database yet), listening. */
export async function startServer(opts: { dataDir: string; port?: number; env?: Env; timeoutMs?: number }): Promise<Server> {
  const { dataDir } = opts;
  await fromTemplate(dataDir);
  const port = opts.port ?? (await freePort());
  const { child, exited, output } = spawnServer({ dataDir, port, env: opts.env });
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  let exit: Exit | null = null;
  void exited.then((e) => (exit = e));
  while (!/Mixtape storefront .* at http/.test(output())) {
    if (exit) throw new Error(`server exited (${JSON.stringify(exit)}) before listening:\n${output()}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not listen in time:\n${output()}`);
    }
    await sleep(100);
  }
  const pid = child.pid!;
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) process.kill(pid, sig);
    return exited;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    pid,
    child,
    output,
    exited,
    stop: () => signal("SIGTERM"),
    kill: () => signal("SIGKILL"),
  };
}

// ---- The harness -----------------------------------------------------------------------

/**
 * Stops every server still running on the dir, then removes it. SIGTERM first, SIGKILL after 15 s:
 * a test that failed may leave a request hanging for the whole shutdown grace.
 */
async function removeDir(dir: string) {
  try {
    const on = [...running].filter(([, r]) => r.dataDir === dir || r.dataDir.startsWith(dir + path.sep));
    await Promise.all(
      on.map(async ([child, { exited }]) => {
        child.kill("SIGTERM");
        const late = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exited;
        clearTimeout(late);
      }),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A temp dir for this describe block (or the file): made before its tests, removed after them. */
export function suiteTempDir(prefix: string): string {
  const dir = path.join(os.tmpdir(), `mixtape-${prefix}-${crypto.randomBytes(6).toString("hex")}`);
  beforeAll(() => {
    fs.mkdirSync(dir);
  });
  afterAll(() => removeDir(dir), SETUP_MS);
  return dir;
}

/** A temp dir for the running test, removed when it finishes. */
export function testTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mixtape-${prefix}-`));
  onTestFinished(() => removeDir(dir), SETUP_MS);
  return dir;
}

export type ServerSetup = {
  /** Confirmed accounts written into the data dir before the start. */
  shoppers?: Account[];
  /** Anything else the data dir holds before the start (after the shoppers). */
  seed?: (dataDir: string) => Promise<void>;
  /** Its env; a function runs once, after the set-up hooks registered before suiteServer() (a fake's URL). */
  env?: Env | ((server: { port: number }) => Env | Promise<Env>);
};

/** suiteServer()'s server: always the one running now. */
export type SuiteServer = Server & {
  /** Starts it again on the same data dir, port and env, after stop() or kill(). */
  start(): Promise<Server>;
};

/**
 * One server for this describe block (or the file) on a data dir of its own: seeded and started
 * before its tests, stopped and its dir removed after them, pass or fail.
 */
export function suiteServer(prefix: string, setup: ServerSetup = {}): SuiteServer {
  const dataDir = suiteTempDir(prefix);
  let current: Server | undefined;
  let port = 0;
  let env: Env = {};
  const start = async () => (current = await startServer({ dataDir, port, env }));
  beforeAll(async () => {
    if (setup.shoppers) await seedShoppers(dataDir, setup.shoppers);
    await setup.seed?.(dataDir);
    port = await freePort();
    env = typeof setup.env === "function" ? await setup.env({ port }) : (setup.env ?? {});
    await start();
  }, SETUP_MS);
  const now = () => current ?? unset(`suiteServer("${prefix}")'s server starts in beforeAll`);
  return {
    get url() {
      return now().url;
    },
    get port() {
      return now().port;
    },
    dataDir,
    get pid() {
      return now().pid;
    },
    get child() {
      return now().child;
    },
    get exited() {
      return now().exited;
    },
    output: () => now().output(),
    stop: () => now().stop(),
    kill: () => now().kill(),
    start,
  };
}

const unset = (what: string): never => {
  throw new Error(`${what}: read it in a test or a later hook`);
};

/** A PostgreSQL 15 cluster with one database for this block (skip it where postgresAvailable() is false). */
export function suitePostgres(database: string): { readonly url: string; readonly cluster: PostgresCluster } {
  let cluster: PostgresCluster | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    url = await cluster.createDatabase(database);
  }, SETUP_MS);
  afterAll(async () => cluster?.destroy());
  return {
    get url() {
      return url ?? unset(`suitePostgres("${database}")'s database`);
    },
    get cluster() {
      return cluster ?? unset(`suitePostgres("${database}")'s cluster`);
    },
  };
}

/** Supabase mode for this block: the HTTP fake on a fresh migrated PGlite (`seed` first), and the env naming it. */
export function suiteSupabaseFake(options: { accessTokenSeconds?: number; seed?: (db: SqlDriver) => Promise<unknown> } = {}) {
  let template: PgliteTemplate | undefined;
  let fake: SupabaseFake | undefined;
  beforeAll(async () => {
    template = await bootPglite();
    const db = await template.clone();
    await options.seed?.(db);
    fake = await startSupabaseFake({ db, accessTokenSeconds: options.accessTokenSeconds });
  }, SETUP_MS);
  afterAll(async () => {
    await fake?.close();
    await template?.close();
  });
  const now = () => fake ?? unset("suiteSupabaseFake()'s fake");
  return {
    get fake() {
      return now();
    },
    /** What points a server at it; SITE_URL is required in production with Supabase. */
    env: (port: number): Env => ({
      SUPABASE_URL: now().url,
      SUPABASE_ANON_KEY: now().anonKey,
      SITE_URL: `http://localhost:${port}`,
    }),
  };
}

// ---- Accounts ----------------------------------------------------------------------------

export type Account = { username: string; email: string };

export const accounts = (n: number, prefix: string): Account[] =>
  Array.from({ length: n }, (_, i) => ({ username: `${prefix}_${i}`, email: `${prefix}.${i}@example.com` }));

/**
 * Creates DATA_DIR's database (migrations) with these confirmed accounts, before its
 * server starts (the server holds the data dir's lock while it runs).
 */
export async function seedShoppers(dataDir: string, list: Account[], password = PASSWORD): Promise<void> {
  fs.mkdirSync(dataDir, { recursive: true });
  await fromTemplate(dataDir);
  const db = await openPglite(dataDir);
  try {
    await migrate(db);
    const hash = await hashPassword(password);
    for (let i = 0; i < list.length; i += 50) {
      const chunk = list.slice(i, i + 50);
      await db.query(
        `insert into auth.users (email, encrypted_password, email_confirmed_at, raw_user_meta_data)
         select e, $1, now(), jsonb_build_object('username', u) from unnest($2::text[], $3::text[]) as t(e, u)`,
        [hash, chunk.map((a) => a.email), chunk.map((a) => a.username)],
      );
    }
  } finally {
    await db.close();
  }
}

/** Opens a stopped server's data dir to read what it stored. */
export async function openDataDir(dataDir: string): Promise<SqlDriver> {
  return openPglite(dataDir);
}

/** Signs up through HTTP and opens the confirmation link from the outbox: a signed-in client. */
export async function signUpOverHttp(
  base: string,
  dataDir: string,
  account: Account,
  password = PASSWORD,
  headers: Record<string, string> = {},
) {
  const client = new Client(base, headers);
  const res = await client.post("/auth?mode=signup", {
    mode: "signup",
    username: account.username,
    email: account.email,
    password,
  });
  if (res.status !== 302 || res.location !== "/auth")
    throw new Error(`sign-up answered ${res.status}: ${res.body.slice(0, 300)}`);
  const link = await confirmationLink(dataDir, account.email);
  const confirmed = await client.get(link.pathname + link.search);
  if (confirmed.status !== 302 || confirmed.location !== "/") throw new Error(`confirmation answered ${confirmed.status}`);
  return client;
}

export const sleepMs = sleep;
