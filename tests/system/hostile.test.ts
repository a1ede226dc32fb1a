// Hostile input, table-driven over every action and intent of the production server:
// /auth (login, sign-up), / (add, remove, move, design, options), /review
// (generate-code, transmit), /logout, and paths without an action. Inputs: missing,
// malformed, oversized and wrong-type fields; unknown ids and intents; another
// shopper's data posted with your session; tampered and foreign cookies; cross-site
// requests; repeated transmits. Every answer is a 4xx with a clear message (or the
// redirect the app gives by design, e.g. a signed-out POST goes to /auth), never a
// 5xx, and the state, read back through GET /, /review and /my-mixtapes, is unchanged.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COPY } from "~/domain/copy";
import { AUTH_COPY, ACCOUNT_COPY } from "~/domain/copy-auth";
import { NOTE_MAX } from "~/domain/deck";
import { PASSWORD_MESSAGES } from "~/server/backend/passwords.server";
import {
  Client,
  deckOf,
  htmlText,
  orderCodesOf,
  PASSWORD,
  signUpOverHttp,
  startServer,
  tempDir,
  type Reply,
  type Server,
} from "./setup";

const REFUSED = {
  crossSite: "Cross-site requests are not allowed.",
  tooLarge: "The request is too large.",
  unsupported: "Unsupported form encoding",
};

type Who = "A" | "B" | "anon";
type Case = {
  name: string;
  as: Who;
  path: string;
  method?: string;
  /** urlencoded body, exactly as written (duplicates and odd keys allowed); a function
   * when it needs a value known only after beforeAll. */
  raw?: string | (() => string);
  body?: BodyInit;
  headers?: Record<string, string>;
  status: number;
  /** Text the answer must show (a toast, the form's red box, or the refusal page). */
  message?: string;
  location?: string;
};

const enc = encodeURIComponent;
const big = "x".repeat(10 * 1024); // a 10 KB field: under the 16 KB body limit
const UUID = "0b7c1c53-8d0a-4f34-9d5e-1c2f3a4b5c6d";

