// Rate limits (rate-limiter-flexible, app/server/platform/rate-limiter.server.ts).
// - In memory (embedded mode): login per address and per identifier, sign-up per
//   address and per email address, each answering Retry-After headers when over.
// - PostgreSQL mode: the counts live in mixtape_meta.rate_limits (made by a migration), read
//   through the backend's own pool, and are shared by every process: two instances on two
//   pools (as two app processes) see one count, and two real server processes on one database
//   share the global POST limit and the login limit, whose 429 shows in the login form's red
//   box without JavaScript. While the database is down the limits still answer (in memory),
//   never with an error.
// Skipped parts print "skipped: no PostgreSQL" where there are no binaries.
import "../support/env";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { COPY, REFUSAL_COPY } from "~/domain/copy";
import { humanWait } from "~/domain/time";
import { migrate, openPostgres, type SqlDriver } from "~/server/backend/sql/db.server";
import { createSqlBackend } from "~/server/backend/sql/index.server";
import { getLog } from "~/server/platform/log.server";
import { createMailer } from "~/server/platform/mailer.server";
import { createRateLimits, type RateLimits } from "~/server/platform/rate-limiter.server";
import { postgresAvailable } from "../support/postgres";
import { s3Env, startS3Server } from "../support/storage-adapters";
import { Client, htmlText, startServer, testTempDir, suitePostgres, type Server } from "./setup";

/** The limits as one app process builds them (server/root.ts): on its backend's table, or in memory without one. */
function limitsOf(db: SqlDriver | null): RateLimits {
  const backend =
    db && createSqlBackend({ db, mailer: createMailer({ from: "x@y.z", dataDir: testTempDir("limits-mail") }), shopTitle: "" });
  return createRateLimits({ factor: 0.1, counts: backend?.rateLimitCounts ?? null, log: getLog() });
}

describe("rate limits in memory (embedded mode)", () => {
  const rl = limitsOf(null);

  it("limits login per identifier (1 per window at factor 0.1) and per address (3)", async () => {
    expect(rl.store).toBe("memory");
    expect(await rl.auth("10.0.0.1", "login", "Victim@Example.com")).toBeNull();
    const over = await rl.auth("10.0.0.2", "login", " victim@example.com ");
    expect(over).toBeGreaterThan(14 * 60); // seconds: the 15-minute window has just begun
    // Per address: 3 attempts, whatever the identifiers.
    for (const id of ["a@x.co", "b@x.co", "c@x.co"]) expect(await rl.auth("10.0.0.9", "login", id)).toBeNull();
    expect(await rl.auth("10.0.0.9", "login", "d@x.co")).not.toBeNull();
  });

  it("a username login spends its account email's budget too (limitIdentifier): one budget per account", async () => {
    expect(await rl.auth("10.2.0.1", "login", "owner@example.com")).toBeNull();
    expect(await rl.identifier("login", "OWNER@example.com")).not.toBeNull();
    expect(await rl.identifier("login", "someone.else@example.com")).toBeNull();
  });

  it("limits sign-ups (confirmation emails) per email address and per address", async () => {
    expect(await rl.auth("10.1.0.1", "signup", "new@example.com")).toBeNull();
    expect(await rl.auth("10.1.0.2", "signup", "NEW@example.com")).not.toBeNull();
    expect(await rl.auth("10.1.0.3", "signup", "other@example.com")).toBeNull();
    expect(await rl.auth("10.1.0.3", "signup", "third@example.com")).not.toBeNull();
  });
});

const available = postgresAvailable();

