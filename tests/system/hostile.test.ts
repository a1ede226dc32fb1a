// Hostile input, table-driven over every action and intent of the production server:
// /auth (login, sign-up), / (add, remove, move, design, options), /review
// (generate-code, transmit), /logout, and paths without an action. Inputs: missing,
// malformed, oversized and wrong-type fields; unknown ids and intents; another
// shopper's data posted with your session; tampered and foreign cookies; cross-site
// requests; repeated transmits. Every answer is a 4xx with a clear message (or the
// redirect the app gives by design, e.g. a signed-out POST goes to /auth), never a
// 5xx, and the state, read back through GET /, /review and /my-mixtapes, is unchanged.
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { REVIEW_COPY } from "~/domain/copy-review";
import { Client, deckOf, htmlText, orderCodesOf, signUpOverHttp, suiteServer, type Reply } from "./setup";
import { authCases } from "./hostile/auth";
import type { Case } from "./hostile/case";
import { deckCases } from "./hostile/deck";
import { requestCases } from "./hostile/requests";
import { reviewCases } from "./hostile/review";

describe("hostile input", () => {
  const server = suiteServer("hostile");
  const { dataDir } = server;
  let A: Client;
  let B: Client;
  let anon: Client;
  let orderA: string; // A's stored order
  let orderB: string; // B's stored order
  let pendingA: string; // the code on A's deck, not yet transmitted

  async function placeOrder(c: Client, songs: string[]): Promise<string> {
    for (const songId of songs) expect((await c.post("/", { intent: "add", songId })).status).toBe(303);
    expect((await c.post("/review", { intent: "generate-code" })).status).toBe(303);
    const code = deckOf((await c.get("/review")).body).code!;
    const sent = await c.post("/review", { intent: "transmit", code });
    expect(sent.status).toBe(303);
    return code;
  }

  /** What the server shows of a shopper: deck, options, design, pending code, orders. */
  async function stateOf(c: Client) {
    const home = await c.get("/");
    expect(home.status).toBe(200);
    const html = home.body;
    const review = await c.get("/review");
    const orders = await c.get("/my-mixtapes");
    return {
      deck: deckOf(html),
      codename: /data-testid="codename">([^<]+)</.exec(html)?.[1],
      design: /aria-pressed="true" aria-label="Choose design: ([^"]+)"/.exec(html)?.[1] ?? null,
      toggles: [...html.matchAll(/type="checkbox"[^>]*name="(\w+)" checked=""/g)].map((m) => m[1]),
      note: htmlText(/<textarea[^>]*name="note"[^>]*>([^<]*)</.exec(html)?.[1] ?? ""),
      pending: deckOf(review.body).code,
      orders: orderCodesOf(orders.body),
    };
  }

  beforeAll(async () => {
    A = await signUpOverHttp(server.url, dataDir, { username: "hostile_a", email: "hostile.a@example.com" });
    B = await signUpOverHttp(server.url, dataDir, { username: "hostile_b", email: "hostile.b@example.com" });
    anon = new Client(server.url);
    orderA = await placeOrder(A, ["1", "2"]);
    orderB = await placeOrder(B, ["7", "8", "9"]);
    // A's deck as the hostile requests find it: tracks, design, options, a pending code.
    for (const songId of ["3", "5", "12"]) await A.post("/", { intent: "add", songId });
    await A.post("/", { intent: "design", designId: "high-voltage" });
    await A.post("/", { intent: "options", note: "keep it loud", djIntro: "on" });
    await A.post("/review", { intent: "generate-code" });
    pendingA = deckOf((await A.get("/review")).body).code!;
  }, 300_000);

  let initial: { a: Awaited<ReturnType<typeof stateOf>>; b: string[] };
  const ordersOf = async (c: Client) => orderCodesOf((await c.get("/my-mixtapes")).body);

  it("starts from a known state", async () => {
    const a = await stateOf(A);
    initial = { a, b: await ordersOf(B) };
    expect(a).toMatchObject({
      deck: { count: 3, songs: ["3", "5", "12"] },
      design: "high voltage",
      toggles: ["djIntro"],
      note: "keep it loud",
      pending: pendingA,
      orders: [orderA],
    });
    expect((await stateOf(B)).orders).toEqual([orderB]);
  });

  it("puts no user id in any form or page", async () => {
    for (const c of [A, B]) {
      for (const page of ["/", "/review", "/my-mixtapes"]) {
        const html = (await c.get(page)).body;
        const fields = [...html.matchAll(/<input[^>]*>/g)].map((m) => m[0]);
        expect(
          fields.filter((f) => /name="[^"]*(user|uid|owner)[^"]*"/i.test(f)),
          page,
        ).toEqual([]);
        expect(
          fields.filter((f) => /value="[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/i.test(f)),
          page,
        ).toEqual([]);
      }
    }
  });

  const cases: Case[] = [...authCases, ...deckCases, ...reviewCases, ...requestCases];

  it.each(cases)("$name -> $status", async (c) => {
    const client = c.as === "A" ? A : c.as === "B" ? B : anon;
    const raw = typeof c.raw === "function" ? c.raw({ orderA, orderB, pendingA }) : c.raw;
    const headers: Record<string, string> = { ...c.headers };
    let body = c.body;
    if (raw !== undefined) {
      body = raw;
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    }
    const reply: Reply = await client.request(c.path, { method: c.method ?? "POST", body, headers });
    expect(reply.status, reply.body.slice(0, 300)).toBe(c.status);
    expect(reply.status).toBeLessThan(500);
    if (c.location) expect(reply.location).toBe(c.location);
    if (c.message) expect(htmlText(reply.body)).toContain(c.message);
    if (c.status === 400 && !c.message) {
      // Oversized fields: a message in the form's red box or in an error toast.
      expect(reply.body).toMatch(/data-testid="auth-error"|data-testid="toast" data-type="error"/);
    }
    expect({ a: await stateOf(A), b: await ordersOf(B) }).toEqual(initial);
  });

  it("no sign-up above created an account or sent an email", () => {
    const subjects = fs
      .readdirSync(`${dataDir}/outbox`)
      .map((f) => (JSON.parse(fs.readFileSync(`${dataDir}/outbox/${f}`, "utf8")) as { subject: string }).subject);
    // A's and B's confirmations only (their orders' receipts aside).
    expect(subjects.filter((s) => !/^Your order [A-Z0-9]{8} is in$/.test(s)).sort()).toEqual([
      "Confirm your sign up to Underground Mixtape Shop",
      "Confirm your sign up to Underground Mixtape Shop",
    ]);
  });

  // ---- cookies --------------------------------------------------------------------------------

  it("ignores A's deck cookie sent with B's session: B gets a fresh deck", async () => {
    const mixed = new Client(server.url);
    mixed.jar.set("mixtape-auth", B.jar.get("mixtape-auth")!);
    mixed.jar.set("mixtape-deck", A.jar.get("mixtape-deck")!);
    const home = await mixed.get("/");
    expect(home.status).toBe(200);
    expect(deckOf(home.body)).toMatchObject({ count: 0, songs: [] });
    // Transmitting A's pending code with A's deck cookie under B's session stores nothing.
    mixed.jar.set("mixtape-deck", A.jar.get("mixtape-deck")!);
    const sent = await mixed.post("/review", { intent: "transmit", code: pendingA });
    expect(sent.status).toBe(409);
    expect(htmlText(sent.body)).toContain(REVIEW_COPY.codeStale);
    expect((await stateOf(B)).orders).toEqual([orderB]);
    expect((await stateOf(A)).orders).toEqual([orderA]);
  });

  it("treats a deck cookie with a forged signature or a tampered payload as a fresh deck", async () => {
    const before = await stateOf(A);
    const real = A.jar.get("mixtape-deck")!;
    const [payload, signature] = real.split(".");
    const json = JSON.parse(Buffer.from(decodeURIComponent(payload), "base64").toString("utf8"));
    json.deck.songs = Array.from({ length: 12 }, (_, i) => String(i + 1)); // 12 tracks, unsigned
    const tampered = `${encodeURIComponent(Buffer.from(JSON.stringify(json)).toString("base64"))}.${signature}`;
    const flipped = `${payload}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    for (const cookie of [tampered, flipped, "garbage", "", `${payload}`, "%E0%A4%A.x"]) {
      const forger = new Client(server.url);
      forger.jar.set("mixtape-auth", A.jar.get("mixtape-auth")!);
      forger.jar.set("mixtape-deck", cookie);
      const home = await forger.get("/");
      expect(home.status, cookie).toBe(200);
      expect(deckOf(home.body).count, cookie).toBe(0);
      const add = await forger.post("/", { intent: "add", songId: "20" });
      expect(add.status, cookie).toBe(303);
    }
    expect(await stateOf(A)).toEqual(before);
  });

  it("treats a forged or foreign session cookie as signed out", async () => {
    const real = A.jar.get("mixtape-auth")!;
    const [payload, signature] = real.split(".");
    const foreignToken = Buffer.from(JSON.stringify({ token: "f".repeat(43) })).toString("base64");
    for (const cookie of [
      `${payload}.${signature.slice(0, -2)}AA`,
      `${encodeURIComponent(foreignToken)}.${signature}`,
      "garbage",
    ]) {
      const forger = new Client(server.url);
      forger.jar.set("mixtape-auth", cookie);
      const home = await forger.get("/");
      expect(home.status).toBe(302);
      expect(home.location).toBe("/auth");
      const add = await forger.post("/", { intent: "add", songId: "4" });
      expect(add.status).toBe(302);
      expect(add.location).toBe("/auth");
    }
  });

  // ---- repeated transmits ------------------------------------------------------------------------

  it("stores one order for a transmit repeated concurrently and afterwards", async () => {
    const c = await signUpOverHttp(server.url, dataDir, { username: "hostile_c", email: "hostile.c@example.com" });
    for (const songId of ["21", "22"]) await c.post("/", { intent: "add", songId });
    await c.post("/review", { intent: "generate-code" });
    const code = deckOf((await c.get("/review")).body).code!;
    const cookies = c.cookieHeader();
    const form = `intent=transmit&code=${code}`;
    const send = () =>
      fetch(`${server.url}/review`, {
        method: "POST",
        headers: { cookie: cookies, "content-type": "application/x-www-form-urlencoded" },
        body: form,
        redirect: "manual",
      });
    const burst = await Promise.all(Array.from({ length: 5 }, send));
    expect(burst.map((r) => r.status)).toEqual([303, 303, 303, 303, 303]);
    const replay = await send(); // the same form again, later, with the old cookies
    expect(replay.status).toBe(303);
    expect(orderCodesOf((await c.get("/my-mixtapes")).body)).toEqual([code]);
  });

  // ---- sessions --------------------------------------------------------------------------------

  it("revokes the session on the server at logout", async () => {
    const d = await signUpOverHttp(server.url, dataDir, { username: "hostile_d", email: "hostile.d@example.com" });
    const stolen = d.jar.get("mixtape-auth")!;
    expect((await d.post("/logout", {})).status).toBe(302);
    const replay = new Client(server.url);
    replay.jar.set("mixtape-auth", stolen);
    const home = await replay.get("/");
    expect(home.status).toBe(302);
    expect(home.location).toBe("/auth");
  });

  it("issues a new session id at login and ends the one it replaces", async () => {
    const e = await signUpOverHttp(server.url, dataDir, { username: "hostile_e", email: "hostile.e@example.com" });
    const old = e.jar.get("mixtape-auth")!;
    const again = await e.logIn("hostile.e@example.com");
    expect(again.status).toBe(302);
    const fresh = e.jar.get("mixtape-auth")!;
    expect(fresh).not.toBe(old);
    expect((await e.get("/")).status).toBe(200);
    const replay = new Client(server.url);
    replay.jar.set("mixtape-auth", old);
    const home = await replay.get("/");
    expect(home.status, "the replaced session must no longer work (ASVS 7.2.4)").toBe(302);
  });
});
