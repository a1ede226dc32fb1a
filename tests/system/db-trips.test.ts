// One trip to the database per request (docs/decisions/017-one-trip.md). Every route, signed out,
// as a shopper and as the mixer, pages and actions, on the embedded database and on PostgreSQL: the
// request's log line counts what it asked of the database (app/server/platform/db-stats.server.ts),
// and each stays within its budget: at most one RLS transaction, at most one session read, and its
// statements. Counts, never times.
import { beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable } from "../support/postgres";
import { Client, signUpOverHttp, suitePostgres, suiteServer, type Reply, type Server } from "./setup";
import { placeOrder } from "./webhook-senders";

type Counts = { transactions: number; rls: number; statements: number; sessionReads: number };

/**
 * The statements each request may send at most: the session read, the RLS transaction's role
 * (one set_config) and its calls, and the owner's own (sign-in, readiness). As measured when the
 * one-trip work landed: a new statement on a page shows up here as a deliberate change. Every page
 * then asked one more, the shop's catalogue and words (public.shop_catalogue, decision 024).
 */
const BUDGET: Record<string, number> = {
  "GET /auth": 3,
  "GET /auth/forgot": 2,
  "POST /auth (wrong password)": 4,
  "GET /healthz": 0,
  "GET /readyz": 2,
  "GET /no-such-page": 2,
  "GET /": 6,
  "GET /.data": 6,
  "POST / (add)": 3,
  "GET /review": 6,
  "POST /review (generate-code)": 3,
  "GET /my-mixtapes": 6,
  "GET /my-mixtapes.data": 6,
  "GET /my-mixtapes/{CODE}": 8,
  "POST /my-mixtapes/{CODE} (message)": 6,
  "GET /my-mixtapes/{CODE}/tape": 3,
  "GET /account": 7,
  "GET /account/email (stale link)": 5,
  "GET /account/data": 7,
  "GET /mixer": 8,
  "GET /mixer.data": 8,
  "GET /mixer/orders/{CODE}": 9,
  "POST /mixer (start-mixing)": 5,
  "GET /mixer/shop": 8,
  "GET /mixer/payments": 8,
  "GET /mixer/payments.csv": 3,
  "GET /mixer/orders.csv": 4,
  "GET /mixer/insights": 7,
  "GET /mixer/catalogue": 6,
  "GET /mixer/catalogue/{id}": 6,
  "POST /logout": 2,
};