describe.skipIf(!available)("rate limits in PostgreSQL (shared by every process)", () => {
  const postgres = suitePostgres("mixtape_limits");
  const pools: SqlDriver[] = [];
  const servers: Server[] = [];
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;

  afterAll(async () => {
    for (const db of pools) await db.close();
    await s3?.stop();
  });

  it("shares one count between two instances on their backends' pools, in the migrations' table, and survives an outage", async () => {
    pools.push(await openPostgres(postgres.url), await openPostgres(postgres.url));
    await migrate(pools[0]);
    const [one, two] = pools.map(limitsOf);
    expect(one.store).toBe("postgres");

    expect(await one.auth("10.2.0.1", "login", "shared@example.com")).toBeNull();
    expect(await two.auth("10.2.0.2", "login", "shared@example.com")).not.toBeNull();
    for (const [m, id] of [
      [one, "p@x.co"],
      [two, "q@x.co"],
      [one, "r@x.co"],
    ] as const) {
      expect(await m.auth("10.2.0.9", "login", id)).toBeNull();
    }
    expect(await two.auth("10.2.0.9", "login", "s@x.co")).not.toBeNull();

    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    const rows = (await client.query<{ key: string }>("select key from mixtape_meta.rate_limits order by key")).rows.map(
      (r) => r.key,
    );
    await client.end();
    expect(rows).toContain("loginPerIp:10.2.0.9");
    // Identifiers are stored as hashes, never as email addresses.
    expect(rows.some((k) => k.includes("@"))).toBe(false);

    await postgres.cluster.stop();
    try {
      // Down: the limits answer from memory, without an error and without a lock-out.
      expect(await one.auth("10.3.0.1", "login", "during@example.com")).toBeNull();
      expect(await one.auth("10.3.0.2", "login", "during@example.com")).not.toBeNull();
    } finally {
      await postgres.cluster.start();
    }
    expect(await two.auth("10.2.0.2", "login", "shared@example.com")).not.toBeNull();
  }, 120_000);

  it("two server processes on one database share the POST limit and the login limit (429 in the form, no JS)", async () => {
    s3 = await startS3Server(); // two processes on one database keep their tapes in a shared store
    const env = {
      ...(await s3Env(s3.endpoint, "limits-tapes")),
      DATABASE_URL: postgres.url,
      SESSION_SECRET: "limits-test-secret-0123456789-abcdefghij",
      RATE_LIMIT_FACTOR: "0.1",
      SITE_URL: "https://shop.example",
    };
    for (let i = 0; i < 2; i++) {
      const dataDir = testTempDir("limits");
      servers.push(await startServer({ dataDir, env }));
    }
    const [a, b] = servers.map((s) => new Client(s.url));

    // Login per identifier (1 per window at factor 0.1): the second try, on the other
    // process, is refused with the form's message.
    const first = await a.post("/auth", { mode: "login", email: "target@example.com", password: "a-wrong-password" });
    expect(first.status).toBe(400);
    expect(htmlText(first.body)).toContain("Invalid login credentials");
    const second = await b.post("/auth", { mode: "login", email: "target@example.com", password: "a-wrong-password" });
    expect(second.status).toBe(429);
    expect(second.body).toMatch(/data-testid="auth-error"/);
    expect(htmlText(second.body)).toContain(COPY.errors.tooManyRequests(humanWait(Number(second.headers.get("retry-after")))));

    // The global POST limit: 30 per minute per address at factor 0.1, across both
    // processes (2 used above). Signed-out logouts are cheap POSTs.
    let accepted = 2;
    let refused: Awaited<ReturnType<Client["post"]>> | null = null;
    for (let i = 0; i < 40 && !refused; i++) {
      const reply = await (i % 2 ? a : b).post("/logout", {});
      if (reply.status === 429) refused = reply;
      else {
        expect(reply.status).toBe(302);
        accepted++;
      }
    }
    console.log(`POST limit: ${accepted} POSTs accepted across two processes before the first 429`);
    expect(accepted).toBe(30);
    expect(refused).not.toBeNull();
    expect(htmlText(refused!.body)).toContain(REFUSAL_COPY.tooMany(humanWait(Number(refused!.headers.get("retry-after")))));
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
  }, 120_000);
});
