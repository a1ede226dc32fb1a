// Shutdown: SIGTERM during a burst of 200 transmits (server/main.ts, close-with-grace).
// - Every request either got a complete answer or was refused: at connect, or with a 503
//   and Retry-After (a connection accepted after the signal, server/drain.ts). Each transmit
//   has a connection of its own (no keep-alive), so the client tells them apart.
// - None that reached the server was cut off. A client connecting in the instant the
//   listening socket closes may get a reset instead of a refusal: the kernel had completed
//   its handshake, the process never accepted it (docs/decisions/011-shutdown.md). That such
//   a reset never reached the server is checked on the server's side: it counts the 303s
//   and 503s it sent, and the connections it closed without a request.
// - Every transmit answered 303 is stored exactly once; any other is not stored.
// - The process exits 0 with its parts closed in the reverse order of their opening, the
//   database last and cleanly (pg_control says "shut down", so
//   the next start needs no recovery) and the data-dir lock released; the next start loses
//   nothing, and the refused shoppers transmit again.
// - The work queued after an answer (a password reset's email request) is done before the
//   database closes.
// - A second signal exits at once; a request still running after SHUTDOWN_GRACE_MS is cut
//   off, and the database is still closed cleanly.
// No duration is asserted.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  accounts,
  Client,
  openDataDir,
  PASSWORD,
  pool,
  seedShoppers,
  startServer,
  testTempDir,
  suiteTempDir,
  type Server,
} from "./setup";

const TRANSMITS = 200;
const SHOPPERS = 4;
/** Transmits in flight at a time during the burst. */
const CONCURRENCY = 40;
/** SIGTERM once this many transmits were answered. */
const TERM_AFTER = 40;

type Outcome =
  | { kind: "answered"; status: number; location: string | null; retryAfter: string | null }
  | { kind: "refused" }
  | { kind: "reset" }
  | { kind: "cut"; error: string };

/**
 * One request on a connection of its own: answered in full, refused at connect, reset before
 * any byte of an answer, or cut off (an answer begun and not finished, or any other failure).
 */
function requestOnce(base: string, pathname: string, cookie: string, form: Record<string, string>): Promise<Outcome> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (!settled) resolve(outcome);
      settled = true;
    };
    let connected = false;
    const req = http.request(`${base}${pathname}`, {
      method: "POST",
      agent: false,
      headers: {
        accept: "text/html",
        cookie,
        "content-type": "application/x-www-form-urlencoded",
        "content-length": Buffer.byteLength(body),
      },
    });
    req.on("socket", (socket) => socket.once("connect", () => (connected = true)));
    req.on("response", (res) => {
      res.resume();
      res.on("end", () =>
        settle({
          kind: "answered",
          status: res.statusCode!,
          location: res.headers.location ?? null,
          retryAfter: (res.headers["retry-after"] as string | undefined) ?? null,
        }),
      );
      res.on("aborted", () => settle({ kind: "cut", error: "answer aborted" }));
      res.on("error", (error) => settle({ kind: "cut", error: String(error) }));
    });
    // A reset before any byte of an answer is the listen queue's (it may come before or after the client saw its
    // connect); that it never reached the server is checked on the server's side, from what it logged.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (!connected && error.code === "ECONNREFUSED") settle({ kind: "refused" });
      else if (error.code === "ECONNRESET") settle({ kind: "reset" });
      else settle({ kind: "cut", error: String(error) });
    });
    req.end(body);
  });
}

/** DB_SHUTDOWNED (1) in PostgreSQL's pg_control: closed cleanly, no recovery at the next start. */
const controlState = (dataDir: string) => fs.readFileSync(path.join(dataDir, "pgdata/global/pg_control")).readUInt32LE(16);
const DB_SHUTDOWNED = 1;

