// Database outage, PostgreSQL mode (DATABASE_URL): a throwaway PostgreSQL 15 cluster
// (tests/support/postgres.ts) is stopped while a signed-in shopper has a deck.
// - Pages and actions answer 503 with the app's clear message (COPY.errors.unavailable).
// - /readyz answers 503 "database" (and "migrations" while one is missing); /healthz stays 200:
//   the process is up.
// - The deck cookie is untouched: no answer sets or clears it.
// - PostgreSQL comes back on the same port: the same server process recovers by itself,
//   the deck is still there, and a transmit then succeeds.
// Skipped with "skipped: no PostgreSQL" where there are no binaries (never in CI).
import pg from "pg";
import { describe, expect, it } from "vitest";
import { COPY } from "~/domain/copy";
import { postgresAvailable } from "../support/postgres";
import { Client, deckOf, htmlText, orderCodesOf, signUpOverHttp, sleepMs, suitePostgres, suiteServer, type Reply } from "./setup";

const available = postgresAvailable();

describe.skipIf(!available)("outage: PostgreSQL stops and comes back", () => {
  const postgres = suitePostgres("mixtape_outage");
  const server = suiteServer("outage", {
    env: () => ({
      DATABASE_URL: postgres.url,
      SESSION_SECRET: "outage-test-secret-0123456789-abcdefghij",
      SITE_URL: "https://shop.example",
    }),
  });
  const { dataDir } = server;

  const deckCookie = (c: Client) => c.jar.get("mixtape-deck");
  const touchesDeck = (r: Reply) => r.setCookies.some((c) => c.startsWith("mixtape-deck="));
  const touchesAuth = (r: Reply) => r.setCookies.some((c) => c.startsWith("mixtape-auth="));

  it("answers 503 with a clear message, keeps the deck cookie, and recovers without a restart", async () => {
    expect(server!.output()).toMatch(/postgres backend/);
    const shopper = await signUpOverHttp(server!.url, dataDir, { username: "outage_rebel", email: "outage.rebel@example.com" });
    for (const songId of ["4", "8", "15"]) {
      expect((await shopper.post("/", { intent: "add", songId })).status).toBe(303);
    }
    expect(deckOf((await shopper.get("/")).body)).toMatchObject({ count: 3, songs: ["4", "8", "15"] });
    const deck = deckCookie(shopper);
    expect(deck).toBeTruthy();
    expect((await fetch(`${server!.url}/readyz`)).status).toBe(200);

    await postgres.cluster.stop();

    const ready = await fetch(`${server!.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toBe("database");
    const live = await fetch(`${server!.url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });

    const answers: [string, Reply][] = [
      ["GET /", await shopper.get("/")],
      ["GET /my-mixtapes", await shopper.get("/my-mixtapes")],
      ["GET /review", await shopper.get("/review")],
      ["GET /auth", await shopper.get("/auth")],
      ["POST / add", await shopper.post("/", { intent: "add", songId: "16" })],
      ["POST /review generate-code", await shopper.post("/review", { intent: "generate-code" })],
      ["POST /logout", await shopper.post("/logout", {})],
      [
        "POST /auth (signed out)",
        await new Client(server!.url).post("/auth", {
          mode: "login",
          email: "outage.rebel@example.com",
          password: "x-password-1",
        }),
      ],
    ];
    for (const [label, reply] of answers) {
      expect(reply.status, label).toBe(503);
      expect(htmlText(reply.body), label).toContain(COPY.errors.unavailable);
      expect(touchesDeck(reply), `${label} must not touch the deck cookie`).toBe(false);
      expect(touchesAuth(reply), `${label} must not touch the session cookie`).toBe(false);
    }
    expect(deckCookie(shopper)).toBe(deck);

    await postgres.cluster.start();

    // The same process recovers by itself (bounded wait, no assertion on how long).
    let healthy = false;
    for (let i = 0; i < 60 && !healthy; i++) {
      healthy = (await fetch(`${server!.url}/readyz`)).status === 200;
      if (!healthy) await sleepMs(500);
    }
    expect(healthy).toBe(true);

    const home = await shopper.get("/");
    expect(home.status).toBe(200);
    expect(deckOf(home.body)).toMatchObject({ count: 3, songs: ["4", "8", "15"] });
    expect(deckCookie(shopper)).toBe(deck);

    expect((await shopper.post("/review", { intent: "generate-code" })).status).toBe(303);
    const { code } = deckOf((await shopper.get("/review")).body);
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    const sent = await shopper.post("/review", { intent: "transmit", code: code! });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe("/");
    expect(orderCodesOf((await shopper.get("/my-mixtapes")).body)).toEqual([code]);

    // The rate limits of both layers live in the database in this mode.
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    try {
      const keys = (await db.query<{ key: string }>("select key from mixtape_meta.rate_limits")).rows.map((r) => r.key);
      expect(keys).toContain("post-ip:127.0.0.1");
      expect(keys).toContain("signupPerIp:127.0.0.1");
    } finally {
      await db.end();
    }
  }, 180_000);

  it("/readyz answers 503 migrations while one this build knows is not recorded as applied", async () => {
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    try {
      const last = (await db.query<{ name: string }>(`select name from mixtape_meta.migrations order by name desc limit 1`))
        .rows[0].name;
      await db.query(`delete from mixtape_meta.migrations where name = $1`, [last]);
      try {
        const ready = await fetch(`${server!.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(await ready.text()).toBe("migrations");
        expect(server!.output()).toMatch(/not ready: migrations/);
      } finally {
        await db.query(`insert into mixtape_meta.migrations (name) values ($1)`, [last]);
      }
      expect((await fetch(`${server!.url}/readyz`)).status).toBe(200);
    } finally {
      await db.end();
    }
  }, 60_000);
});