/** The request's log line follows its answer's last byte through the server's stdout: looked for until it comes. */
async function countsOf(server: Server, reply: Reply): Promise<Counts> {
  const id = reply.headers.get("x-request-id");
  for (let i = 0; i < 500; i++) {
    for (const line of server.output().split("\n")) {
      if (!line.includes(`"requestId":"${id}"`) || !line.includes('"msg":"request')) continue;
      const db = JSON.parse(line).res?.db as Counts | undefined;
      if (db) return db;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no log line with db counts for request ${id}:\n${server.output().slice(-2000)}`);
}

function backendSuite(name: string, env: () => Record<string, string>) {
  describe(name, () => {
    const server = suiteServer("db-trips", {
      env: () => ({ ...env(), MIXER_EMAILS: "trips.dj@example.com", LOG_LEVEL: "debug" }),
    });
    const { dataDir } = server;
    let shopper: Client;
    let mixer: Client;
    let anon: Client;
    let code: string;
    const seen = new Map<string, Counts>();

    beforeAll(async () => {
      shopper = await signUpOverHttp(server.url, dataDir, { username: "trips_shopper", email: "trips.shopper@example.com" });
      mixer = await signUpOverHttp(server.url, dataDir, { username: "trips_dj", email: "trips.dj@example.com" });
      anon = new Client(server.url);
      code = await placeOrder(shopper);
    }, 300_000);

    /** The request, then its counts: recorded under its name, held to its budget. */
    async function trip(label: string, send: () => Promise<Reply>, status?: number) {
      const reply = await send();
      if (status !== undefined) expect(reply.status, label).toBe(status);
      const counts = await countsOf(server, reply);
      seen.set(label, counts);
      return counts;
    }

    it("each page and action: at most one RLS transaction, one session read, and its statements", async () => {
      const data = { accept: "*/*" };
      await trip("GET /auth", () => anon.get("/auth"), 200);
      await trip("GET /auth/forgot", () => anon.get("/auth/forgot"), 200);
      await trip("POST /auth (wrong password)", () => anon.logIn("trips.shopper@example.com", "not-the-password"), 400);
      await trip("GET /healthz", () => anon.get("/healthz"), 200);
      await trip("GET /readyz", () => anon.get("/readyz"), 200);
      await trip("GET /no-such-page", () => anon.get("/no-such-page"), 404);
      await trip("GET /", () => shopper.get("/"), 200);
      await trip("GET /.data", () => shopper.get("/_.data", data), 200);
      await trip("POST / (add)", () => shopper.post("/", { intent: "add", songId: "5" }), 303);
      await trip("GET /review", () => shopper.get("/review"), 200);
      await trip("POST /review (generate-code)", () => shopper.post("/review", { intent: "generate-code" }), 303);
      await trip("GET /my-mixtapes", () => shopper.get("/my-mixtapes"), 200);
      await trip("GET /my-mixtapes.data", () => shopper.get("/my-mixtapes.data", data), 200);
      await trip("GET /my-mixtapes/{CODE}", () => shopper.get(`/my-mixtapes/${code}`), 200);
      await trip(
        "POST /my-mixtapes/{CODE} (message)",
        () => shopper.post(`/my-mixtapes/${code}`, { intent: "message", body: "Can you add a fade?" }),
        303,
      );
      await trip("GET /my-mixtapes/{CODE}/tape", () => shopper.get(`/my-mixtapes/${code}/tape`), 404);
      await trip("GET /account", () => shopper.get("/account"), 200);
      await trip("GET /account/email (stale link)", () => shopper.get("/account/email?token_hash=stale"), 400);
      await trip("GET /account/data", () => shopper.get("/account/data"), 200);
      await trip("GET /mixer", () => mixer.get("/mixer"), 200);
      await trip("GET /mixer.data", () => mixer.get("/mixer.data", data), 200);
      await trip("GET /mixer/orders/{CODE}", () => mixer.get(`/mixer/orders/${code}`), 200);
      await trip("POST /mixer (start-mixing)", () => mixer.post("/mixer", { intent: "start-mixing", code }), 303);
      await trip("GET /mixer/shop", () => mixer.get("/mixer/shop"), 200);
      await trip("GET /mixer/payments", () => mixer.get("/mixer/payments"), 200);
      await trip("GET /mixer/payments.csv", () => mixer.get("/mixer/payments.csv"), 200);
      await trip("GET /mixer/orders.csv", () => mixer.get("/mixer/orders.csv"), 200);
      await trip("GET /mixer/insights", () => mixer.get("/mixer/insights"), 200);
      await trip("GET /mixer/catalogue", () => mixer.get("/mixer/catalogue"), 200);
      await trip("GET /mixer/catalogue/{id}", () => mixer.get("/mixer/catalogue/7"), 200);
      await trip("POST /logout", () => shopper.post("/logout", {}), 302);

      const over = [...seen].filter(
        ([label, c]) => c.rls > 1 || c.sessionReads > 1 || c.statements > (BUDGET[label] ?? Number.NaN),
      );
      expect(Object.fromEntries(over), "over budget (rls ≤ 1, sessionReads ≤ 1, statements ≤ BUDGET)").toEqual({});
      expect([...seen.keys()].sort()).toEqual(Object.keys(BUDGET).sort());
    });
  });
}

backendSuite("the embedded database (PGlite)", () => ({}));

describe.skipIf(!postgresAvailable())("PostgreSQL", () => {
  const postgres = suitePostgres("mixtape_trips");
  backendSuite("the same requests on PostgreSQL", () => ({
    DATABASE_URL: postgres.url,
    SITE_URL: "http://127.0.0.1",
    SESSION_SECRET: "db-trips-test-secret-0123456789abcdef",
  }));
});