describe("shutdown: SIGTERM during a burst of 200 transmits", () => {
  const dataDir = suiteTempDir("shutdown");
  const people = accounts(SHOPPERS, "shutdown");

  beforeAll(async () => {
    await seedShoppers(dataDir, people);
  }, 300_000);

  it("answers every accepted request, stores each answered transmit once, closes cleanly, loses nothing", async () => {
    // Generous: the test shows that nothing is cut off, not how fast.
    const env = { SHUTDOWN_GRACE_MS: "60000" };
    const first = await startServer({ dataDir, env });

    // 200 decks, each with a code: a few signed-in shoppers, many deck cookies each.
    const signedIn = await Promise.all(
      people.map(async (person) => {
        const client = new Client(first.url);
        expect((await client.logIn(person.email, PASSWORD)).status).toBe(302);
        return client;
      }),
    );
    const decks = await pool(
      Array.from({ length: TRANSMITS }, (_, i) => i),
      10,
      async (i) => {
        const client = new Client(first.url);
        for (const [name, value] of signedIn[i % SHOPPERS].jar) client.jar.set(name, value);
        expect((await client.post("/", { intent: "add", songId: String((i % 30) + 1) })).status).toBe(303);
        expect((await client.post("/review", { intent: "generate-code" })).status).toBe(303);
        const code = /name="code" value="([A-Z0-9]{8})"/.exec((await client.get("/review")).body)?.[1];
        expect(code).toBeTruthy();
        return { client, code: code! };
      },
    );

    // The burst, and SIGTERM in the middle of it.
    let answered = 0;
    let terminated = false;
    const outcomes = await pool(decks, CONCURRENCY, async ({ client, code }) => {
      const outcome = await requestOnce(first.url, "/review", client.cookieHeader(), { intent: "transmit", code });
      if (outcome.kind === "answered" && ++answered === TERM_AFTER) {
        terminated = true;
        process.kill(first.pid, "SIGTERM");
      }
      return outcome;
    });
    expect(terminated).toBe(true);
    const exit = await first.exited;

    const placed = outcomes.flatMap((o, i) => (o.kind === "answered" && o.status === 303 ? [{ ...o, code: decks[i].code }] : []));
    const turnedAway = outcomes.flatMap((o, i) => (o.kind === "answered" && o.status === 503 ? [{ ...o, ...decks[i] }] : []));
    const refused = outcomes.flatMap((o, i) => (o.kind === "refused" || o.kind === "reset" ? [decks[i]] : []));
    const resets = outcomes.filter((o) => o.kind === "reset").length;
    const cut = outcomes.filter((o) => o.kind === "cut");
    console.log(
      `shutdown: ${placed.length} placed, ${turnedAway.length} answered 503, ${refused.length - resets} refused at connect, ` +
        `${resets} reset in the listen queue, ${cut.length} cut off`,
    );
    expect(cut).toEqual([]);
    expect(placed.length + turnedAway.length + refused.length).toBe(TRANSMITS);
    // What the server saw: exactly the answers the clients got, so no reset reached it.
    const log = first.output();
    const transmitsLogged = log.split("\n").filter((l) => /"method":"POST","path":"\/review"\},"res":\{"status":303[,}]/.test(l));
    expect(transmitsLogged.length).toBe(TRANSMITS + placed.length); // the 200 generate-code posts, then the transmits
    expect(Number(/"refused":(\d+)/.exec(log)?.[1] ?? 0)).toBe(turnedAway.length);
    expect(log).not.toMatch(/before they sent a request/);
    expect(placed.length).toBeGreaterThanOrEqual(TERM_AFTER);
    expect(turnedAway.length + refused.length).toBeGreaterThan(0); // the signal came during the burst
    for (const answer of placed) expect(answer.location, answer.code).toBe(`/?placed=${answer.code}`);
    for (const answer of turnedAway) expect(answer.retryAfter, answer.code).toBe("1");

    // A clean exit: the database closed (no recovery needed next time), the lock released.
    expect(exit).toEqual({ code: 0, signal: null });
    expect(first.output()).toMatch(/SIGTERM: closing/);
    // The process's parts closed in the reverse order of their opening (server/root.ts), the database last.
    expect(first.output()).toMatch(/"parts":\["tape chores","order emails","tape store","backend"\],"msg":"closed"/);
    expect(first.output()).not.toMatch(/cut off/);
    expect(controlState(dataDir)).toBe(DB_SHUTDOWNED);
    expect(fs.readFileSync(path.join(dataDir, "mixtape.lock"), "utf8")).toBe("");

    // Stored: every answered transmit exactly once, nothing else; no email left claimed.
    const db = await openDataDir(dataDir);
    try {
      const rows = (
        await db.query<{ code: string; n: number }>(`select code, count(*)::int as n from public.mixtapes group by code`)
      ).rows;
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      expect(rows.map((r) => r.code).sort()).toEqual(placed.map((a) => a.code).sort());
      const claimed = await db.query(`select id from public.order_emails where sent_at is null and locked_until > now()`);
      expect(claimed.rows).toEqual([]);
    } finally {
      await db.close();
    }

    // The next start: ready, everything kept; the refused shoppers press Transmit again.
    const second = await startServer({ dataDir, env });
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
    const again = await pool([...turnedAway, ...refused], 10, ({ client, code }) =>
      requestOnce(second.url, "/review", client.cookieHeader(), { intent: "transmit", code }),
    );
    for (const outcome of again) expect(outcome).toMatchObject({ kind: "answered", status: 303 });
    expect(await second.stop()).toEqual({ code: 0, signal: null });
    expect(controlState(dataDir)).toBe(DB_SHUTDOWNED);
    const after = await openDataDir(dataDir);
    try {
      const rows = (await after.query<{ code: string }>(`select code from public.mixtapes`)).rows;
      expect(rows.map((r) => r.code).sort()).toEqual(decks.map((d) => d.code).sort());
    } finally {
      await after.close();
    }
  }, 300_000);
});

