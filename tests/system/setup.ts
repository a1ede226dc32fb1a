// Shared helpers of the system tests: they drive the production server
// (`node build/server/index.js`, the build in build/) over HTTP on 127.0.0.1 only.
// - The build: tests/support/build.ts, vitest's global setup of the "system" project,
//   builds once per run when build/ is older than the sources.
// - startServer(): a server on a free port with its own DATA_DIR, stopped or
//   SIGKILLed by its own pid.
// - Client (./http): one shopper's cookie jar over fetch, redirects not followed.
// - seedShoppers()/openDataDir(): confirmed accounts written straight into a new
//   data dir before its server starts, and the data read back after it stopped.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import crypto from "node:crypto";
import { migrate, migrationList, openPglite, type SqlDriver } from "~/server/backend/sql/db.server";
import { hashPassword } from "~/server/backend/passwords.server";
import { confirmationLink } from "../support/outbox";
import { freePort } from "../support/process";
import { Client, PASSWORD } from "./http";
export * from "./http";
export { freePort };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The node flags of `npm start` (package.json): the servers run as deployed. */
const START_FLAGS: string[] =
  JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start.match(/--[\w-]+(=\S+)?/g) ?? [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- Servers -------------------------------------------------------------------------

export const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), `mixtape-${prefix}-`));

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

const running = new Set<ChildProcess>();
// A worker that dies first must not leave servers behind (each by its own pid).
process.once("exit", () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** Spawns `node build/server/index.js` (production) with its own env; resolves when it listens. */
export function spawnServer(opts: { dataDir: string; port: number; env?: Record<string, string | undefined> }) {
  const env: Record<string, string | undefined> = {
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
  const child = spawn(process.execPath, [...START_FLAGS, path.join(ROOT, "build/server/index.js")], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, exited, output: () => out };
}

export async function startServer(
  opts: { dataDir?: string; port?: number; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<Server> {
  const dataDir = opts.dataDir ?? tempDir("data");
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
