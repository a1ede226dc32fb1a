// PostgreSQL mode shares one table across app processes; embedded mode owns its data dir, so memory suffices.
import crypto from "node:crypto";
import type { Pool } from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { RouterContextProvider } from "react-router";
import { requestContext } from "../context.server";
import { getConfig } from "./config.server";
import { getLog, reason } from "./log.server";

/** Login per address follows Supabase Auth's default; per-identifier limits stop guessers that rotate addresses. */
const ACTIONS = {
  login: { perIp: { points: 30, duration: 5 * 60 }, perIdentifier: { points: 10, duration: 15 * 60 } },
  signup: { perIp: { points: 10, duration: 60 * 60 }, perIdentifier: { points: 3, duration: 60 * 60 } },
  recover: { perIp: { points: 10, duration: 60 * 60 }, perIdentifier: { points: 3, duration: 60 * 60 } },
  resend: { perIp: { points: 10, duration: 60 * 60 }, perIdentifier: { points: 3, duration: 60 * 60 } },
} as const;
export type LimitedAction = keyof typeof ACTIONS;

const POST_LIMIT = { points: 300, duration: 60 } as const;
/** Error reports from browsers (POST /client-errors): enough for a page that fails, not for a flood of the log. */
const CLIENT_ERRORS_LIMIT = { points: 20, duration: 60 } as const;
const ALL_LIMITS: Record<string, { points: number; duration: number }> = {
  ...Object.fromEntries(
    Object.entries(ACTIONS).flatMap(([action, l]) => [
      [`${action}PerIp`, l.perIp],
      [`${action}PerIdentifier`, l.perIdentifier],
    ]),
  ),
  "post-ip": POST_LIMIT,
  "client-errors": CLIENT_ERRORS_LIMIT,
};

const RATE_LIMIT_TABLE = { schema: "mixtape_meta", table: "rate_limits" } as const;

type Limiter = { consume(key: string): Promise<unknown> };
type Name = string;

type RateLimits = { limiters: Map<Name, Limiter>; store: PostgresStore | null };
let current: RateLimits | undefined;

function state(): RateLimits {
  if (!current) {
    const config = getConfig();
    current = {
      limiters: new Map(),
      store: config.backendKind === "postgres" && config.DATABASE_URL ? postgresStore(config.DATABASE_URL) : null,
    };
  }
  return current;
}

export const rateLimitStore = (): "memory" | "postgres" => (state().store ? "postgres" : "memory");

function limiter(name: Name): Limiter {
  const s = state();
  let l = s.limiters.get(name);
  if (!l) {
    const points = Math.max(1, Math.ceil(ALL_LIMITS[name].points * getConfig().RATE_LIMIT_FACTOR));
    const opts = { keyPrefix: name, points, duration: ALL_LIMITS[name].duration };
    const memory = new RateLimiterMemory(opts);
    l = s.store ? s.store.limiter(opts, memory) : memory;
    s.limiters.set(name, l);
  }
  return l;
}

type PostgresStore = {
  limiter(opts: { keyPrefix: string; points: number; duration: number }, insurance: RateLimiterMemory): Limiter;
  close(): Promise<void>;
};

const RETRY_TABLE_MS = 5_000;