describe("shutdown: a request that does not finish", () => {
  /** A POST whose body never completes: a request in flight for as long as the socket stays. */
  async function stuckRequest(server: Server) {
    const socket = await new Promise<import("node:net").Socket>((resolve) => {
      const req = http.request(`${server.url}/auth`, {
        method: "POST",
        agent: false,
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": "100" },
      });
      req.on("error", () => {});
      req.on("socket", (s) => s.once("connect", () => resolve(s)));
      req.write("mode=login&");
    });
    // The server has read the headers once its request log counts it in flight: give it a moment.
    await new Promise((r) => setTimeout(r, 500));
    return socket;
  }

  it("does the work queued after an answer (a password reset's email request) before the database closes", async () => {
    const dataDir = testTempDir("shutdown-after-answer");
    const [person] = accounts(1, "after_answer");
    await seedShoppers(dataDir, [person]);
    const server = await startServer({ dataDir });
    const answer = await new Client(server.url).post("/auth/forgot", { email: person.email });
    process.kill(server.pid, "SIGTERM");
    expect(answer.status).toBeLessThan(400);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const db = await openDataDir(dataDir);
    try {
      const queued = await db.query(`select 1 from auth.email_requests where lower(email) = lower($1)`, [person.email]);
      expect(queued.rows.length).toBe(1);
    } finally {
      await db.close();
    }
  }, 120_000);

  it("a second signal exits at once, with 1", async () => {
    const server = await startServer({ dataDir: testTempDir("shutdown"), env: { SHUTDOWN_GRACE_MS: "600000" } });
    await stuckRequest(server);
    process.kill(server.pid, "SIGTERM");
    while (!/SIGTERM: closing/.test(server.output())) await new Promise((r) => setTimeout(r, 50));
    process.kill(server.pid, "SIGTERM");
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.output()).toMatch(/second SIGTERM, exiting/);
  }, 120_000);

  it("after SHUTDOWN_GRACE_MS the request is cut off, and the database still closes cleanly", async () => {
    const server = await startServer({ dataDir: testTempDir("shutdown"), env: { SHUTDOWN_GRACE_MS: "1000" } });
    await stuckRequest(server);
    process.kill(server.pid, "SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output()).toMatch(/1 requests still running after SHUTDOWN_GRACE_MS were cut off/);
    expect(controlState(server.dataDir)).toBe(DB_SHUTDOWNED);
  }, 120_000);
});
