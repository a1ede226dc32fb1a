// The rate limits (rate-limiter-flexible), built once by the composition root (server/root.ts): each a
// budget of points per window, per address or per identifier. On PostgreSQL the counts are shared by
// every app process, in mixtape_meta.rate_limits (a migration makes it) through the backend's own pool;
// the embedded database is one process's, and Supabase gives the app no connection of its own: there
// they count in memory. A store that fails never locks anyone out nor answers 500: the limit is then
// this process's own (the library's insurance limiter, in memory).
import crypto from "node:crypto";
import type { Logger } from "pino";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";

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

/** The table's owner's queries (the backend's rateLimitCounts; the type is the port's CountsTable). */
type CountsTable = { query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };

export type RateLimits = {
  readonly store: "memory" | "postgres";
  /** Login, sign-up, recovery, resend: the address's budget and the identifier's; null, or the seconds to wait. */
  auth(ip: string, action: LimitedAction, identifier: string): Promise<number | null>;
  /** The identifier's budget alone (a username login spends its account email's). */
  identifier(action: LimitedAction, identifier: string): Promise<number | null>;
  /** Every POST of an address (server/app.ts). */
  post(ip: string): Promise<number | null>;
  /** The browsers' error reports of an address (app/routes/client-errors.ts). */
  clientErrors(ip: string): Promise<number | null>;
};

type Limiter = { consume(key: string): Promise<unknown> };

/** Hashed so no email address is stored in the limiter table. */
const identifierKey = (identifier: string) =>
  crypto.createHash("sha256").update(identifier.normalize("NFKC").trim().toLowerCase()).digest("base64url");

export function createRateLimits({
  factor,
  counts,
  log,
}: {
  factor: number;
  counts: CountsTable | null;
  log: Logger;
}): RateLimits {
  // rate-limiter-flexible's "pool" client: one query call, answered with rows and rowCount as node-postgres does.
  const storeClient = counts && {
    query: async ({ text, values }: { text: string; values?: unknown[] }) => {
      const { rows } = await counts.query(text, values ?? []);
      return { rows, rowCount: rows.length };
    },
  };
  const limiters = new Map<string, Limiter>();
  const limiter = (name: string): Limiter => {
    let l = limiters.get(name);
    if (!l) {
      const opts = {
        keyPrefix: name,
        points: Math.max(1, Math.ceil(ALL_LIMITS[name].points * factor)),
        duration: ALL_LIMITS[name].duration,
      };
      const memory = new RateLimiterMemory(opts);
      l = storeClient
        ? new RateLimiterPostgres({
            ...opts,
            storeClient,
            storeType: "pool",
            schemaName: RATE_LIMIT_TABLE.schema,
            tableName: RATE_LIMIT_TABLE.table,
            tableCreated: true, // by the migration
            insuranceLimiter: memory,
          })
        : memory;
      limiters.set(name, l);
    }
    return l;
  };

  async function consumeAll(checks: [string, string][]): Promise<number | null> {
    // The longest wait is the real one: the address's window ending would still meet the account's.
    let wait: number | null = null;
    for (const [name, key] of checks) {
      try {
        await limiter(name).consume(key);
      } catch (e) {
        if (e instanceof RateLimiterRes) wait = Math.max(wait ?? 1, Math.ceil(e.msBeforeNext / 1000));
        // A store failure must never lock people out, nor answer 500.
        else log.error({ err: e instanceof Error ? e.message : String(e), limit: name }, "rate limit check failed");
      }
    }
    return wait;
  }

  return {
    store: storeClient ? "postgres" : "memory",
    auth: (ip, action, identifier) =>
      consumeAll([
        [`${action}PerIp`, ip],
        [`${action}PerIdentifier`, identifierKey(identifier)],
      ]),
    identifier: (action, identifier) => consumeAll([[`${action}PerIdentifier`, identifierKey(identifier)]]),
    post: (ip) => consumeAll([["post-ip", ip]]),
    clientErrors: (ip) => consumeAll([["client-errors", ip]]),
  };
}