describe("hostile input", () => {
  const dataDir = tempDir("hostile");
  let server: Server;
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
    server = await startServer({ dataDir });
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

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

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

  const cases: Case[] = [
    // ---- /auth ---------------------------------------------------------------------
    { name: "login: no fields", as: "anon", path: "/auth", raw: "", status: 400, message: AUTH_COPY.allRequired },
    {
      name: "login: no password",
      as: "anon",
      path: "/auth",
      raw: "mode=login&email=hostile.a%40example.com",
      status: 400,
      message: AUTH_COPY.allRequired,
    },
    {
      name: "login: empty identifier",
      as: "anon",
      path: "/auth",
      raw: "mode=login&email=&password=x",
      status: 400,
      message: AUTH_COPY.allRequired,
    },
    { name: "login: 10 KB identifier", as: "anon", path: "/auth", raw: `mode=login&email=${big}&password=x`, status: 400 },
    {
      name: "login: 10 KB password",
      as: "anon",
      path: "/auth",
      raw: `mode=login&email=hostile.a%40example.com&password=${big}`,
      status: 400,
    },
    {
      name: "login: wrong password",
      as: "anon",
      path: "/auth",
      raw: "mode=login&email=hostile.a%40example.com&password=not-the-password",
      status: 400,
      message: "Invalid login credentials",
    },
    {
      name: "login: unknown email",
      as: "anon",
      path: "/auth",
      raw: "mode=login&email=nobody%40example.com&password=not-the-password",
      status: 400,
      message: "Invalid login credentials",
    },
    {
      name: "login: unknown username",
      as: "anon",
      path: "/auth",
      raw: "mode=login&email=nobody_here&password=x",
      status: 400,
      message: AUTH_COPY.usernameNotFound,
    },
    {
      name: "login: bracketed field names",
      as: "anon",
      path: "/auth",
      raw: "mode=login&email[]=a%40b.co&password[x]=y",
      status: 400,
      message: AUTH_COPY.allRequired,
    },
    {
      name: "login: unknown mode",
      as: "anon",
      path: "/auth",
      raw: "mode=admin&email=nobody%40example.com&password=xyzxyzxyz",
      status: 400,
      message: "Invalid login credentials",
    },
    // Account recovery: forms with bad fields, links without a token, a password change
    // without the current password; no email is sent (no address here has an account).
    { name: "forgot: no fields", as: "anon", path: "/auth/forgot", raw: "", status: 400, message: AUTH_COPY.allRequired },
    {
      name: "forgot: not an email",
      as: "anon",
      path: "/auth/forgot",
      raw: "email=not-an-email",
      status: 400,
      message: AUTH_COPY.invalidEmail,
    },
    { name: "forgot: 10 KB email", as: "anon", path: "/auth/forgot", raw: `email=${big}%40x.co`, status: 400 },
    {
      name: "forgot: an address without an account",
      as: "anon",
      path: "/auth/forgot",
      raw: "email=nobody%40example.com",
      status: 302,
      location: "/auth/forgot",
    },
    {
      name: "resend: no identifier",
      as: "anon",
      path: "/auth",
      raw: "intent=resend",
      status: 400,
      message: COPY.errors.badRequest,
    },
    { name: "resend: 10 KB identifier", as: "anon", path: "/auth", raw: `intent=resend&identifier=${big}`, status: 400 },
    {
      name: "resend: an unknown username",
      as: "anon",
      path: "/auth",
      raw: "intent=resend&identifier=nobody_here",
      status: 302,
      location: "/auth",
    },
    {
      name: "reset: a new password without a reset link (signed out)",
      as: "anon",
      path: "/auth/reset",
      raw: "password=a-brand-new-password",
      status: 400,
      message: AUTH_COPY.resetLinkInvalid,
    },
    {
      name: "reset: a new password without a reset link (signed in)",
      as: "A",
      path: "/auth/reset",
      raw: "password=a-brand-new-password",
      status: 400,
      message: AUTH_COPY.resetLinkInvalid,
    },
    {
      name: "reset: a made-up link",
      as: "anon",
      method: "GET",
      path: "/auth/reset?token_hash=x&type=recovery",
      status: 400,
      message: AUTH_COPY.resetLinkInvalid,
    },
    {
      name: "account: signed out",
      as: "anon",
      path: "/account",
      raw: "currentPassword=x&newPassword=a-brand-new-password",
      status: 302,
      location: "/auth",
    },
    {
      name: "account: a wrong current password",
      as: "A",
      path: "/account",
      raw: "currentPassword=not-the-password&newPassword=a-brand-new-password",
      status: 400,
      message: ACCOUNT_COPY.wrongCurrentPassword,
    },
    {
      name: "account: a 10 KB new password",
      as: "A",
      path: "/account",
      raw: `currentPassword=x&newPassword=${big}`,
      status: 400,
    },
    {
      name: "sign-up: no fields",
      as: "anon",
      path: "/auth?mode=signup",
      raw: "mode=signup",
      status: 400,
      message: AUTH_COPY.allRequired,
    },
    {
      name: "sign-up: bad email",
      as: "anon",
      path: "/auth?mode=signup",
      raw: "mode=signup&username=new_one&email=not-an-email&password=a-long-password",
      status: 400,
      message: AUTH_COPY.invalidEmail,
    },
    {
      name: "sign-up: short password",
      as: "anon",
      path: "/auth?mode=signup",
      raw: "mode=signup&username=new_one&email=new.one%40example.com&password=short",
      status: 400,
      message: AUTH_COPY.passwordTooShort,
    },
    {
      name: "sign-up: common password",
      as: "anon",
      path: "/auth?mode=signup",
      raw: "mode=signup&username=new_one&email=new.one%40example.com&password=Password1",
      status: 400,
      message: PASSWORD_MESSAGES.tooCommon,
    },
    {
      name: "sign-up: password is the username",
      as: "anon",
      path: "/auth?mode=signup",
      raw: "mode=signup&username=new_one_long&email=new.one%40example.com&password=new_one_long",
      status: 400,
      message: PASSWORD_MESSAGES.matchesAccount,
    },
    {
      name: "sign-up: bad username",
      as: "anon",
      path: "/auth?mode=signup",
      raw: `mode=signup&username=${enc("<script>")}&email=new.one%40example.com&password=a-long-password`,
      status: 400,
      message: AUTH_COPY.usernameFormat,
    },
    {
      name: "sign-up: A's username",
      as: "anon",
      path: "/auth?mode=signup",
      raw: "mode=signup&username=hostile_a&email=new.one%40example.com&password=a-long-password",
      status: 400,
      message: AUTH_COPY.usernameTaken,
    },
    {
      name: "sign-up: 10 KB username",
      as: "anon",
      path: "/auth?mode=signup",
      raw: `mode=signup&username=${big}&email=new.one%40example.com&password=a-long-password`,
      status: 400,
    },

    // ---- / (deck intents) ------------------------------------------------------------
    { name: "deck: no intent", as: "A", path: "/", raw: "songId=4", status: 400, message: COPY.errors.unknownIntent },
    {
      name: "deck: unknown intent",
      as: "A",
      path: "/",
      raw: "intent=delete-everything&songId=4",
      status: 400,
      message: COPY.errors.unknownIntent,
    },
    {
      name: "deck: intent as array",
      as: "A",
      path: "/",
      raw: "intent[]=add&songId=4",
      status: 400,
      message: COPY.errors.unknownIntent,
    },
    { name: "add: no songId", as: "A", path: "/", raw: "intent=add", status: 400, message: COPY.errors.badRequest },
    {
      name: "add: unknown song 31",
      as: "A",
      path: "/",
      raw: "intent=add&songId=31",
      status: 400,
      message: COPY.deck.unknownSong,
    },
    { name: "add: unknown song 0", as: "A", path: "/", raw: "intent=add&songId=0", status: 400, message: COPY.deck.unknownSong },
    {
      name: "add: songId [object Object]",
      as: "A",
      path: "/",
      raw: `intent=add&songId=${enc("[object Object]")}`,
      status: 400,
      message: COPY.deck.unknownSong,
    },
    {
      name: "add: songId as JSON",
      as: "A",
      path: "/",
      raw: `intent=add&songId=${enc('{"id":"4"}')}`,
      status: 400,
      message: COPY.deck.unknownSong,
    },
    {
      name: "add: songId with NUL",
      as: "A",
      path: "/",
      raw: "intent=add&songId=4%00",
      status: 400,
      message: COPY.deck.unknownSong,
    },
    {
      name: "add: 10 KB songId",
      as: "A",
      path: "/",
      raw: `intent=add&songId=${big}`,
      status: 400,
      message: COPY.errors.badRequest,
    },
    {
      name: "add: a song already in the deck",
      as: "A",
      path: "/",
      raw: "intent=add&songId=5",
      status: 400,
      message: COPY.deck.duplicate,
    },
    {
      name: "add: conflicting intents, bad song",
      as: "A",
      path: "/",
      raw: "intent=add&intent=remove&songId=99",
      status: 400,
      message: COPY.deck.unknownSong,
    },
    {
      name: "remove: a song not in the deck",
      as: "A",
      path: "/",
      raw: "intent=remove&songId=4",
      status: 400,
      message: COPY.deck.notInDeck,
    },
    { name: "remove: B's song", as: "A", path: "/", raw: "intent=remove&songId=7", status: 400, message: COPY.deck.notInDeck },
    { name: "remove: no songId", as: "A", path: "/", raw: "intent=remove", status: 400, message: COPY.errors.badRequest },
    {
      name: "move: out of range",
      as: "A",
      path: "/",
      raw: "intent=move&songId=3&to=99",
      status: 400,
      message: COPY.deck.moveOutOfRange,
    },
    {
      name: "move: negative",
      as: "A",
      path: "/",
      raw: "intent=move&songId=3&to=-1",
      status: 400,
      message: COPY.deck.moveOutOfRange,
    },
    {
      name: "move: not a number",
      as: "A",
      path: "/",
      raw: "intent=move&songId=3&to=first",
      status: 400,
      message: COPY.errors.badRequest,
    },
    {
      name: "move: huge number",
      as: "A",
      path: "/",
      raw: "intent=move&songId=3&to=99999999999999999999",
      status: 400,
      message: COPY.errors.badRequest,
    },
    {
      name: "move: a song not in the deck",
      as: "A",
      path: "/",
      raw: "intent=move&songId=4&to=0",
      status: 400,
      message: COPY.deck.notInDeck,
    },
    {
      name: "design: unknown design",
      as: "A",
      path: "/",
      raw: "intent=design&designId=evil-design",
      status: 400,
      message: COPY.deck.unknownDesign,
    },
    { name: "design: no designId", as: "A", path: "/", raw: "intent=design", status: 400, message: COPY.errors.badRequest },
    {
      name: "options: 121-character note",
      as: "A",
      path: "/",
      raw: `intent=options&note=${"n".repeat(121)}`,
      status: 400,
      message: COPY.home.noteTooLong(NOTE_MAX),
    },
    {
      name: "options: 10 KB note",
      as: "A",
      path: "/",
      raw: `intent=options&note=${big}&djIntro=on`,
      status: 400,
      message: COPY.errors.badRequest,
    },
    {
      name: "options: 10 KB toggle value",
      as: "A",
      path: "/",
      raw: `intent=options&note=x&Aikavoice=${big}`,
      status: 400,
      message: COPY.errors.badRequest,
    },
    {
      name: "deck: a user id field is ignored",
      as: "A",
      path: "/",
      raw: `intent=add&songId=31&user_id=${UUID}&uid=${UUID}`,
      status: 400,
      message: COPY.deck.unknownSong,
    },

    // ---- /review ---------------------------------------------------------------------
    {
      name: "review: no intent",
      as: "A",
      path: "/review",
      raw: "code=ABCDEFGH",
      status: 400,
      message: COPY.errors.unknownIntent,
    },
    {
      name: "review: unknown intent",
      as: "A",
      path: "/review",
      raw: "intent=pay",
      status: 400,
      message: COPY.errors.unknownIntent,
    },
    {
      name: "transmit: no code",
      as: "A",
      path: "/review",
      raw: "intent=transmit",
      status: 400,
      message: COPY.review.codeRequired,
    },
    {
      name: "transmit: malformed code",
      as: "A",
      path: "/review",
      raw: "intent=transmit&code=abc",
      status: 400,
      message: COPY.review.codeFormat,
    },
    {
      name: "transmit: lower-case code",
      as: "A",
      path: "/review",
      raw: "intent=transmit&code=abcd1234",
      status: 400,
      message: COPY.review.codeFormat,
    },
    { name: "transmit: 10 KB code", as: "A", path: "/review", raw: `intent=transmit&code=${big}`, status: 400 },
    {
      name: "transmit: B's order code with A's session",
      as: "A",
      path: "/review",
      raw: () => `intent=transmit&code=${orderB}`,
      status: 409,
      message: COPY.review.codeStale,
    },
    {
      name: "transmit: a code that is not on the deck",
      as: "A",
      path: "/review",
      raw: "intent=transmit&code=ZZZZ9999",
      status: 409,
      message: COPY.review.codeStale,
    },
    {
      name: "transmit: B's code with a user id field",
      as: "A",
      path: "/review",
      raw: () => `intent=transmit&code=${orderB}&user_id=${UUID}`,
      status: 409,
      message: COPY.review.codeStale,
    },

    // ---- signed out: the app redirects to /auth by design ------------------------------
    { name: "signed out: add", as: "anon", path: "/", raw: "intent=add&songId=4", status: 302, location: "/auth" },
    {
      name: "signed out: transmit B's code",
      as: "anon",
      path: "/review",
      raw: () => `intent=transmit&code=${orderB}`,
      status: 302,
      location: "/auth",
    },
    { name: "signed out: logout", as: "anon", path: "/logout", raw: "", status: 302, location: "/auth" },

    // ---- paths without an action ---------------------------------------------------------
    {
      name: "POST to an unknown path",
      as: "A",
      path: "/admin/orders",
      raw: "intent=add&songId=4",
      status: 404,
      message: COPY.errors.notFound,
    },
    { name: "POST to /healthz", as: "A", path: "/healthz", raw: "x=1", status: 405 },
    {
      // My Mixtapes takes one form (a shopper's cancel): any other intent is refused.
      name: "POST to /my-mixtapes with another form's intent",
      as: "A",
      path: "/my-mixtapes",
      raw: "intent=transmit",
      status: 400,
      message: COPY.errors.unknownIntent,
    },
    {
      name: "POST to /auth/confirm",
      as: "anon",
      path: "/auth/confirm?token_hash=x&type=signup",
      raw: "x=1",
      status: 405,
      message: COPY.errors.badRequest,
    },
    {
      name: "POST to the index route",
      as: "A",
      path: "/?index",
      raw: "intent=add&songId=4",
      status: 405,
      message: COPY.errors.badRequest,
    },

    // ---- methods, encodings and sizes (refused before the app) ------------------------------
    {
      name: "PUT a deck intent",
      as: "A",
      method: "PUT",
      path: "/",
      raw: "intent=add&songId=4",
      status: 405,
      message: "This method is not allowed here",
    },
    {
      name: "DELETE the review",
      as: "A",
      method: "DELETE",
      path: "/review",
      raw: () => `intent=transmit&code=${pendingA}`,
      status: 405,
      message: "This method is not allowed here",
    },
    {
      name: "PATCH the options",
      as: "A",
      method: "PATCH",
      path: "/",
      raw: "intent=options&note=patched",
      status: 405,
      message: "This method is not allowed here",
    },
    { name: "multipart with a file", as: "A", path: "/", body: multipartWithFile(), status: 415, message: REFUSED.unsupported },
    {
      name: "JSON body",
      as: "A",
      path: "/",
      body: '{"intent":"add","songId":"4"}',
      headers: { "content-type": "application/json" },
      status: 415,
      message: REFUSED.unsupported,
    },
    {
      name: "text/plain body",
      as: "A",
      path: "/auth",
      body: "mode=login",
      headers: { "content-type": "text/plain" },
      status: 415,
      message: REFUSED.unsupported,
    },
    { name: "no content type, no body", as: "A", path: "/logout", status: 415, message: REFUSED.unsupported },
    {
      name: "body over the 16 KB limit",
      as: "A",
      path: "/",
      raw: `intent=options&note=${"y".repeat(17 * 1024)}`,
      status: 413,
      message: REFUSED.tooLarge,
    },
    {
      name: "body over the limit on /auth",
      as: "anon",
      path: "/auth",
      raw: `mode=login&email=a%40b.co&password=${"y".repeat(64 * 1024)}`,
      status: 413,
      message: REFUSED.tooLarge,
    },

    // ---- cross-site requests -----------------------------------------------------------------
    {
      name: "cross-site Origin: add",
      as: "A",
      path: "/",
      raw: "intent=add&songId=4",
      headers: { origin: "https://evil.example" },
      status: 403,
      message: REFUSED.crossSite,
    },
    {
      name: "Sec-Fetch-Site cross-site: transmit",
      as: "A",
      path: "/review",
      raw: () => `intent=transmit&code=${pendingA}`,
      headers: { "sec-fetch-site": "cross-site" },
      status: 403,
      message: REFUSED.crossSite,
    },
    {
      name: "Sec-Fetch-Site same-site: options",
      as: "A",
      path: "/",
      raw: "intent=options&note=pwned",
      headers: { "sec-fetch-site": "same-site" },
      status: 403,
      message: REFUSED.crossSite,
    },
    {
      name: "Origin null: logout",
      as: "A",
      path: "/logout",
      raw: "",
      headers: { origin: "null" },
      status: 403,
      message: REFUSED.crossSite,
    },
    {
      name: "cross-site Origin: login",
      as: "anon",
      path: "/auth",
      raw: `mode=login&email=hostile.a%40example.com&password=${PASSWORD}`,
      headers: { origin: "http://evil.example" },
      status: 403,
      message: REFUSED.crossSite,
    },
    {
      name: "Origin on another port",
      as: "A",
      path: "/",
      raw: "intent=remove&songId=3",
      headers: { origin: "http://127.0.0.1:1" },
      status: 403,
      message: REFUSED.crossSite,
    },
  ];

  function multipartWithFile(): FormData {
    const form = new FormData();
    form.set("intent", "add");
    form.set("songId", new Blob(["4"], { type: "application/octet-stream" }), "song.bin");
    return form;
  }

  it.each(cases)("$name -> $status", async (c) => {
    const client = c.as === "A" ? A : c.as === "B" ? B : anon;
    const raw = typeof c.raw === "function" ? c.raw() : c.raw;
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
    expect(htmlText(sent.body)).toContain(COPY.review.codeStale);
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