function postgresStore(url: string): PostgresStore {
  let pool: Promise<Pool> | undefined;
  let table: Promise<void> | undefined;
  let tableFailedAt = 0;

  const getPool = () =>
    (pool ??= import("pg").then(({ default: pg }) => {
      const p = new pg.Pool({
        connectionString: url,
        max: 3,
        connectionTimeoutMillis: 3_000,
        idleTimeoutMillis: 30_000,
        allowExitOnIdle: true,
        application_name: "mixtape-rate-limits",
      });
      // An idle connection dropped by the server (restart, outage) must not crash us.
      p.on("error", (err) => getLog().error({ err: err.message }, "rate limit pool: idle client error"));
      return p;
    }));

  /** Retries at most every 5 s so an outage does not hammer the database. */
  const ensureTable = (): Promise<void> => {
    if (table) return table;
    if (Date.now() - tableFailedAt < RETRY_TABLE_MS) return Promise.reject(new Error("rate limit table not ready"));
    table = getPool()
      .then((p) => createRateLimitTable(p))
      .catch((error) => {
        table = undefined;
        tableFailedAt = Date.now();
        throw error;
      });
    return table;
  };
  void ensureTable().catch((e) => getLog().warn({ err: reason(e) }, "rate limit table not created yet"));

  return {
    limiter(opts, insurance) {
      let store: RateLimiterPostgres | undefined;
      return {
        async consume(key: string) {
          try {
            await ensureTable();
          } catch {
            return insurance.consume(key); // database unreachable: limit in this process
          }
          store ??= new RateLimiterPostgres({
            ...opts,
            storeClient: await getPool(),
            storeType: "pool",
            schemaName: RATE_LIMIT_TABLE.schema,
            tableName: RATE_LIMIT_TABLE.table,
            tableCreated: true, // created above, with the schema
            insuranceLimiter: insurance,
          });
          return store.consume(key);
        },
      };
    },
    async close() {
      if (pool) await (await pool).end();
    },
  };
}

async function createRateLimitTable(client: { query(text: string): Promise<unknown> }): Promise<void> {
  const statements = [
    `create schema if not exists ${RATE_LIMIT_TABLE.schema}`,
    `create table if not exists ${RATE_LIMIT_TABLE.schema}.${RATE_LIMIT_TABLE.table} (
       key varchar(255) primary key,
       points integer not null default 0,
       expire bigint
     )`,
  ];
  for (const sql of statements) {
    try {
      await client.query(sql);
    } catch (e) {
      // Two processes creating it at once: the other one won.
      if (!["23505", "42P07", "42P06"].includes((e as { code?: string }).code ?? "")) throw e;
    }
  }
}

export async function closeRateLimits(): Promise<void> {
  const s = current;
  current = undefined;
  await s?.store?.close();
}

/** Hashed so no email address is stored in the limiter table. */
const identifierKey = (identifier: string) =>
  crypto.createHash("sha256").update(identifier.normalize("NFKC").trim().toLowerCase()).digest("base64url");

export async function limitAuth(
  context: Readonly<RouterContextProvider>,
  action: LimitedAction,
  identifier: string,
): Promise<number | null> {
  const ip = context.get(requestContext).clientIp;
  return consumeAll([
    [`${action}PerIp`, ip],
    [`${action}PerIdentifier`, identifierKey(identifier)],
  ]);
}

/** A username login also spends its account email's budget. */
export const limitIdentifier = (action: LimitedAction, identifier: string) =>
  consumeAll([[`${action}PerIdentifier`, identifierKey(identifier)]]);

async function consumeAll(checks: [Name, string][]): Promise<number | null> {
  // The longest wait is the real one: the address's window ending would still meet the account's.
  let wait: number | null = null;
  for (const [name, key] of checks) {
    try {
      await limiter(name).consume(key);
    } catch (e) {
      if (e instanceof RateLimiterRes) wait = Math.max(wait ?? 1, Math.ceil(e.msBeforeNext / 1000));
      // A store failure must never lock people out, nor answer 500.
      else getLog().error({ err: reason(e) }, "rate limit check failed");
    }
  }
  return wait;
}

/** Every POST of an address (server/app.ts); null, or the seconds to wait. */
export const limitPost = (ip: string) => limitAddress("post-ip", ip);

/** The browsers' error reports of an address (app/routes/client-errors.ts); null, or the seconds to wait. */
export const limitClientErrors = (ip: string) => limitAddress("client-errors", ip);

async function limitAddress(name: "post-ip" | "client-errors", ip: string): Promise<number | null> {
  try {
    await limiter(name).consume(ip);
  } catch (e) {
    if (e instanceof RateLimiterRes) return Math.max(1, Math.ceil(e.msBeforeNext / 1000));
    getLog().error({ err: reason(e), limit: name }, "rate limit check failed"); // never lock people out
  }
  return null;
}
