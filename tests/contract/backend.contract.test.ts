// The Backend port's contract: one list of cases, run against every adapter
// (embedded on PGlite, embedded on PostgreSQL 15, Supabase against an HTTP fake).
// Every request is built with backend.forRequest(new Request(...)); cookies are carried
// between requests by a small jar (tests/support/browser.ts), as a browser would.
import "../support/env";
import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { COPY, TOAST_COPY, SHOP_COPY } from "~/domain/copy";
import { AUTH_COPY, ACCOUNT_COPY, OWN_ACCOUNT_COPY } from "~/domain/copy-auth";
import { freshDeck, type Deck } from "~/domain/deck";
import { displayName, shopperName } from "~/domain/display-name";
import { readMoney, type MoneyLine } from "~/domain/money";
import { readOrderRow, type NewOrder } from "~/domain/orders";
import { findSong } from "~/domain/catalogue";
import { conversationOpen, readMessageRow, readUnreadRow, type Side } from "~/domain/conversation";
import { readInsights } from "~/domain/insights";
import {
  changePassword,
  inRecoveryWindow,
  logIn,
  openRecoveryLink,
  resendConfirmation,
  sendPasswordReset,
  setNewPassword,
  signUp,
} from "~/server/services/accounts.server";
import { PASSWORD_MESSAGES, sha256 } from "~/server/backend/passwords.server";
import {
  BackendUnavailableError,
  NOT_CONFIGURED,
  TOO_MANY_MESSAGES,
  type BackendRequest,
  type OrderChange,
  type PaymentEvent,
  type QueueRead,
  type ShopSettings,
} from "~/server/backend/port.server";
import { migrate, migrationList, openPglite, openPostgres } from "~/server/backend/sql/db.server";
import { createSupabaseBackend } from "~/server/backend/supabase/index.server";
import { AUTH_MESSAGES, RECOVERY_TOKEN_SECONDS } from "~/server/backend/sql/auth.server";
import { transmitOrder } from "~/server/services/orders.server";
import { sendMessage } from "~/server/services/conversation.server";
import { orderEmail } from "~/server/services/order-emails.server";
import {
  confirmEmailChange,
  deleteAccount,
  exportAccount,
  requestEmailChange,
  signOutEverywhereElse,
} from "~/server/services/own-account.server";
import { allHarnesses, type AdapterCtx } from "../support/adapters";
import { Browser } from "../support/browser";
import { CONVERSATION_COPY } from "~/domain/copy-orders";

const PASSWORD = "correct-horse-battery";
let seq = 0;
const unique = () => `${process.pid.toString(36)}${(++seq).toString(36)}${crypto.randomBytes(2).toString("hex")}`;
const newEmail = () => `rebel-${unique()}@example.test`;
const newUsername = () => `dj_${unique()}`.slice(0, 32);
const newCode = () => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return Array.from(crypto.randomBytes(8), (b) => alphabet[b % alphabet.length]).join("");
};
const track = (id: string) => {
  const s = findSong(id)!;
  return { id: s.id, title: s.title, thumbnail: s.thumbnail, previewUrl: s.previewUrl };
};
const order = (userId: string, over: Partial<NewOrder> = {}): NewOrder => ({
  user_id: userId,
  code: newCode(),
  tracks: [track("3"), track("1"), track("30")],
  toggles: { Aikavoice: true, djIntro: false, retronoise: true },
  note: "The System can't stop your signal",
  design_id: "high-voltage",
  codename: "NEON SIGNAL",
  ...over,
});
const deckFor = (userId: string, code: string | null, songs = ["5", "2", "17"]): Deck => ({
  ...freshDeck(userId, () => 0),
  songs,
  code,
  note: "Play it loud",
  design: "unicorn-mix",
  toggles: { Aikavoice: false, djIntro: true, retronoise: false },
});
/** The link's token_hash and type, as the /auth/confirm route reads them. */
const linkParams = (link: URL | null) => {
  expect(link, "the confirmation email carries a link").not.toBeNull();
  return { tokenHash: link!.searchParams.get("token_hash") ?? "", type: link!.searchParams.get("type") ?? "" };
};

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  const name = harness.name;
  let ctx: AdapterCtx;

  beforeAll(async () => {
    if (harness.available) await harness.boot();
  });
  afterAll(async () => {
    if (harness.available) await harness.shutdown();
  });
  beforeEach(async (test) => {
    if (!harness.available) return test.skip();
    ctx = await harness.fresh();
  });
  afterEach(async () => {
    await ctx?.close().catch(() => {});
  });

  const browser = () => new Browser(ctx.backend, ctx.origin);

  /** Signs up through the service, confirms through the emailed link; a signed-in browser. */
  async function signedInUser(username = newUsername(), email = newEmail()) {
    const b = browser();
    const outcome = await b.call((api) => signUp(api, { username, email, password: PASSWORD, origin: ctx.origin }), "/auth");
    expect(outcome).toMatchObject({ ok: true });
    const mails = await ctx.mailsTo(email);
    const { tokenHash, type } = linkParams(mails.at(-1)!.link);
    const verified = await b.call((api) => api.verifyOtp({ tokenHash, type }), "/auth/confirm");
    expect(verified.error).toBeNull();
    const user = await b.user();
    expect(user).not.toBeNull();
    return { browser: b, user: user!, username, email };
  }

  // ---- Sign-up, confirmation, login, logout ----------------------------------------

  it("sign-up stores the username in the metadata and sends a confirmation link to the site's origin", async () => {
    const b = browser();
    const email = newEmail();
    const username = newUsername();
    const result = await b.call(
      (api) => api.signUp({ email, password: PASSWORD, username, emailRedirectTo: ctx.origin }),
      "/auth",
    );
    expect(result.error).toBeNull();
    expect(typeof result.userId).toBe("string");
    expect(await ctx.accountExists(email)).toBe(true);

    const mails = await ctx.mailsTo(email);
    expect(mails).toHaveLength(1);
    const link = mails[0].link!;
    expect(link.origin).toBe(ctx.origin);
    expect(link.pathname).toBe("/auth/confirm");
    expect(link.searchParams.get("token_hash")).toMatch(/\S{20,}/);

    // No session before the address is confirmed.
    expect(await b.user()).toBeNull();

    // The account and the profile its trigger made (on Supabase too: the fake's auth.users).
    const { rows } = await ctx.sql.query<{ id: string; username: string; confirmed: boolean; profile: string }>(
      `select u.id, u.raw_user_meta_data->>'username' as username, u.email_confirmed_at is not null as confirmed, p.username as profile
         from auth.users u join public.profiles p on p.id = u.id where u.email = $1`,
      [email],
    );
    expect(rows).toEqual([{ id: result.userId, username, confirmed: false, profile: username }]);
    expect(rows).toHaveLength(1);
    if (ctx.fake) {
      const [req] = ctx.fake.requestsTo("/auth/v1/signup", "POST");
      expect(req.query.redirect_to).toBe(ctx.origin);
      expect(req.body).toMatchObject({ email, password: PASSWORD, data: { username } });
      // @supabase/ssr runs the PKCE flow: the challenge goes along with the sign-up.
      expect(req.body).toMatchObject({ code_challenge: expect.any(String), code_challenge_method: "s256" });
    }
  });

  it("an unconfirmed account cannot log in: Email not confirmed", async () => {
    const b = browser();
    const email = newEmail();
    await b.call((api) => api.signUp({ email, password: PASSWORD, username: newUsername(), emailRedirectTo: ctx.origin }));
    const { error } = await b.call((api) => api.signInWithPassword({ email, password: PASSWORD }));
    expect(error?.message).toBe(AUTH_MESSAGES.emailNotConfirmed);
    expect(error?.message).toBe("Email not confirmed");
    expect(await b.user()).toBeNull();
  });

  it("the confirmation link starts a session, and works only once", async () => {
    const b = browser();
    const email = newEmail();
    const signed = await b.call((api) =>
      api.signUp({ email, password: PASSWORD, username: newUsername(), emailRedirectTo: ctx.origin }),
    );
    const { tokenHash, type } = linkParams((await ctx.mailsTo(email))[0].link);

    const first = await b.call((api) => api.verifyOtp({ tokenHash, type }), "/auth/confirm");
    expect(first.error).toBeNull();
    expect(b.lastSetCookies.length).toBeGreaterThan(0);
    for (const line of b.lastSetCookies) {
      expect(line).toMatch(/HttpOnly/i);
      expect(line).toMatch(/SameSite=Lax/i);
    }
    const user = await b.user();
    expect(user).toEqual({ id: signed.userId, email });

    // A second use, from another browser: refused, no session.
    const other = browser();
    const again = await other.call((api) => api.verifyOtp({ tokenHash, type }), "/auth/confirm");
    expect(again.error?.message).toBe(AUTH_MESSAGES.otpInvalid);
    expect(await other.user()).toBeNull();

    // A made-up token: refused too.
    const bogus = await other.call((api) => api.verifyOtp({ tokenHash: "x".repeat(43), type }), "/auth/confirm");
    expect(bogus.error).not.toBeNull();
    expect(await other.user()).toBeNull();

    const { rows } = await ctx.sql.query(`select 1 from auth.users where email = $1 and email_confirmed_at is not null`, [email]);
    expect(rows).toHaveLength(1);
    if (ctx.fake) {
      const verifies = ctx.fake.requestsTo("/auth/v1/verify", "POST");
      expect(verifies[0].body).toMatchObject({ token_hash: tokenHash, type });
    }
  });

  it("signing up again with a registered address reveals nothing and creates nothing", async () => {
    const { email, user } = await signedInUser();
    const b = browser();
    const again = await b.call((api) =>
      api.signUp({ email, password: "another-password", username: newUsername(), emailRedirectTo: ctx.origin }),
    );
    expect(again.error).toBeNull();
    expect(again.userId).not.toBe(user.id); // null (embedded) or an obfuscated id (Supabase)
    expect(await b.user()).toBeNull();
    // Still one account, and the old password still works.
    expect((await ctx.sql.query(`select id from auth.users where lower(email) = lower($1)`, [email])).rows).toEqual([
      { id: user.id },
    ]);
    expect((await b.call((api) => api.signInWithPassword({ email, password: "another-password" }))).error?.message).toBe(
      "Invalid login credentials",
    );
    expect((await b.call((api) => api.signInWithPassword({ email, password: PASSWORD }))).error).toBeNull();
  });

  it("signing up again before confirming sends a fresh confirmation link that works", async () => {
    const email = newEmail();
    const username = newUsername();
    const b = browser();
    const first = await b.call((api) => api.signUp({ email, password: PASSWORD, username, emailRedirectTo: ctx.origin }));
    expect(first.error).toBeNull();
    const again = await b.call((api) =>
      api.signUp({ email, password: PASSWORD, username: newUsername(), emailRedirectTo: ctx.origin }),
    );
    expect(again.error).toBeNull();
    const mails = await ctx.mailsTo(email);
    expect(mails.length).toBeGreaterThanOrEqual(2);
    const { tokenHash, type } = linkParams(mails.at(-1)!.link);
    expect((await b.call((api) => api.verifyOtp({ tokenHash, type }), "/auth/confirm")).error).toBeNull();
    expect((await b.user())?.email).toBe(email);
    expect((await ctx.sql.query(`select 1 from auth.users where lower(email) = lower($1)`, [email])).rows).toHaveLength(1);
  });

  it("login with the right password starts a session; a wrong password or unknown email: Invalid login credentials", async () => {
    const { email, user } = await signedInUser();

    const b = browser();
    const wrong = await b.call((api) => api.signInWithPassword({ email, password: "not-the-password" }));
    expect(wrong.error?.message).toBe("Invalid login credentials");
    expect(await b.user()).toBeNull();

    const unknown = await b.call((api) => api.signInWithPassword({ email: newEmail(), password: PASSWORD }));
    expect(unknown.error?.message).toBe("Invalid login credentials");

    const right = await b.call((api) => api.signInWithPassword({ email, password: PASSWORD }));
    expect(right.error).toBeNull();
    expect(b.lastSetCookies.some((l) => /HttpOnly/i.test(l))).toBe(true);
    expect(await b.user()).toEqual(user);

    // The accounts service gives the same outcomes.
    const viaService = browser();
    expect(await viaService.call((api) => logIn(api, email, PASSWORD))).toEqual({ ok: true });
    expect(await viaService.user()).toEqual(user);
    expect(await browser().call((api) => logIn(api, email, "nope-nope-nope"))).toEqual({
      ok: false,
      message: "Invalid login credentials",
    });

    if (ctx.fake) {
      const [req] = ctx.fake.requestsTo("/auth/v1/token", "POST").filter((r) => r.query.grant_type === "password");
      expect(req.body).toMatchObject({ email, password: "not-the-password" });
    }
  });

  it("logout revokes the session: the old cookie no longer yields a user", async () => {
    const { browser: b, user } = await signedInUser();
    const oldCookie = b.jar.header();
    expect(await b.user(oldCookie)).toEqual(user);

    await b.call((api) => api.signOut(), "/logout");
    // The cookie is cleared in the browser ...
    expect(b.lastSetCookies.length).toBeGreaterThan(0);
    expect(await b.user()).toBeNull();
    // ... and a copy of the old cookie is worthless: the session was revoked server-side.
    expect(await b.user(oldCookie)).toBeNull();

    // Other sessions of the same user still work until they log out (embedded), or are
    // revoked too (Supabase's default scope is global); either way a new login works.
    const again = browser();
    expect((await again.call((api) => api.signInWithPassword({ email: user.email!, password: PASSWORD }))).error).toBeNull();
    expect(await again.user()).toEqual(user);

    if (name !== "supabase") {
      // The embedded auth's sessions (Supabase's live in its Auth service).
      const { rows } = await ctx.sql.query<{ n: number }>(`select count(*)::int as n from auth.sessions where user_id = $1`, [
        user.id,
      ]);
      expect(rows[0].n).toBe(1); // the revoked session is gone; only the new login's remains
    }
    if (ctx.fake) expect(ctx.fake.requestsTo("/auth/v1/logout", "POST")).toHaveLength(1);
  });

  // ---- Usernames ---------------------------------------------------------------------

  it("a taken username: Username already taken., and no account is created", async () => {
    const { username } = await signedInUser();
    const email2 = newEmail();
    const b = browser();
    const outcome = await b.call(
      (api) => signUp(api, { username, email: email2, password: PASSWORD, origin: ctx.origin }),
      "/auth",
    );
    expect(outcome).toEqual({ ok: false, message: AUTH_COPY.usernameTaken });
    expect(outcome).toEqual({ ok: false, message: "Username already taken." });
    expect(await ctx.accountExists(email2)).toBe(false);
    expect(await ctx.mailsTo(email2)).toEqual([]);
    expect((await ctx.sql.query(`select id from auth.users where email = $1`, [email2])).rows).toEqual([]);
    if (ctx.fake) {
      expect(ctx.fake.requestsTo("/auth/v1/signup").filter((r) => (r.body as { email?: string }).email === email2)).toEqual([]);
    }
  });

  it("usernames are taken whatever their case, and the lookup ignores case", async () => {
    const { username } = await signedInUser(`Dj_${unique()}`.slice(0, 32));
    const email2 = newEmail();
    const outcome = await browser().call((api) =>
      signUp(api, { username: username.toUpperCase(), email: email2, password: PASSWORD, origin: ctx.origin }),
    );
    expect(outcome).toEqual({ ok: false, message: "Username already taken." });
    expect(await ctx.accountExists(email2)).toBe(false);
    // The same answer when the lookup is skipped (a race): the database refuses it too.
    const raced = await browser().call((api) =>
      api.signUp({ email: newEmail(), password: PASSWORD, username: username.toLowerCase(), emailRedirectTo: ctx.origin }),
    );
    expect(raced.error).not.toBeNull();
    for (const variant of [username.toLowerCase(), username.toUpperCase()]) {
      expect((await browser().call((api) => api.usernameExists(variant))).exists).toBe(true);
      const b = browser();
      expect(await b.call((api) => logIn(api, variant, PASSWORD))).toEqual({ ok: true });
      expect((await b.user())?.email).toBeTruthy();
    }
  });

  it("a taken username that slips past the lookup (a race) still creates no account", async () => {
    const { username } = await signedInUser();
    const email2 = newEmail();
    const result = await browser().call((api) =>
      api.signUp({ email: email2, password: PASSWORD, username, emailRedirectTo: ctx.origin }),
    );
    expect(result.error).not.toBeNull();
    expect(result.userId).toBeNull();
    expect(await ctx.accountExists(email2)).toBe(false);
    expect(await ctx.mailsTo(email2)).toEqual([]);
    if (name !== "supabase") {
      // The trigger's unique violation rolls back the whole sign-up; the adapter says which step failed.
      expect(result.error).toMatchObject({ code: "23505", step: "username" });
    } else {
      // GoTrue reports the failed trigger as its 500; auth-js 2.109 (the last for Node 20) drops its
      // message "Database error saving new user", so the adapter names the status.
      expect(result.error).toMatchObject({ message: "Supabase Auth answered 500.", status: 500 });
    }
  });

  it("login with a username (any case) signs in as its email does; Username not found.; a wrong password: Invalid login credentials", async () => {
    const { username, email, user } = await signedInUser();
    const b = browser();
    expect(await b.call((api) => logIn(api, "no_such_rebel", PASSWORD))).toEqual({ ok: false, message: "Username not found." });
    expect(await b.call((api) => logIn(api, username, "wrong-password-99"))).toEqual({
      ok: false,
      message: "Invalid login credentials",
    });
    expect(await b.user()).toBeNull();
    // The account's email spends its budget of guesses before the password is tried.
    const asked: string[] = [];
    const spent = async (e: string) => (asked.push(e), 42);
    expect(await b.call((api) => logIn(api, username, PASSWORD, spent))).toEqual({ ok: false, retryAfter: 42 });
    expect(asked).toEqual([email]);
    expect(await b.user()).toBeNull();
    expect(await b.call((api) => logIn(api, username.toUpperCase(), PASSWORD, async () => null))).toEqual({ ok: true });
    expect(await b.user()).toEqual(user);
    if (ctx.fake) {
      // Without the service role key the email cannot be looked up: the spec's message, nobody signed in.
      const keyless = createSupabaseBackend({ url: ctx.fake.url, anonKey: ctx.fake.anonKey });
      const k = new Browser(keyless, ctx.origin);
      expect(await k.call((api) => logIn(api, username, PASSWORD))).toEqual({ ok: false, message: AUTH_COPY.usernameLogin });
      expect(await k.call((api) => logIn(api, "no_such_rebel", PASSWORD))).toEqual({ ok: false, message: "Username not found." });
      expect(await k.user()).toBeNull();
      await keyless.close();
    }
  });

  it("usernameExists answers anonymous callers through the security-definer function", async () => {
    const { username } = await signedInUser();
    const anon = browser();
    expect(await anon.call((api) => api.usernameExists(username))).toEqual({ exists: true, error: null });
    expect(await anon.call((api) => api.usernameExists(`${username}x`))).toEqual({ exists: false, error: null });
    // Case does not matter: usernames are unique whatever their case.
    expect((await anon.call((api) => api.usernameExists(username.toUpperCase()))).exists).toBe(true);
    if (ctx.fake) {
      const rpc = ctx.fake.requestsTo("/rest/v1/rpc/username_exists", "POST");
      expect(rpc.at(-1)!.body).toEqual({ p_username: username.toUpperCase() });
      // Anonymous: the anon key, no user token.
      expect(rpc.at(-1)!.headers.authorization).toBe(`Bearer ${ctx.fake.anonKey}`);
    }
  });

  // ---- Profiles ----------------------------------------------------------------------

  it("getProfile returns the username; the display name uses it", async () => {
    const { browser: b, user, username, email } = await signedInUser();
    const profile = await b.call((api) => api.getProfile(user.id));
    expect(profile).toEqual({ username, error: null });
    expect(displayName({ state: "ready", username: profile.username, email })).toBe(username);

    // Someone else's profile is not readable: no row, like a missing one.
    const other = await signedInUser();
    expect(await b.call((api) => api.getProfile(other.user.id))).toEqual({ username: null, error: null });
    // Signed out: the profiles table is closed to anonymous callers.
    const anon = await browser().call((api) => api.getProfile(user.id));
    expect(anon.username).toBeNull();
    expect(anon.error?.code).toBe("42501");

    if (ctx.fake) {
      const reads = ctx.fake.requestsTo("/rest/v1/profiles", "GET");
      expect(reads[0].query).toMatchObject({ select: "username", id: `eq.${user.id}` });
      expect(reads[0].headers.authorization).not.toBe(`Bearer ${ctx.fake.anonKey}`);
    }
  });

  it("a user without a username: the display name falls back to the email's local part", async () => {
    const { browser: b, user, email } = await signedInUser();
    // Clear the username behind the app's back.
    await ctx.sql.query(`update public.profiles set username = null where id = $1`, [user.id]);
    const profile = await b.call((api) => api.getProfile(user.id));
    expect(profile).toEqual({ username: null, error: null });
    expect(displayName({ state: "ready", username: profile.username, email })).toBe(email.split("@")[0]);
  });

  // ---- Orders ------------------------------------------------------------------------

  it("inserts orders and lists them newest first, every field read back", async () => {
    const { browser: b, user } = await signedInUser();
    const first = order(user.id);
    const second = order(user.id, {
      tracks: [track("7")],
      toggles: { Aikavoice: false, djIntro: true, retronoise: false },
      note: "",
      design_id: null,
    });
    expect(await b.call((api) => api.insertOrder(first))).toEqual({ error: null });
    expect(await b.call((api) => api.insertOrder(second))).toEqual({ error: null });

    const { rows, error } = await b.call((api) => api.listOrders(user.id));
    expect(error).toBeNull();
    expect(rows.map((r) => r.code)).toEqual([second.code, first.code]);
    for (const [row, sent] of [
      [rows[0], second],
      [rows[1], first],
    ] as const) {
      expect(row).toMatchObject({
        user_id: user.id,
        code: sent.code,
        tracks: sent.tracks,
        toggles: sent.toggles,
        note: sent.note,
        design_id: sent.design_id,
      });
      expect(row.id).toBeDefined();
      expect(row.created_at).toBeDefined();
      const read = readOrderRow(row);
      expect(read).toMatchObject({
        code: sent.code,
        tracks: sent.tracks,
        toggles: sent.toggles,
        note: sent.note,
        design_id: sent.design_id,
      });
      expect(Number.isNaN(Date.parse(read!.created_at))).toBe(false);
    }
    expect(Date.parse(readOrderRow(rows[0])!.created_at)).toBeGreaterThanOrEqual(Date.parse(readOrderRow(rows[1])!.created_at));

    // One code only.
    const one = await b.call((api) => api.listOrders(user.id, { code: first.code }));
    expect(one.rows.map((r) => r.code)).toEqual([first.code]);

    if (ctx.fake) {
      const [insert] = ctx.fake.requestsTo("/rest/v1/mixtapes", "POST");
      // The spec's fields, and the cover's codename the console shows (issue 27).
      expect(Object.keys(insert.body as object).sort()).toEqual([
        "code",
        "codename",
        "design_id",
        "note",
        "toggles",
        "tracks",
        "user_id",
      ]);
      const list = ctx.fake.requestsTo("/rest/v1/mixtapes", "GET")[0];
      expect(list.query).toMatchObject({
        select: "*,money:order_money,tape:order_tape",
        user_id: `eq.${user.id}`,
        order: "created_at.desc,id.desc",
      });
    }
  });

  it("lists orders a page at a time, newest first, the pages together the whole list", async () => {
    const { browser: b, user } = await signedInUser();
    for (let i = 0; i < 7; i++) expect(await b.call((api) => api.insertOrder(order(user.id)))).toEqual({ error: null });
    const all = (await b.call((api) => api.listOrders(user.id))).rows.map((r) => r.code);
    expect(all).toHaveLength(7);

    const page = async (limit: number, offset: number) => {
      const { rows, error } = await b.call((api) => api.listOrders(user.id, { page: { limit, offset } }));
      expect(error).toBeNull();
      return rows.map((r) => r.code);
    };
    expect(await page(3, 0)).toEqual(all.slice(0, 3));
    expect(await page(3, 3)).toEqual(all.slice(3, 6));
    expect(await page(3, 6)).toEqual(all.slice(6));
    expect(await page(3, 9)).toEqual([]);
    // One more than a page: how the route learns that an older page follows.
    expect(await page(8, 0)).toEqual(all);

    // A page of one code still finds it (the code filter and the page together).
    const { rows: one } = await b.call((api) => api.listOrders(user.id, { code: String(all[4]), page: { limit: 3, offset: 0 } }));
    expect(one.map((r) => r.code)).toEqual([all[4]]);

    if (ctx.fake) {
      const paged = ctx.fake.requestsTo("/rest/v1/mixtapes", "GET").find((r) => r.query.offset === "3");
      expect(paged?.query).toMatchObject({ order: "created_at.desc,id.desc", limit: "3", offset: "3" });
    }
  });

  it("RLS: another user sees none of the orders, and cannot insert in someone else's name", async () => {
    const a = await signedInUser();
    const bUser = await signedInUser();
    const mine = order(a.user.id);
    expect((await a.browser.call((api) => api.insertOrder(mine))).error).toBeNull();

    // B lists its own orders: none; B asks for A's: none either.
    expect((await bUser.browser.call((api) => api.listOrders(bUser.user.id))).rows).toEqual([]);
    expect((await bUser.browser.call((api) => api.listOrders(a.user.id))).rows).toEqual([]);
    expect((await bUser.browser.call((api) => api.listOrders(a.user.id, { code: mine.code }))).rows).toEqual([]);

    // A's session inserting an order with B's user_id: refused by the policy.
    const forged = order(bUser.user.id);
    const { error } = await a.browser.call((api) => api.insertOrder(forged));
    expect(error?.code).toBe("42501");
    expect(await ctx.ordersWithCode(forged.code)).toEqual([]);
    // Signed out: refused too.
    const anon = await browser().call((api) => api.insertOrder(order(a.user.id)));
    expect(anon.error?.code).toBe("42501");
    const anonList = await browser().call((api) => api.listOrders(a.user.id));
    expect(anonList.rows).toEqual([]);
    expect(anonList.error?.code).toBe("42501");

    if (ctx.fake) {
      // PostgREST's statuses for the denials: 403 for a signed-in role, 401 for anon.
      const inserts = ctx.fake.requestsTo("/rest/v1/mixtapes", "POST");
      expect(inserts.map((r) => r.status)).toEqual([201, 403, 401]);
      expect((inserts[1].body as { user_id: string }).user_id).toBe(bUser.user.id);
    }

    // A still sees exactly its own order.
    expect((await a.browser.call((api) => api.listOrders(a.user.id))).rows.map((r) => r.code)).toEqual([mine.code]);
  });

  it("a duplicate code: insertOrder answers 23505; transmitOrder answers a repeat as success with one row", async () => {
    const { browser: b, user } = await signedInUser();
    const dup = order(user.id);
    expect((await b.call((api) => api.insertOrder(dup))).error).toBeNull();
    const again = await b.call((api) => api.insertOrder({ ...dup, note: "second try" }));
    expect(again.error?.code).toBe("23505");
    expect(typeof again.error?.message).toBe("string");
    expect(await ctx.ordersWithCode(dup.code)).toHaveLength(1);
    expect(again.error?.message).toBe('duplicate key value violates unique constraint "mixtapes_code_key"');
    if (ctx.fake) expect(ctx.fake.requestsTo("/rest/v1/mixtapes", "POST")[1].status).toBe(409);

    const code = newCode();
    const deck = deckFor(user.id, code);
    const t1 = await b.call((api) => transmitOrder(api, user.id, deck, code));
    expect(t1).toEqual({ ok: true, repeat: false });
    const t2 = await b.call((api) => transmitOrder(api, user.id, deck, code));
    expect(t2).toEqual({ ok: true, repeat: true });
    // Concurrent double submit: one insert wins, the other sees the 23505 and the stored row.
    const code2 = newCode();
    const deck2 = deckFor(user.id, code2);
    const both = await Promise.all([
      b.call((api) => transmitOrder(api, user.id, deck2, code2)),
      b.call((api) => transmitOrder(api, user.id, deck2, code2)),
    ]);
    expect(both.every((o) => o.ok)).toBe(true);
    expect(both.filter((o) => o.ok && !o.repeat)).toHaveLength(1);

    for (const c of [code, code2]) {
      const stored = await ctx.ordersWithCode(c);
      expect(stored).toHaveLength(1);
      const listed = (await b.call((api) => api.listOrders(user.id, { code: c }))).rows;
      expect(listed).toHaveLength(1);
      expect(readOrderRow(listed[0])).toMatchObject({
        code: c,
        tracks: deck.songs.map(track),
        toggles: deck.toggles,
        note: deck.note,
        design_id: deck.design,
      });
    }

    // Someone else's code: the insert collides but B sees no such order of its own.
    const other = await signedInUser();
    const stolen = await other.browser.call((api) => transmitOrder(api, other.user.id, deckFor(other.user.id, code), code));
    expect(stolen).toMatchObject({ ok: false, status: 409, message: COPY.review.codeTaken });
    expect(await ctx.ordersWithCode(code)).toHaveLength(1);
  });

  it("a used code with a deck edited since is not a success, and nothing is stored twice", async () => {
    const { browser: b, user } = await signedInUser();
    const code = newCode();
    const deck = deckFor(user.id, code);
    expect(await b.call((api) => transmitOrder(api, user.id, deck, code))).toEqual({ ok: true, repeat: false });
    expect(await b.call((api) => transmitOrder(api, user.id, deck, code))).toEqual({ ok: true, repeat: true });
    for (const edited of [
      { ...deck, songs: [...deck.songs, "9"] },
      { ...deck, songs: [...deck.songs].reverse() },
      { ...deck, note: "Changed my mind" },
      { ...deck, toggles: { ...deck.toggles, retronoise: true } },
      { ...deck, design: null },
    ]) {
      expect(await b.call((api) => transmitOrder(api, user.id, edited, code))).toEqual({
        ok: false,
        status: 409,
        title: TOAST_COPY.submissionFailed,
        message: COPY.review.codeUsed,
        codeUsed: true,
      });
    }
    expect(await ctx.ordersWithCode(code)).toHaveLength(1);
  });

  it("constraint failures come back as errors with their SQLSTATE", async () => {
    const { browser: b, user } = await signedInUser();
    const longNote = await b.call((api) => api.insertOrder(order(user.id, { note: "x".repeat(121) })));
    expect(longNote.error?.code).toBe("23514");
    const badCode = await b.call((api) => api.insertOrder(order(user.id, { code: "abc" })));
    expect(badCode.error?.code).toBe("23514");
    const ok = await b.call((api) => api.insertOrder(order(user.id, { note: "y".repeat(120) })));
    expect(ok.error).toBeNull();
    expect((await b.call((api) => api.listOrders(user.id))).rows).toHaveLength(1);
  });

  it("reads malformed stored rows tolerantly", async () => {
    const { browser: b, user } = await signedInUser();
    const good = track("12");
    await ctx.seedOrder({
      user_id: user.id,
      code: "BADJSON1",
      tracksJson: JSON.stringify([
        { id: "1", title: "no thumbnail" },
        42,
        null,
        "track",
        { id: 2, title: "T", thumbnail: "t", previewUrl: "p" },
        good,
        { ...good, extra: "ignored" },
      ]),
      togglesJson: JSON.stringify({ Aikavoice: "true", djIntro: 1, retronoise: true, unknown: true }),
      note: "",
      design_id: "no-such-design",
    });
    await ctx.seedOrder({ user_id: user.id, code: "BADJSON2", tracksJson: "[]", togglesJson: "{}", note: "", design_id: null });

    const { rows, error } = await b.call((api) => api.listOrders(user.id));
    expect(error).toBeNull();
    expect(rows).toHaveLength(2);
    const orders = rows.map(readOrderRow);
    expect(orders.every((o) => o !== null)).toBe(true);
    const bad = orders.find((o) => o!.code === "BADJSON1")!;
    expect(bad.tracks).toEqual([good, good]);
    expect(bad.toggles).toEqual({ Aikavoice: false, djIntro: false, retronoise: true });
    expect(bad.design_id).toBe("no-such-design");
    const empty = orders.find((o) => o!.code === "BADJSON2")!;
    expect(empty).toMatchObject({
      tracks: [],
      toggles: { Aikavoice: false, djIntro: false, retronoise: false },
      note: "",
      design_id: null,
    });
  });

  // ---- Account recovery ----------------------------------------------------------------

  describe("account recovery", () => {
    const NEW_PASSWORD = "brand-new-tape-deck-77";
    const resetTo = () => `${ctx.origin}/auth/reset`;
    /** The emails of one kind to this address, oldest first: recovery links or confirmation links. */
    const links = async (email: string, kind: "reset" | "confirm") =>
      (await ctx.mailsTo(email)).map((m) => m.link!).filter((l) => l?.pathname === `/auth/${kind}`);
    const forgot = (b: Browser, email: string) =>
      b.call((api) => api.resetPasswordForEmail({ email, redirectTo: resetTo() }), "/auth/forgot");
    /** Opens the reset link in a browser, as /auth/reset does: the window (user and token), or null. */
    const openWindow = (b: Browser, link: URL) => b.call((api) => openRecoveryLink(api, link.searchParams), "/auth/reset");
    /** The user the reset link signs in, or null. */
    const openLink = async (b: Browser, link: URL) => (await openWindow(b, link))?.user ?? null;
    const sessionsOf = async (userId: string) =>
      (await ctx.sql.query<{ n: number }>(`select count(*)::int as n from auth.sessions where user_id = $1`, [userId])).rows[0].n;

    it("forgot password: an account's address gets a reset link, an unknown one nothing, with the same answer", async () => {
      const { email } = await signedInUser();
      const stranger = newEmail();
      const b = browser();
      const known = await forgot(b, email);
      const unknown = await forgot(b, stranger);
      expect(known).toEqual({ error: null });
      expect(unknown).toEqual(known);
      // The service answers alike too (the routes run it after answering).
      await b.call((api) => sendPasswordReset(api, email, ctx.origin));
      await b.call((api) => sendPasswordReset(api, stranger, ctx.origin));
      expect(await b.user()).toBeNull();

      const sent = await links(email, "reset");
      expect(sent).toHaveLength(2);
      expect(sent[0].origin).toBe(ctx.origin);
      expect(sent[0].searchParams.get("type")).toBe("recovery");
      expect(sent[0].searchParams.get("token_hash")).toMatch(/\S{20,}/);
      expect(await ctx.mailsTo(stranger)).toEqual([]);
      if (ctx.fake) {
        const asks = ctx.fake.requestsTo("/auth/v1/recover", "POST");
        expect(asks.map((r) => (r.body as { email: string }).email)).toEqual([email, stranger, email, stranger]);
        expect(asks[0].query.redirect_to).toBe(resetTo());
        expect(asks.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      }
    });

    it("the reset link starts a session for its user once; a newer link or an hour makes it stop working", async () => {
      const { email, user } = await signedInUser();
      await forgot(browser(), email);
      const [first] = await links(email, "reset");
      await forgot(browser(), email);
      const second = (await links(email, "reset"))[1];

      // The older link stopped working when the newer one was sent.
      const b = browser();
      expect(await openLink(b, first)).toBeNull();
      expect(await b.user()).toBeNull();
      // The newer one works, once.
      expect(await openLink(b, second)).toEqual(user);
      expect(await b.user()).toEqual(user);
      const again = browser();
      expect(await openLink(again, second)).toBeNull();
      expect(await again.user()).toBeNull();
      // A recovery token is no confirmation link, and a made-up one is nothing.
      await forgot(browser(), email);
      const third = (await links(email, "reset"))[2];
      const tokenHash = third.searchParams.get("token_hash")!;
      expect((await again.call((api) => api.verifyOtp({ tokenHash, type: "signup" }))).error).not.toBeNull();
      expect((await again.call((api) => api.verifyOtp({ tokenHash: "x".repeat(43), type: "recovery" }))).error).not.toBeNull();
      // An hour later: expired.
      await ctx.expireLinks(email);
      expect(await openLink(again, third)).toBeNull();
      expect(await again.user()).toBeNull();
      if (ctx.fake) {
        const verifies = ctx.fake.requestsTo("/auth/v1/verify", "POST").map((r) => r.body as { type: string });
        expect(verifies.filter((v) => v.type === "recovery").length).toBeGreaterThanOrEqual(4);
      }
    });

    it.runIf(name !== "supabase")("recovery tokens are random, stored as SHA-256 only, and last 1 hour", async () => {
      const { email, user } = await signedInUser();
      await forgot(browser(), email);
      const token = (await links(email, "reset"))[0].searchParams.get("token_hash")!;
      expect(Buffer.from(token, "base64url")).toHaveLength(32);
      const { rows } = await ctx.sql.query<{ token_hash: string; type: string; seconds: number }>(
        `select token_hash, token_type as type, extract(epoch from expires_at - created_at)::int as seconds
           from auth.one_time_tokens where user_id = $1 and used_at is null`,
        [user.id],
      );
      expect(rows).toEqual([{ token_hash: sha256(token), type: "recovery", seconds: RECOVERY_TOKEN_SECONDS }]);
      expect(RECOVERY_TOKEN_SECONDS).toBe(3600);
      const raw = await ctx.sql.query(`select 1 from auth.one_time_tokens where token_hash = $1`, [token]);
      expect(raw.rows).toEqual([]);
    });

    it("a reset link confirms an address that was never confirmed", async () => {
      const email = newEmail();
      const b = browser();
      await b.call((api) => api.signUp({ email, password: PASSWORD, username: newUsername(), emailRedirectTo: ctx.origin }));
      await forgot(b, email);
      const [link] = await links(email, "reset");
      expect((await openLink(b, link))?.email).toBe(email);
      expect((await browser().call((api) => api.signInWithPassword({ email, password: PASSWORD }))).error).toBeNull();
    });

    it("a new password from the reset link: every other session ends, the old password fails, the new one works", async () => {
      const { browser: first, user, email } = await signedInUser();
      const second = browser();
      expect((await second.call((api) => api.signInWithPassword({ email, password: PASSWORD }))).error).toBeNull();
      await forgot(browser(), email);
      const resetter = browser();
      const window = await openWindow(resetter, (await links(email, "reset"))[0]);
      expect(window?.user).toEqual(user);
      const token = window!.token;

      // The sign-up rules apply, and a refusal leaves the window open.
      expect(await resetter.call((api) => setNewPassword(api, user, "password123", token))).toEqual({
        ok: false,
        message: PASSWORD_MESSAGES.tooCommon,
      });
      expect(await resetter.call((api) => inRecoveryWindow(api, token))).toBe(true);
      expect(await resetter.call((api) => setNewPassword(api, user, NEW_PASSWORD, token))).toEqual({ ok: true });
      // The window is used once: a replay finds it closed.
      expect(await resetter.call((api) => inRecoveryWindow(api, token))).toBe(false);
      expect(await resetter.call((api) => setNewPassword(api, user, "yet-another-tape-99", token))).toEqual({
        ok: false,
        closed: true,
      });
      expect(await resetter.user()).toEqual(user);
      expect(await first.user()).toBeNull();
      expect(await second.user()).toBeNull();
      const old = await browser().call((api) => api.signInWithPassword({ email, password: PASSWORD }));
      expect(old.error?.message).toBe("Invalid login credentials");
      expect((await browser().call((api) => api.signInWithPassword({ email, password: NEW_PASSWORD }))).error).toBeNull();
      // The same password again is refused, as GoTrue does.
      const same = await resetter.call((api) => api.updateUser({ password: NEW_PASSWORD }));
      expect(same.error).toMatchObject({ code: "same_password", message: AUTH_MESSAGES.samePassword });
      // Signed out, there is no password to update.
      expect((await browser().call((api) => api.updateUser({ password: "another-new-one-88" }))).error).not.toBeNull();

      if (name !== "supabase") expect(await sessionsOf(user.id)).toBe(2); // the resetter's and the last login's
      if (ctx.fake) {
        const [put] = ctx.fake.requestsTo("/auth/v1/user", "PUT");
        expect(put.body).toMatchObject({ password: NEW_PASSWORD });
        expect(ctx.fake.requestsTo("/auth/v1/logout", "POST").map((r) => r.query.scope)).toEqual(["others"]);
      }
    });

    it("a reset window is the user's own: another signed-in user can neither see nor take it", async () => {
      const { user, email } = await signedInUser();
      await forgot(browser(), email);
      const resetter = browser();
      const window = (await openWindow(resetter, (await links(email, "reset"))[0]))!;
      const id = sha256(window.token);
      const { browser: other } = await signedInUser();
      expect(await other.call((api) => api.recoveryWindowOpen(id))).toBe(false);
      expect((await other.call((api) => api.takeRecoveryWindow(id))).until).toBeNull();
      expect(await browser().call((api) => api.recoveryWindowOpen(id))).toBe(false);
      expect(await resetter.call((api) => inRecoveryWindow(api, window.token))).toBe(true);
      expect(await resetter.call((api) => setNewPassword(api, user, NEW_PASSWORD, window.token))).toEqual({ ok: true });
    });

    it("a password change ends the user's outstanding reset links", async () => {
      const { browser: b, user, email } = await signedInUser();
      await forgot(browser(), email);
      const [link] = await links(email, "reset");
      expect(await b.call((api) => changePassword(api, user, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }))).toEqual({
        ok: true,
      });
      expect(await openLink(browser(), link)).toBeNull();
    });

    it("change password: the current one must be right; then the other sessions end and this browser stays in", async () => {
      const { browser: mine, user, email } = await signedInUser();
      const other = browser();
      expect((await other.call((api) => api.signInWithPassword({ email, password: PASSWORD }))).error).toBeNull();
      const change = (currentPassword: string, newPassword: string) =>
        mine.call((api) => changePassword(api, user, { currentPassword, newPassword }), "/account");

      expect(await change("not-my-password", NEW_PASSWORD)).toEqual({ ok: false, message: ACCOUNT_COPY.wrongCurrentPassword });
      expect(await change(PASSWORD, "password123")).toEqual({ ok: false, message: PASSWORD_MESSAGES.tooCommon });
      expect(await mine.user()).toEqual(user);
      expect(await other.user()).toEqual(user);

      expect(await change(PASSWORD, NEW_PASSWORD)).toEqual({ ok: true });
      expect(await mine.user()).toEqual(user);
      expect(await other.user()).toBeNull();
      expect((await browser().call((api) => api.signInWithPassword({ email, password: PASSWORD }))).error).not.toBeNull();
      expect((await browser().call((api) => api.signInWithPassword({ email, password: NEW_PASSWORD }))).error).toBeNull();
      if (name !== "supabase") expect(await sessionsOf(user.id)).toBe(2); // this browser's (renewed) and the last login's
    });

    it("resend: a fresh confirmation link, the older one stops working; the same answer for any address", async () => {
      const email = newEmail();
      const username = newUsername();
      const b = browser();
      await b.call((api) => api.signUp({ email, password: PASSWORD, username, emailRedirectTo: ctx.origin }));
      const resend = (address: string) =>
        b.call((api) => api.resend({ type: "signup", email: address, emailRedirectTo: ctx.origin }));
      const unconfirmed = await resend(email);
      expect(unconfirmed).toEqual({ error: null });
      const stranger = newEmail();
      expect(await resend(stranger)).toEqual(unconfirmed);
      expect(await ctx.mailsTo(stranger)).toEqual([]);

      const [old, fresh] = await links(email, "confirm");
      expect(fresh).toBeDefined();
      expect((await b.call((api) => api.verifyOtp(linkParams(old)), "/auth/confirm")).error).not.toBeNull();
      expect(await b.user()).toBeNull();
      // By username too (the account's email is looked up on the server).
      await b.call((api) => resendConfirmation(api, username, ctx.origin));
      const [, stale, newest] = await links(email, "confirm");
      expect((await b.call((api) => api.verifyOtp(linkParams(stale)), "/auth/confirm")).error).not.toBeNull();
      expect((await b.call((api) => api.verifyOtp(linkParams(newest)), "/auth/confirm")).error).toBeNull();
      expect((await b.user())?.email).toBe(email);

      // A confirmed address: the same answer, no email.
      expect(await resend(email)).toEqual(unconfirmed);
      await b.call((api) => resendConfirmation(api, username, ctx.origin));
      expect(await links(email, "confirm")).toHaveLength(3);
      await b.call((api) => resendConfirmation(api, "no_such_rebel_at_all", ctx.origin));
      if (ctx.fake) {
        const asks = ctx.fake.requestsTo("/auth/v1/resend", "POST");
        expect(asks[0].body).toMatchObject({ email, type: "signup" });
        expect(asks[0].query.redirect_to).toBe(ctx.origin);
      }
    });

    it("login before confirming: Email not confirmed, by email or by username with the right password", async () => {
      const email = newEmail();
      const username = newUsername();
      const b = browser();
      await b.call((api) => api.signUp({ email, password: PASSWORD, username, emailRedirectTo: ctx.origin }));
      const unconfirmed = { ok: false, message: "Email not confirmed", unconfirmed: true };
      expect(await b.call((api) => logIn(api, email, PASSWORD))).toEqual(unconfirmed);
      expect(await b.call((api) => logIn(api, username, PASSWORD))).toEqual(unconfirmed);
      // A wrong password: the email login's answer.
      expect(await b.call((api) => logIn(api, username, "wrong-password-99"))).toEqual({
        ok: false,
        message: "Invalid login credentials",
      });
      expect(await b.user()).toBeNull();
      expect(await b.call((api) => api.findAccountByUsername(username))).toEqual({
        account: { email, confirmed: false },
        error: null,
      });
      expect(await b.call((api) => api.findAccountByUsername(`${username}x`))).toEqual({ account: null, error: null });
      // Usernames ignore case (profiles_username_lower_key), and "_" is no wildcard.
      expect(await b.call((api) => api.findAccountByUsername(username.toUpperCase()))).toEqual({
        account: { email, confirmed: false },
        error: null,
      });
      expect(await b.call((api) => api.findAccountByUsername(username.replace("_", "x")))).toEqual({
        account: null,
        error: null,
      });

      // Once confirmed, a username login signs in.
      const { username: confirmed, user } = await signedInUser();
      const c = browser();
      expect(await c.call((api) => logIn(api, confirmed, PASSWORD))).toEqual({ ok: true });
      expect(await c.user()).toEqual(user);
      if (ctx.fake) {
        // The look-up goes through the service role, never the visitor's key.
        const [lookup] = ctx.fake.requestsTo("/rest/v1/profiles", "GET");
        expect(lookup.headers.authorization).toBe(`Bearer ${ctx.fake.serviceKey}`);
        expect(ctx.fake.requestsTo("/auth/v1/admin/users/", "GET").length).toBeGreaterThan(0);
      }
    });

    it.runIf(name === "supabase")("the PKCE form of the reset link (exchangeCodeForSession)", async () => {
      const { email, user } = await signedInUser();
      const b = browser();
      await forgot(b, email);
      // The code verifier cookie set when this browser asked travels with it.
      expect(b.jar.names().some((n) => n.endsWith("-auth-token-code-verifier"))).toBe(true);
      const mail = ctx.fake!.mailbox.filter((m) => m.to === email && m.type === "recovery").at(-1)!;
      const res = await fetch(mail.confirmationUrl, { redirect: "manual" });
      const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
      expect(code).toBeTruthy();
      expect(await openLink(b, new URL(`${resetTo()}?code=${code}`))).toEqual(user);
    });
  });

  // ---- Readiness -----------------------------------------------------------------------

  it("pendingMigrations(): none once migrated, a missing one by name (the SQL modes); null on Supabase", async () => {
    if (name === "supabase") {
      expect(await ctx.backend.pendingMigrations()).toBeNull();
      return;
    }
    expect(await ctx.backend.pendingMigrations()).toEqual([]);
    const last = migrationList().at(-1)!.name;
    await ctx.sql.query(`delete from mixtape_meta.migrations where name = $1`, [last]);
    try {
      expect(await ctx.backend.pendingMigrations()).toEqual([last]);
    } finally {
      await ctx.sql.query(`insert into mixtape_meta.migrations (name) values ($1)`, [last]);
    }
    expect(await ctx.backend.pendingMigrations()).toEqual([]);
  });

  // ---- Outage ------------------------------------------------------------------------

  it("an unreachable database: calls throw BackendUnavailableError, health() is false, nothing is half-written", async () => {
    const { browser: b, user, email } = await signedInUser();
    const kept = order(user.id);
    expect((await b.call((api) => api.insertOrder(kept))).error).toBeNull();
    expect(await ctx.backend.health()).toBe(true);

    if (!ctx.outage) {
      // PGlite lives in this process: it cannot become unreachable, only closed.
      await ctx.backend.close();
      expect(await ctx.backend.health()).toBe(false);
      return;
    }

    const lostEmail = newEmail();
    const lost = order(user.id);
    await ctx.outage.begin();
    try {
      expect(await ctx.backend.health()).toBe(false);
      const unavailable = async (fn: (api: BackendRequest) => Promise<unknown>) => {
        const api = ctx.backend.forRequest(b.request());
        await expect(fn(api)).rejects.toBeInstanceOf(BackendUnavailableError);
      };
      await unavailable((api) => api.getUser());
      await unavailable((api) => api.signInWithPassword({ email, password: PASSWORD }));
      await unavailable((api) =>
        api.signUp({ email: lostEmail, password: PASSWORD, username: newUsername(), emailRedirectTo: ctx.origin }),
      );
      await unavailable((api) => api.usernameExists("anyone"));
      await unavailable((api) => api.resetPasswordForEmail({ email, redirectTo: `${ctx.origin}/auth/reset` }));
      await unavailable((api) => api.resend({ type: "signup", email, emailRedirectTo: ctx.origin }));
      await unavailable((api) => api.updateUser({ password: "a-new-password-42" }));
      await unavailable((api) => api.findAccountByUsername("anyone"));
      await unavailable((api) => api.insertOrder(lost));
      await unavailable((api) => api.listOrders(user.id));
      // The services pass the outage on (the routes answer 503), never a wrong message.
      await unavailable((api) => logIn(api, email, PASSWORD));
      await unavailable((api) =>
        signUp(api, { username: newUsername(), email: lostEmail, password: PASSWORD, origin: ctx.origin }),
      );
    } finally {
      await ctx.outage.end();
    }

    expect(await ctx.backend.health()).toBe(true);
    expect(await ctx.accountExists(lostEmail)).toBe(false);
    expect(await ctx.mailsTo(lostEmail)).toEqual([]);
    expect(await ctx.ordersWithCode(lost.code)).toEqual([]);
    // What was there before is intact, and the session survived.
    expect(await b.user()).toEqual(user);
    expect((await b.call((api) => api.listOrders(user.id))).rows.map((r) => r.code)).toEqual([kept.code]);
  });

  // ---- Adapter-specific --------------------------------------------------------------

  it("the PKCE email link (exchangeCodeForSession)", async () => {
    const b = browser();
    const email = newEmail();
    await b.call(
      (api) => api.signUp({ email, password: PASSWORD, username: newUsername(), emailRedirectTo: ctx.origin }),
      "/auth",
    );
    if (!ctx.fake) {
      // The embedded auth sends token-hash links only; a ?code= link is refused.
      const { error } = await b.call((api) => api.exchangeCodeForSession("some-code"), "/auth/confirm");
      expect(error).toMatchObject({ code: "flow_state_not_found" });
      expect(await b.user()).toBeNull();
      return;
    }
    // Supabase: the code-verifier cookie set at sign-up travels with the browser.
    expect(b.jar.names().some((n) => n.endsWith("-auth-token-code-verifier"))).toBe(true);
    const mail = ctx.fake.mailbox.find((m) => m.to === email)!;
    const res = await fetch(mail.confirmationUrl, { redirect: "manual" });
    expect(res.status).toBe(303);
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    expect(code).toBeTruthy();
    const { error } = await b.call((api) => api.exchangeCodeForSession(code), `/auth/confirm?code=${code}`);
    expect(error).toBeNull();
    expect((await b.user())?.email).toBe(email);
    const [pkce] = ctx.fake.requestsTo("/auth/v1/token", "POST").filter((r) => r.query.grant_type === "pkce");
    expect(pkce.body).toMatchObject({ auth_code: code, code_verifier: expect.any(String) });
    // The code is single-use.
    const replay = await browser().call((api) => api.exchangeCodeForSession(code));
    expect(replay.error).not.toBeNull();
  });

  // Supabase runs the migrations with `supabase db push`; these are the embedded ones.
  it.runIf(name !== "supabase")("migrations: migrate() applies nothing the second time", async () => {
    expect(await migrate(ctx.sql)).toEqual([]);
    const { rows } = await ctx.sql.query<{ name: string }>(`select name from mixtape_meta.migrations order by name`);
    expect(rows.map((r) => r.name).sort()).toEqual(
      migrationList()
        .map((m) => m.name)
        .sort(),
    );
    expect(rows.map((r) => r.name)).toContain("db/shim.sql");
  });

  it.runIf(name === "pglite")("migrations: db/shim.sql first, then the other db files, then supabase/migrations", async () => {
    const names = migrationList().map((m) => m.name);
    expect(names[0]).toBe("db/shim.sql");
    const shims = names.filter((n) => n.startsWith("db/"));
    expect(names.slice(0, shims.length)).toEqual(shims);
    expect(shims.slice(1)).toEqual([...shims.slice(1)].sort());
    expect(shims).toContain("db/shim-20261126000000-email-requests.sql");
    expect(names.slice(shims.length).every((n) => n.startsWith("supabase/migrations/"))).toBe(true);
  });

  it.runIf(name === "pglite")(
    "a data dir from before the recovery shim takes it on start: recovery tokens then work",
    async () => {
      const db = await openPglite(undefined);
      try {
        // The recovery shim and every db file after it (a later one restates the token types).
        const later = (m: { name: string }) => m.name.startsWith("db/shim-") && m.name >= "db/shim-20261124000000-recovery.sql";
        const before = migrationList().filter((m) => !later(m));
        await migrate(db, before);
        const { rows } = await db.query<{ id: string }>(
          `insert into auth.users (email, encrypted_password) values ('old@example.test', 'x') returning id`,
        );
        const token = (hash: string) =>
          db.query(
            `insert into auth.one_time_tokens (token_hash, user_id, token_type, expires_at) values ($1, $2, 'recovery', now())`,
            [hash, rows[0].id],
          );
        await expect(token("a")).rejects.toThrow(/one_time_tokens_token_type_check/);
        expect(await migrate(db)).toEqual(
          migrationList()
            .filter(later)
            .map((m) => m.name),
        );
        await token("b");
      } finally {
        await db.close();
      }
    },
  );

  it.runIf(name === "postgres")("postgres: concurrent migrate() calls serialize on the advisory lock", async () => {
    // A fresh, empty database in the same cluster: two app processes start at once.
    const admin = ctx.sql;
    const dbName = `mixtape_empty_${unique()}`.toLowerCase();
    await admin.query(`create database ${dbName}`);
    const { rows } = await admin.query<{ port: string }>(`select current_setting('port') as port`);
    const url = `postgres://postgres@127.0.0.1:${rows[0].port}/${dbName}`;
    const [d1, d2] = [await openPostgres(url), await openPostgres(url)];
    try {
      const [a1, a2] = await Promise.all([migrate(d1), migrate(d2)]);
      const names = migrationList().map((m) => m.name);
      // One of them applied every migration, in order; the other waited and found nothing to do.
      expect([a1, a2].find((a) => a.length > 0)).toEqual(names);
      expect([a1, a2].filter((a) => a.length === 0)).toHaveLength(1);
      expect(await migrate(d1)).toEqual([]);
    } finally {
      await d1.close();
      await d2.close();
    }
  });

  // ---- The order lifecycle ---------------------------------------------------------------

  describe("the order lifecycle", () => {
    const queue = (over: Partial<QueueRead> = {}): QueueRead => ({
      status: null,
      unpaid: false,
      late: false,
      code: null,
      newestFirst: false,
      limit: 50,
      offset: 0,
      ...over,
    });
    /** A shopper with two orders, a second shopper with one, and a mixer. */
    async function shop() {
      const alice = await signedInUser();
      const bob = await signedInUser();
      const mixerEmail = newEmail();
      await ctx.makeMixers([mixerEmail.toUpperCase()]); // matched case-insensitively
      const mixer = await signedInUser(newUsername(), mixerEmail);
      const a1 = order(alice.user.id);
      const b1 = order(bob.user.id);
      const a2 = order(alice.user.id);
      for (const [who, o] of [
        [alice, a1],
        [bob, b1],
        [alice, a2],
      ] as const) {
        expect((await who.browser.call((api) => api.insertOrder(o))).error).toBeNull();
      }
      return { alice, bob, mixer, a1, b1, a2 };
    }
    /** The order's money as the ledger's one rule derives it, read behind the app's back. */
    const moneyOf = async (code: string) =>
      readMoney(
        (await ctx.sql.query(`select public.order_money(m) as money from public.mixtapes m where m.code = $1`, [code])).rows[0]
          ?.money,
      );
    const statusOf = async (code: string) => {
      const [row] = await ctx.ordersWithCode(code);
      const { lines } = await moneyOf(code);
      return { status: row.status, paid: lines.length > 0, delivery_url: row.delivery_url, mixer_message: row.mixer_message };
    };
    type Who = { browser: Browser };
    const mark = (
      who: Who,
      code: string,
      kind: "payment" | "refund",
      amount: number,
      currency = "USD",
      token = crypto.randomUUID(),
    ) => who.browser.call((api) => api.markMoney(code, { kind, amount, currency, token }));

    it("a mixer's queue holds every order with its shopper, oldest unfinished first; a shopper's only their own", async () => {
      const { alice, bob, mixer, a1, b1, a2 } = await shop();
      const { rows, error } = await mixer.browser.call((api) => api.listQueue(queue()));
      expect(error).toBeNull();
      expect(rows.map((r) => r.code)).toEqual([a1.code, b1.code, a2.code]);
      expect(rows[1]).toMatchObject({ username: bob.username, email: bob.email, status: "received" });
      expect(readOrderRow(rows[0])).toMatchObject({ code: a1.code, status: "received", paid: false, tracks: a1.tracks });
      const own = await alice.browser.call((api) => api.listQueue(queue()));
      expect(own.rows.map((r) => r.code)).toEqual([a1.code, a2.code]);
      // Filters, search and pages.
      await mixer.browser.call((api) => api.updateOrder(b1.code, { to: "mixing" }));
      expect(await mark(mixer, a2.code, "payment", 1000)).toEqual({ outcome: "paid", error: null });
      const codes = async (over: Partial<QueueRead>) =>
        (await mixer.browser.call((api) => api.listQueue(queue(over)))).rows.map((r) => r.code);
      expect(await codes({ status: "mixing" })).toEqual([b1.code]);
      expect(await codes({ status: "received" })).toEqual([a1.code, a2.code]);
      expect(await codes({ unpaid: true })).toEqual([a1.code, b1.code]);
      expect(await codes({ code: a2.code.slice(0, 5) })).toEqual([a2.code]);
      expect(await codes({ limit: 2, offset: 1 })).toEqual([b1.code, a2.code]);
      expect(await codes({ newestFirst: true })).toEqual([a2.code, b1.code, a1.code]);
    });

    it("an order moves forward once: start mixing, mark sent with a link and message, mark paid by hand; replays change nothing", async () => {
      const { mixer, a1 } = await shop();
      const change = (c: OrderChange) => mixer.browser.call((api) => api.updateOrder(a1.code, c));
      expect(await change({ to: "sent", deliveryUrl: null, message: null })).toEqual({ updated: false, error: null }); // not mixing yet
      expect(await change({ to: "mixing" })).toEqual({ updated: true, error: null });
      expect(await change({ to: "mixing" })).toEqual({ updated: false, error: null });
      expect(await statusOf(a1.code)).toMatchObject({ status: "mixing", paid: false });
      expect(await change({ to: "sent", deliveryUrl: "https://tapes.example/a1", message: "Loud, please." })).toEqual({
        updated: true,
        error: null,
      });
      expect(await change({ to: "sent", deliveryUrl: "https://tapes.example/other", message: "again" })).toEqual({
        updated: false,
        error: null,
      });
      const token = crypto.randomUUID();
      expect(await mark(mixer, a1.code, "payment", 1500, "USD", token)).toEqual({ outcome: "paid", error: null });
      expect(await mark(mixer, a1.code, "payment", 1500, "USD", token)).toEqual({ outcome: "duplicate", error: null });
      expect(await statusOf(a1.code)).toEqual({
        status: "sent",
        paid: true,
        delivery_url: "https://tapes.example/a1",
        mixer_message: "Loud, please.",
      });
    });

    it("a shopper's session can change no status and no payment, not even of their own order", async () => {
      const { alice, bob, a1, b1 } = await shop();
      for (const [who, code] of [
        [alice, a1.code],
        [alice, b1.code],
        [bob, a1.code],
      ] as const) {
        expect((await who.browser.call((api) => api.updateOrder(code, { to: "mixing" }))).updated).toBe(false);
        const marked = await mark(who, code, "payment", 1000);
        expect(marked.outcome).toBeNull();
        expect(marked.error?.code).toBe("42501");
      }
      expect((await mark({ browser: browser() }, a1.code, "payment", 1000)).outcome).toBeNull();
      expect(await statusOf(a1.code)).toMatchObject({ status: "received", paid: false });
      expect(await statusOf(b1.code)).toMatchObject({ status: "received", paid: false });
    });

    it("concurrent transitions: exactly one is applied", async () => {
      const { mixer, b1 } = await shop();
      const results = await Promise.all(
        [1, 2, 3].map(() => mixer.browser.call((api) => api.updateOrder(b1.code, { to: "mixing" }))),
      );
      expect(results.filter((r) => r.updated)).toHaveLength(1);
      expect(results.every((r) => r.error === null)).toBe(true);
      const token = crypto.randomUUID();
      const paid = await Promise.all([1, 2].map(() => mark(mixer, b1.code, "payment", 1000, "USD", token)));
      expect(paid.map((r) => r.outcome).sort()).toEqual(["duplicate", "paid"]);
    });

    it("order emails: each order queues the shopper's receipt and one per mixer; sent queues the shopper's note", async () => {
      const { mixer, alice, a1 } = await shop();
      const emails = ctx.backend.emails!;
      expect(emails).not.toBeNull();
      const claimed = await emails.claim(50);
      const forA1 = claimed.filter((e) => e.order.code === a1.code);
      expect(forA1.map((e) => [e.kind, e.recipient.toLowerCase()]).sort()).toEqual([
        ["new_order", mixer.email.toLowerCase()],
        ["received", alice.email.toLowerCase()],
      ]);
      expect(forA1[0].shopper).toEqual({ username: alice.username, email: alice.email });
      expect(readOrderRow(forA1[0].order)).toMatchObject({ code: a1.code, tracks: a1.tracks });
      for (const e of claimed) await emails.finish(e.id, null);
      expect(await emails.claim(50)).toEqual([]);
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }));
      await mixer.browser.call((api) =>
        api.updateOrder(a1.code, { to: "sent", deliveryUrl: "https://tapes.example/x", message: "Here" }),
      );
      const sent = await emails.claim(50);
      expect(sent.map((e) => [e.kind, e.recipient.toLowerCase(), e.order.code])).toEqual([
        ["sent", alice.email.toLowerCase(), a1.code],
      ]);
      expect(readOrderRow(sent[0].order)).toMatchObject({ delivery_url: "https://tapes.example/x", mixer_message: "Here" });
      // A failed send comes back only after its backoff.
      await emails.finish(sent[0].id, "SMTP refused");
      expect(await emails.claim(50)).toEqual([]);
    });

    // ---- The shop runs itself (issue 24) --------------------------------------------

    const settings = (over: Partial<ShopSettings> = {}): ShopSettings => ({
      open: true,
      closedMessage: "",
      maxOpenOrders: null,
      ...over,
    });
    /** Moves an order's placed time into the past, behind the app's back (triggers off). */
    const backdate = (code: string, days: number) =>
      ctx.sql.transaction(async (tx) => {
        await tx.query(`set local session_replication_role = replica`);
        await tx.query(`update public.mixtapes set created_at = now() - make_interval(days => $2) where code = $1`, [code, days]);
      });
    const kindsFor = async (code: string) =>
      (await ctx.backend.emails!.claim(100))
        .filter((e) => e.order.code === code)
        .map((e) => [e.kind, e.recipient.toLowerCase()])
        .sort();

    // ---- Money is a ledger (issue 35) ------------------------------------------------
    const line = (over: Partial<MoneyLine>): MoneyLine => ({
      currency: "USD",
      payments: 1,
      paid: 0,
      refunded: 0,
      refundedAll: false,
      disputed: 0,
      net: 0,
      due: 0,
      ...over,
    });
    const everything = { provider: null, filter: "all", limit: 1000, offset: 0 } as const;
    const stripePayment = (code: string | null, amount: number, reference = `pi_${unique()}`): PaymentEvent => ({
      provider: "stripe",
      eventId: `evt_${unique()}`,
      kind: "payment",
      code,
      amount,
      currency: "usd",
      reference,
    });
    /** Stripe's charge.refunded: the refunded total so far. */
    const stripeRefund = (reference: string, total: number): PaymentEvent => ({
      provider: "stripe",
      eventId: `evt_${unique()}`,
      kind: "refund",
      code: null,
      amount: total,
      currency: "usd",
      reference,
      runningTotal: true,
    });
    const checkoutEvent = (kind: "payment" | "refund", code: string, amount: number, reference: string): PaymentEvent => ({
      provider: "checkout",
      eventId: `msg_${unique()}`,
      kind,
      code,
      amount,
      currency: "USD",
      reference,
    });
    const dispute = (reference: string, id: string, status: string, amount = 1200): PaymentEvent => ({
      provider: "stripe",
      eventId: `evt_${unique()}`,
      kind: "dispute",
      code: null,
      amount,
      currency: "usd",
      reference,
      dispute: { id, status, reason: "fraudulent" },
    });
    /** Every order of these items (Heap's algorithm). */
    const orderings = <T>(items: T[]): T[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((x, i) => orderings([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));

    it("finding 1: a partial refund reads as partial, and a cancelled order is due the rest", async () => {
      const { mixer, a1 } = await shop();
      const paid = stripePayment(a1.code, 1200);
      expect(await ctx.backend.payments!.record(paid)).toBe("paid");
      expect(await ctx.backend.payments!.record(stripeRefund(paid.reference!, 100))).toBe("refunded");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 100, net: 1100, due: 0 })]);
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "cancelled", from: "received", reason: null }));
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 100, net: 1100, due: 1100 })]);
      const due = (await mixer.browser.call((api) => api.ledger({ ...everything, filter: "due" }))).rows;
      expect(due.map((r) => [r.order_code, r.kind, r.order_due])).toEqual([
        [a1.code, "refund", true],
        [a1.code, "payment", true],
      ]);
    });

    it("finding 2: a refund of some other payment, with this order's code, never refunds it and waits for the mixer", async () => {
      const { mixer, a1 } = await shop();
      expect(await ctx.backend.payments!.record(stripePayment(a1.code, 1500))).toBe("paid");
      const other: PaymentEvent = {
        provider: "lemonsqueezy",
        eventId: `order_refunded:${unique()}:100`,
        kind: "refund",
        code: a1.code,
        amount: 100,
        currency: "USD",
        reference: `77${seq}`,
        runningTotal: true,
      };
      expect(await ctx.backend.payments!.record(other)).toBe("unmatched");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1500, net: 1500 })]);
      const { rows } = await mixer.browser.call((api) => api.ledger({ ...everything, filter: "unmatched" }));
      expect(rows.find((r) => r.event_id === other.eventId)).toMatchObject({ kind: "refund", code: a1.code, order_code: null });
    });

    it("finding 3: every payment for one code is kept and counted; all but the first are due back until the mixer keeps one", async () => {
      const { alice, mixer, a1 } = await shop();
      const ledger = ctx.backend.payments!;
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => ledger.record(checkoutEvent("payment", a1.code, 1000, `pay-${a1.code}-${i}`))),
      );
      expect(outcomes.sort()).toEqual(["paid", ...Array(19).fill("paid_again")]);
      expect((await moneyOf(a1.code)).lines).toEqual([line({ payments: 20, paid: 20000, net: 20000, due: 19000 })]);
      const rows = (await mixer.browser.call((api) => api.ledger(everything))).rows.filter((r) => r.order_code === a1.code);
      expect(rows).toHaveLength(20);
      // The shopper hears of each payment.
      expect((await kindsFor(a1.code)).filter(([kind]) => kind === "paid")).toHaveLength(20);
      // A second tape, say: the mixer keeps one, and it is no longer due.
      const second = rows.find((r) => r.reference !== rows.at(-1)!.reference)!;
      expect(await mixer.browser.call((api) => api.keepPayment("checkout", String(second.event_id)))).toEqual({
        kept: true,
        error: null,
      });
      expect(await mixer.browser.call((api) => api.keepPayment("checkout", String(second.event_id)))).toEqual({
        kept: false,
        error: null,
      });
      expect((await alice.browser.call((api) => api.keepPayment("checkout", String(rows[0].event_id)))).kept).toBe(false);
      expect((await moneyOf(a1.code)).lines).toEqual([line({ payments: 20, paid: 20000, net: 20000, due: 18000 })]);
    });

    it("finding 4: a refund that arrives before its payment applies when the payment does", async () => {
      const { alice, a1 } = await shop();
      const ledger = ctx.backend.payments!;
      await ctx.backend.emails!.claim(100);
      expect(await ledger.record(checkoutEvent("refund", a1.code, 1000, `early-${a1.code}`))).toBe("unmatched");
      expect((await moneyOf(a1.code)).lines).toEqual([]);
      expect(await ledger.record(checkoutEvent("payment", a1.code, 1000, `early-${a1.code}`))).toBe("paid");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1000, refunded: 1000, net: 0 })]);
      expect(await kindsFor(a1.code)).toEqual([
        ["paid", alice.email.toLowerCase()],
        ["refunded", alice.email.toLowerCase()],
      ]);
    });

    it("events in every order, each replayed: two payments and partial refunds that add up to the whole give one answer", async () => {
      const { alice } = await shop();
      const ledger = ctx.backend.payments!;
      const place = async () => {
        const o = order(alice.user.id);
        expect((await alice.browser.call((api) => api.insertOrder(o))).error).toBeNull();
        return o.code;
      };
      // Stripe: its refunds carry the refunded total so far.
      for (const events of orderings(["p1", "p2", "r400", "r1000"])) {
        const code = await place();
        const [pi1, pi2] = [`pi_${unique()}`, `pi_${unique()}`];
        const made = {
          p1: stripePayment(code, 1000, pi1),
          p2: stripePayment(code, 1000, pi2),
          r400: stripeRefund(pi1, 400),
          r1000: stripeRefund(pi1, 1000),
        };
        for (const name of events) expect(await ledger.record(made[name as keyof typeof made])).not.toBe("duplicate");
        for (const name of events) expect(await ledger.record(made[name as keyof typeof made])).toBe("duplicate");
        expect((await moneyOf(code)).lines, events.join(" ")).toEqual([
          line({ payments: 2, paid: 2000, refunded: 1000, net: 1000 }),
        ]);
      }
      // A checkout's own refunds are each their own amount: 400 and 600 make the whole.
      for (const events of orderings(["p", "r400", "r600"])) {
        const code = await place();
        const ref = `inv-${unique()}`;
        const made = {
          p: checkoutEvent("payment", code, 1000, ref),
          r400: checkoutEvent("refund", code, 400, ref),
          r600: checkoutEvent("refund", code, 600, ref),
        };
        for (const name of [...events, ...events]) await ledger.record(made[name as keyof typeof made]);
        expect((await moneyOf(code)).lines, events.join(" ")).toEqual([line({ paid: 1000, refunded: 1000, net: 0 })]);
      }
    });

    it("a dispute takes the money back while it is open or lost, gives it back when won, whatever order its events come in", async () => {
      const { mixer, a1, a2 } = await shop();
      const ledger = ctx.backend.payments!;
      const won = stripePayment(a1.code, 1200);
      const lost = stripePayment(a2.code, 1200);
      expect(await ledger.record(won)).toBe("paid");
      expect(await ledger.record(lost)).toBe("paid");
      const dpWon = `dp_${unique()}`;
      const dpLost = `dp_${unique()}`;
      expect(await ledger.record(dispute(won.reference!, dpWon, "needs_response"))).toBe("disputed");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, disputed: 1200, net: 0 })]);
      expect((await moneyOf(a1.code)).movements.at(-1)).toMatchObject({
        kind: "dispute",
        status: "needs_response",
        reason: "fraudulent",
      });
      expect(await ledger.record(dispute(won.reference!, dpWon, "won"))).toBe("disputed");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, net: 1200 })]);
      // Closed first, then the late "created": the closing word stands.
      expect(await ledger.record(dispute(lost.reference!, dpLost, "lost"))).toBe("disputed");
      expect(await ledger.record(dispute(lost.reference!, dpLost, "needs_response"))).toBe("disputed");
      expect((await moneyOf(a2.code)).lines).toEqual([line({ paid: 1200, disputed: 1200, net: 0 })]);
      const rows = (await mixer.browser.call((api) => api.ledger(everything))).rows.filter((r) => r.kind === "dispute");
      expect(rows.map((r) => r.dispute_status).sort()).toEqual(["lost", "needs_response", "needs_response", "won"]);
    });

    it("finding 7: at most 10 messages per order and side in 10 minutes; each recipient gets one email, later ones gathered", async () => {
      const { alice, mixer, a1 } = await shop();
      const orderId = String((await ctx.ordersWithCode(a1.code))[0].id);
      const say = (who: Who, fromMixer: boolean, body: string) =>
        who.browser.call((api) => api.postMessage({ orderId, fromMixer, body }));
      const emails = ctx.backend.emails!;
      await emails.claim(100); // the order's own emails
      // The first message goes out at once; the shopper's reply window is their own, the mixer's too.
      expect((await say(alice, false, "First")).error).toBeNull();
      expect((await say(mixer, true, "Hi")).error).toBeNull();
      const first = (await emails.claim(100)).filter((e) => e.kind === "message");
      expect(first.map((e) => [e.recipient.toLowerCase(), e.messages.map((m) => m.body)]).sort()).toEqual(
        [
          [alice.email.toLowerCase(), ["Hi"]],
          [mixer.email.toLowerCase(), ["First"]],
        ].sort(),
      );
      for (const e of first) await emails.finish(e.id, null);
      // A flood: nine more are stored (ten in ten minutes), the rest refused; none is emailed before the window ends.
      const sent = await Promise.all(Array.from({ length: 14 }, (_, i) => say(alice, false, `Flood ${i}`)));
      expect(sent.filter((r) => r.id !== null)).toHaveLength(9);
      expect(sent.filter((r) => r.error?.code === TOO_MANY_MESSAGES)).toHaveLength(5);
      expect((await say(mixer, true, "Still there")).error).toBeNull();
      expect((await emails.claim(100)).filter((e) => e.kind === "message")).toEqual([]);
      await ctx.sql.query(`update public.order_emails set next_attempt_at = now() where sent_at is null and kind = 'message'`);
      const later = (await emails.claim(100)).filter((e) => e.kind === "message");
      expect(later.map((e) => [e.recipient.toLowerCase(), e.messages.length]).sort()).toEqual(
        [
          [alice.email.toLowerCase(), 1],
          [mixer.email.toLowerCase(), 9],
        ].sort(),
      );
      const toMixer = later.find((e) => e.recipient.toLowerCase() === mixer.email.toLowerCase())!;
      expect(orderEmail(toMixer).text).toContain(`wrote 9 messages about order ${a1.code}:`);
    });

    it("shop settings: anyone reads them, only a mixer changes them; a closed shop refuses new orders, the deck kept", async () => {
      const { alice, mixer } = await shop();
      expect((await browser().call((api) => api.shopSettings())).settings).toEqual(settings());
      expect((await alice.browser.call((api) => api.shopStatus())).status).toEqual({
        open: true,
        closedMessage: "",
        full: false,
      });
      const refused = await alice.browser.call((api) => api.saveShopSettings(settings({ open: false })));
      expect(refused.saved).toBe(false);
      const closed = settings({ open: false, closedMessage: "Back on Monday 🎧" });
      expect(await mixer.browser.call((api) => api.saveShopSettings(closed))).toEqual({ saved: true, error: null });
      expect((await browser().call((api) => api.shopSettings())).settings).toEqual(closed);
      expect((await alice.browser.call((api) => api.shopStatus())).status).toEqual({
        open: false,
        closedMessage: "Back on Monday 🎧",
        full: false,
      });
      const deck = deckFor(alice.user.id, newCode());
      const outcome = await alice.browser.call((api) => transmitOrder(api, alice.user.id, deck, deck.code!));
      expect(outcome).toEqual({ ok: false, status: 409, title: SHOP_COPY.closed, message: "Back on Monday 🎧" });
      expect(await ctx.ordersWithCode(deck.code!)).toHaveLength(0);
      await mixer.browser.call((api) => api.saveShopSettings(settings()));
      expect(await alice.browser.call((api) => transmitOrder(api, alice.user.id, deck, deck.code!))).toEqual({
        ok: true,
        repeat: false,
      });
    });

    it("a full shop: 20 transmits at once for the last 3 places store exactly 3 orders; the others are told the queue is full", async () => {
      const { mixer } = await shop(); // 3 open orders
      await mixer.browser.call((api) => api.saveShopSettings(settings({ maxOpenOrders: 6 })));
      const shoppers = await Promise.all(Array.from({ length: 20 }, () => signedInUser()));
      const decks = shoppers.map((s) => deckFor(s.user.id, newCode()));
      const outcomes = await Promise.all(
        shoppers.map((s, i) => s.browser.call((api) => transmitOrder(api, s.user.id, decks[i], decks[i].code!))),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(3);
      expect(outcomes.filter((o) => !o.ok)).toEqual(
        Array(17).fill({ ok: false, status: 409, title: SHOP_COPY.full, message: SHOP_COPY.fullText }),
      );
      let stored = 0;
      for (const d of decks) stored += (await ctx.ordersWithCode(d.code!)).length;
      expect(stored).toBe(3);
      expect((await browser().call((api) => api.shopStatus())).status?.full).toBe(true);
      // A repeat of a transmit that went through is still a success, full or not.
      const winner = outcomes.findIndex((o) => o.ok);
      expect(
        await shoppers[winner].browser.call((api) =>
          transmitOrder(api, shoppers[winner].user.id, decks[winner], decks[winner].code!),
        ),
      ).toEqual({ ok: true, repeat: true });
    });

    it("a shopper cancels their own order while it is received, and nothing else; the mixers are told", async () => {
      const { alice, bob, mixer, a1, a2, b1 } = await shop();
      await ctx.backend.emails!.claim(100);
      const cancel = { to: "cancelled", from: "received", reason: null } as const;
      expect((await bob.browser.call((api) => api.updateOrder(a1.code, cancel))).updated).toBe(false);
      expect((await browser().call((api) => api.updateOrder(a1.code, cancel))).updated).toBe(false);
      expect(await alice.browser.call((api) => api.updateOrder(a1.code, cancel))).toEqual({ updated: true, error: null });
      expect(await alice.browser.call((api) => api.updateOrder(a1.code, cancel))).toEqual({ updated: false, error: null });
      const [row] = await ctx.ordersWithCode(a1.code);
      expect(readOrderRow(row)).toMatchObject({ status: "cancelled", cancelled_by_shopper: true, cancel_reason: null });
      expect(await kindsFor(a1.code)).toEqual([["cancelled", mixer.email.toLowerCase()]]);
      // Once mixing, only the mixer cancels; a shopper cannot reach anything else either.
      await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "mixing" }));
      expect((await alice.browser.call((api) => api.updateOrder(a2.code, { ...cancel, from: "mixing" }))).updated).toBe(false);
      expect((await alice.browser.call((api) => api.updateOrder(b1.code, cancel))).updated).toBe(false);
      expect((await mark(alice, a2.code, "refund", 100)).outcome).toBeNull();
      expect(await statusOf(a2.code)).toMatchObject({ status: "mixing" });
    });

    it("a cancel racing Start Mixing: exactly one wins", async () => {
      const { alice, mixer, a1 } = await shop();
      const [cancelled, started] = await Promise.all([
        alice.browser.call((api) => api.updateOrder(a1.code, { to: "cancelled", from: "received", reason: null })),
        mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" })),
      ]);
      expect([cancelled.updated, started.updated].filter(Boolean)).toHaveLength(1);
      expect(["cancelled", "mixing"]).toContain((await statusOf(a1.code)).status);
    });

    it("the mixer cancels a paid order with a reason: all of it is due, then Mark Refunded with an amount; the shopper is told each step", async () => {
      const { alice, mixer, b1, a1 } = await shop();
      expect((await mark(mixer, a1.code, "payment", 1200)).outcome).toBe("paid");
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }));
      await ctx.backend.emails!.claim(100);
      const cancel = { to: "cancelled", from: "mixing", reason: "Out of tape, sorry" } as const;
      expect((await mixer.browser.call((api) => api.updateOrder(b1.code, cancel))).updated).toBe(false); // b1 is received
      expect(await mixer.browser.call((api) => api.updateOrder(a1.code, cancel))).toEqual({ updated: true, error: null });
      const row = readOrderRow((await ctx.ordersWithCode(a1.code))[0])!;
      expect(row).toMatchObject({ status: "cancelled", cancel_reason: "Out of tape, sorry", cancelled_by_shopper: false });
      expect(await kindsFor(a1.code)).toEqual([["cancelled", alice.email.toLowerCase()]]);
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, net: 1200, due: 1200 })]);
      // More than is left is refused; a part, then the rest; a replayed form once.
      expect((await mark(mixer, a1.code, "refund", 1300)).outcome).toBe("over");
      const token = crypto.randomUUID();
      expect((await mark(mixer, a1.code, "refund", 200, "USD", token)).outcome).toBe("refunded");
      expect((await mark(mixer, a1.code, "refund", 200, "USD", token)).outcome).toBe("duplicate");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 200, net: 1000, due: 1000 })]);
      expect((await mark(mixer, a1.code, "refund", 1000)).outcome).toBe("refunded");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 1200, net: 0, due: 0 })]);
      expect((await kindsFor(a1.code)).sort()).toEqual([
        ["refunded", alice.email.toLowerCase()],
        ["refunded", alice.email.toLowerCase()],
      ]);
      expect((await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }))).updated).toBe(false);
      // The ledger says who marked each row by hand.
      const { rows } = await mixer.browser.call((api) => api.ledger({ provider: "manual", filter: "all", limit: 10, offset: 0 }));
      const mine = rows.filter((r) => r.order_code === a1.code);
      expect(mine.map((r) => [r.kind, r.amount, r.marked_by])).toEqual([
        ["refund", 1000, mixer.username],
        ["refund", 200, mixer.username],
        ["payment", 1200, mixer.username],
      ]);
    });

    it("payment events: recorded once (replays and concurrent duplicates), amount and provider kept, the shopper emailed", async () => {
      const { alice, mixer, a1 } = await shop();
      const ledger = ctx.backend.payments!;
      expect(ledger).not.toBeNull();
      await ctx.backend.emails!.claim(100);
      const paid = stripePayment(a1.code.toLowerCase(), 1200);
      const outcomes = await Promise.all([ledger.record(paid), ledger.record(paid), ledger.record(paid)]);
      expect(outcomes.sort()).toEqual(["duplicate", "duplicate", "paid"]);
      expect(await ledger.record(paid)).toBe("duplicate");
      // The same payment told by another event is still one payment.
      expect(await ledger.record({ ...paid, eventId: `evt_${unique()}` })).toBe("duplicate");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, net: 1200 })]);
      expect((await moneyOf(a1.code)).movements).toEqual([
        expect.objectContaining({ kind: "payment", provider: "stripe", amount: 1200 }),
      ]);
      expect(await kindsFor(a1.code)).toEqual([["paid", alice.email.toLowerCase()]]);
      const refund = stripeRefund(paid.reference!, 1200);
      expect(await ledger.record(refund)).toBe("refunded");
      expect(await ledger.record(refund)).toBe("duplicate");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 1200, net: 0 })]);
      expect(await kindsFor(a1.code)).toEqual([["refunded", alice.email.toLowerCase()]]);
      // A shopper reads their own order's rows, nobody else's; the mixer reads every row.
      expect((await alice.browser.call((api) => api.ledger(everything))).rows.map((r) => r.order_code)).toEqual([
        a1.code,
        a1.code,
      ]);
      const seen = (await mixer.browser.call((api) => api.ledger(everything))).rows;
      expect(seen.filter((r) => r.order_code === a1.code)).toHaveLength(2);
    });

    it("a payment for no known code is kept and listed; the mixer attaches it to an order, once, and its refund follows it", async () => {
      const { alice, mixer, b1 } = await shop();
      const ledger = ctx.backend.payments!;
      const stray: PaymentEvent = {
        provider: "checkout",
        eventId: `msg_${unique()}`,
        kind: "payment",
        code: "NOPE1234",
        amount: 800,
        currency: "USD",
        reference: `ref-${unique()}`,
      };
      expect(await ledger.record(stray)).toBe("unmatched");
      expect(await ledger.record({ ...stray, kind: "refund", eventId: `msg_${unique()}`, amount: 300, code: null })).toBe(
        "unmatched",
      );
      const unmatched = { ...everything, filter: "unmatched" as const };
      const { rows } = await mixer.browser.call((api) => api.ledger(unmatched));
      // Two rows of the same instant may come in either order: compared as a set.
      const mine = rows.filter((r) => r.reference === stray.reference).map((r) => [r.kind, r.code, r.amount]);
      expect(mine.sort()).toEqual([
        ["payment", "NOPE1234", 800],
        ["refund", null, 300],
      ]);
      expect((await alice.browser.call((api) => api.attachPayment("checkout", stray.eventId, b1.code))).outcome).toBeNull();
      expect((await mixer.browser.call((api) => api.attachPayment("checkout", stray.eventId, "ZZZZ9999"))).outcome).toBe(
        "no_order",
      );
      expect((await mixer.browser.call((api) => api.attachPayment("checkout", stray.eventId, b1.code))).outcome).toBe("attached");
      expect((await mixer.browser.call((api) => api.attachPayment("checkout", stray.eventId, b1.code))).outcome).toBe("gone");
      expect((await moneyOf(b1.code)).lines).toEqual([line({ paid: 800, refunded: 300, net: 500 })]);
      const left = (await mixer.browser.call((api) => api.ledger(unmatched))).rows.map((r) => r.reference);
      expect(left).not.toContain(stray.reference);
    });

    it("late orders: due 5 days after placing; the Late filter lists open ones past due, oldest first", async () => {
      const { mixer, a1, b1, a2 } = await shop();
      await backdate(a1.code, 7);
      await backdate(b1.code, 6);
      await backdate(a2.code, 8);
      await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "mixing" }));
      await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "sent", deliveryUrl: null, message: null }));
      const late = await mixer.browser.call((api) => api.listQueue(queue({ late: true })));
      expect(late.rows.map((r) => r.code)).toEqual([a1.code, b1.code]);
      await mixer.browser.call((api) => api.updateOrder(b1.code, { to: "cancelled", from: "received", reason: null }));
      expect((await mixer.browser.call((api) => api.listQueue(queue({ late: true })))).rows.map((r) => r.code)).toEqual([
        a1.code,
      ]);
      // Sent and cancelled orders sort after the open ones.
      const all = (await mixer.browser.call((api) => api.listQueue(queue()))).rows.map((r) => r.code);
      expect(all[0]).toBe(a1.code);
    });
  });

  // ---- The shopper owns the account (issue 26) ----------------------------------------

  describe("the shopper owns the account", () => {
    const idOf = async (code: string) =>
      (await ctx.sql.query<{ id: string }>(`select id::text as id from public.mixtapes where code = $1`, [code])).rows[0].id;
    /** A message on an order, written behind the app's back (issue 25 owns the writing). */
    const say = async (code: string, author: string, fromMixer: boolean, body: string) =>
      ctx.sql.query(`insert into public.order_messages (order_id, author_id, from_mixer, body) values ($1, $2, $3, $4)`, [
        await idOf(code),
        author,
        fromMixer,
        body,
      ]);
    const login = (email: string, password = PASSWORD) =>
      browser().call((api) => api.signInWithPassword({ email, password }), "/auth");
    /** Two shoppers with orders, messages and order emails, and a mixer who moved Alice's orders on. */
    async function shopWithHistory() {
      const alice = await signedInUser();
      const bob = await signedInUser();
      const mixerEmail = newEmail();
      await ctx.makeMixers([mixerEmail]);
      const mixer = await signedInUser(newUsername(), mixerEmail);
      const [paid, open, sent] = [order(alice.user.id), order(alice.user.id, { note: "Second tape" }), order(alice.user.id)];
      const theirs = order(bob.user.id, { note: "Bob's own words" });
      for (const [who, o] of [
        [alice, paid],
        [alice, open],
        [alice, sent],
        [bob, theirs],
      ] as const) {
        expect((await who.browser.call((api) => api.insertOrder(o))).error).toBeNull();
      }
      await ctx.backend.payments!.record({
        provider: "stripe",
        eventId: `evt_${unique()}`,
        kind: "payment",
        code: paid.code,
        amount: 1500,
        currency: "USD",
        reference: `pi_${unique()}`,
      });
      for (const c of [{ to: "mixing" }, { to: "sent", deliveryUrl: "https://tapes.example/s", message: "Enjoy" }] as const)
        await mixer.browser.call((api) => api.updateOrder(sent.code, c));
      await say(paid.code, alice.user.id, false, "Can you add a fade?");
      await say(paid.code, mixer.user.id, true, "Sure, fading it in.");
      await say(theirs.code, bob.user.id, false, "Bob's secret request");
      return { alice, bob, mixer, paid, open, sent, theirs };
    }

    it("download my data: exactly the shopper's rows, never a password hash or a session id", async () => {
      const { alice, bob, mixer, paid, open, sent, theirs } = await shopWithHistory();
      const file = await alice.browser.call((api) => exportAccount(api, alice.user), "/account/data");
      expect(file?.fileName).toBe(`mixtape-data-${alice.username}.json`);
      const doc = JSON.parse(file!.body);
      expect(doc.profile).toEqual({ username: alice.username, email: alice.email, createdAt: expect.any(String) });
      expect(doc.orders.map((o: { code: string }) => o.code)).toEqual([paid.code, open.code, sent.code]);
      const [first, second, third] = doc.orders;
      expect(first).toMatchObject({
        status: "received",
        codename: paid.codename,
        design: { id: "high-voltage", name: "high voltage" },
        tracks: paid.tracks.map((t, i) => ({ position: i + 1, id: t.id, title: t.title })),
        note: paid.note,
        payment: {
          paid: true,
          totals: [
            { currency: "USD", paid: "$15.00", refunded: "$0.00", net: "$15.00", netMinorUnits: 1500, refundDue: "$0.00" },
          ],
          movements: [
            { kind: "payment", via: "stripe", amount: "$15.00", amountMinorUnits: 1500, currency: "USD", at: expect.any(String) },
          ],
        },
        messages: [
          { from: "you", body: "Can you add a fade?", sentAt: expect.any(String) },
          { from: "the shop", body: "Sure, fading it in.", sentAt: expect.any(String) },
        ],
      });
      expect(first.options).toHaveLength(2);
      expect(second).toMatchObject({ note: "Second tape", payment: { paid: false }, messages: [] });
      expect(third).toMatchObject({ status: "sent", delivery: { link: "https://tapes.example/s", message: "Enjoy" } });
      expect(third.history).toMatchObject({ mixingAt: expect.any(String), sentAt: expect.any(String) });
      // The order emails to Alice's address, by subject, each about her own orders.
      const subjects = doc.emails.map((e: { subject: string }) => e.subject);
      expect(subjects).toEqual(
        expect.arrayContaining([
          `Your order ${paid.code} is in`,
          `Payment received for ${paid.code}`,
          `Message about ${paid.code}`,
          `Your tape is ready: ${sent.code}`,
        ]),
      );
      expect(subjects.every((subject: string) => [paid.code, open.code, sent.code].some((c) => subject.includes(c)))).toBe(true);
      expect(doc.emails[0]).toEqual({
        subject: expect.any(String),
        order: expect.any(String),
        queuedAt: expect.any(String),
        sentAt: null,
      });

      // Nothing of anyone else's, no secret of the account.
      const text = file!.body;
      for (const foreign of [theirs.code, "Bob's", bob.email, bob.username, bob.user.id, mixer.email, mixer.user.id])
        expect(text).not.toContain(foreign);
      expect(text).not.toMatch(/encrypted_password|scrypt|session|access_token|refresh_token/i);
      if (name !== "supabase") {
        const { rows } = await ctx.sql.query<{ id: string; encrypted_password: string }>(
          `select s.id, u.encrypted_password from auth.sessions s join auth.users u on u.id = s.user_id where u.id = $1`,
          [alice.user.id],
        );
        expect(rows.length).toBeGreaterThan(0);
        for (const r of rows) {
          expect(text).not.toContain(r.id);
          expect(text).not.toContain(r.encrypted_password);
        }
      }
      // A mixer reads every order under RLS; their own export still holds only their own rows.
      const own = JSON.parse((await mixer.browser.call((api) => exportAccount(api, mixer.user)))!.body);
      expect(own).toMatchObject({ profile: { email: mixer.email }, orders: [], emails: [] });
      // Signed out, there is nothing to export.
      expect((await browser().call((api) => api.exportData())).data).toBeNull();
    });

    it("delete my account: paid and sent orders stay anonymised, the received unpaid one is cancelled, the rest is removed", async () => {
      const { alice, bob, mixer, paid, open, sent, theirs } = await shopWithHistory();
      const other = browser();
      expect((await other.call((api) => api.signInWithPassword({ email: alice.email, password: PASSWORD }))).error).toBeNull();
      const oldCookie = alice.browser.jar.header();
      const [paidId, openId] = [await idOf(paid.code), await idOf(open.code)];
      await ctx.sql.query(
        `insert into public.order_reads (order_id, reader, read_at) values ($1, 'shopper', now()), ($1, 'mixer', now())
         on conflict (order_id, reader) do nothing`,
        [paidId],
      );
      await ctx.backend.emails!.claim(100);

      // The password is checked first: a wrong one changes nothing.
      expect(await alice.browser.call((api) => deleteAccount(api, alice.user, "not-my-password-9"), "/account")).toEqual({
        ok: false,
        message: ACCOUNT_COPY.wrongCurrentPassword,
      });
      expect(await ctx.accountExists(alice.email)).toBe(true);
      expect(await other.user()).toEqual(alice.user);

      expect(await alice.browser.call((api) => deleteAccount(api, alice.user, PASSWORD), "/account")).toEqual({ ok: true });
      // Every browser of the account is out, this one's cookie cleared, an old cookie refused.
      expect(await alice.browser.user()).toBeNull();
      expect(await other.user()).toBeNull();
      expect(await browser().user(oldCookie)).toBeNull();
      expect((await login(alice.email)).error?.message).toBe("Invalid login credentials");

      // The account, its profile, sessions, links and conversations are gone.
      expect(await ctx.accountExists(alice.email)).toBe(false);
      const count = async (sql: string, params: unknown[]) => (await ctx.sql.query<{ n: number }>(sql, params)).rows[0].n;
      expect(await count(`select count(*)::int as n from public.profiles where id = $1`, [alice.user.id])).toBe(0);
      expect(await count(`select count(*)::int as n from public.mixtapes where user_id = $1`, [alice.user.id])).toBe(0);
      expect(
        await count(`select count(*)::int as n from public.order_messages where order_id in ($1, $2)`, [paidId, openId]),
      ).toBe(0);
      expect(
        await count(`select count(*)::int as n from public.order_emails where lower(recipient) = lower($1)`, [alice.email]),
      ).toBe(0);
      expect(
        await count(`select count(*)::int as n from public.order_reads where order_id = $1 and reader = 'shopper'`, [paidId]),
      ).toBe(0);
      expect(
        await count(`select count(*)::int as n from public.order_reads where order_id = $1 and reader = 'mixer'`, [paidId]),
      ).toBe(1);
      // Her messages are gone, so nothing of hers is left unread in the console.
      expect(await count(`select coalesce(sum(unread), 0)::int as n from public.order_reads where order_id = $1`, [paidId])).toBe(
        0,
      );
      if (name !== "supabase") {
        for (const table of ["auth.sessions", "auth.one_time_tokens", "auth.email_requests"])
          expect(await count(`select count(*)::int as n from ${table} where user_id = $1`, [alice.user.id])).toBe(0);
      }

      // The books keep every order, anonymised: code, tracks, options, amounts and dates; no note, no shopper.
      const kept = async (code: string) => readOrderRow((await ctx.ordersWithCode(code))[0])!;
      const [paidRow] = await ctx.ordersWithCode(paid.code);
      expect(paidRow).toMatchObject({ user_id: null, note: "" });
      expect((await kept(paid.code)).money.lines).toEqual([expect.objectContaining({ currency: "USD", paid: 1500, net: 1500 })]);
      expect(await kept(paid.code)).toMatchObject({
        tracks: paid.tracks,
        toggles: paid.toggles,
        design_id: paid.design_id,
        status: "received",
      });
      expect(await kept(sent.code)).toMatchObject({ status: "sent", note: "", delivery_url: "https://tapes.example/s" });
      expect(await kept(open.code)).toMatchObject({ status: "cancelled", note: "", cancelled_by_shopper: true, paid: false });
      // The console shows "Deleted account"; the mixers were told of the cancel.
      const { rows } = await mixer.browser.call((api) =>
        api.listQueue({ status: null, unpaid: false, late: false, code: null, newestFirst: false, limit: 50, offset: 0 }),
      );
      const shown = rows.filter((r) => [paid.code, open.code, sent.code].includes(String(r.code)));
      expect(shown).toHaveLength(3);
      for (const r of shown)
        expect(shopperName(r, { username: (r.username as string) ?? null, email: (r.email as string) ?? null })).toBe(
          "Deleted account",
        );
      const told = (await ctx.backend.emails!.claim(100)).filter((e) => e.order.code === open.code);
      expect(told.map((e) => [e.kind, e.recipient.toLowerCase()])).toEqual([["cancelled", mixer.email.toLowerCase()]]);
      expect(orderEmail(told[0]).text).toContain(`Deleted account cancelled order ${open.code}.`);
      // A last email to the address says so.
      expect((await ctx.mailsTo(alice.email)).map((m) => m.subject)).toContain(
        "Your account at Underground Mixtape Shop is deleted",
      );

      // Bob's order and conversation are untouched.
      expect(readOrderRow((await ctx.ordersWithCode(theirs.code))[0])).toMatchObject({
        note: "Bob's own words",
        status: "received",
      });
      expect(
        await count(`select count(*)::int as n from public.order_messages where order_id = $1`, [await idOf(theirs.code)]),
      ).toBe(1);
      expect(await bob.browser.user()).toEqual(bob.user);

      // The address and the username are free again.
      const again = await signedInUser(alice.username, alice.email);
      expect(again.user.id).not.toBe(alice.user.id);
      expect((await again.browser.call((api) => api.listOrders(again.user.id))).rows).toEqual([]);
    });

    it.runIf(name === "supabase")("delete without the service role key: not configured, and nothing is deleted", async () => {
      const { email } = await signedInUser();
      const keyless = createSupabaseBackend({ url: ctx.fake!.url, anonKey: ctx.fake!.anonKey });
      const b = new Browser(keyless, ctx.origin);
      expect((await b.call((api) => api.signInWithPassword({ email, password: PASSWORD }))).error).toBeNull();
      const user = (await b.user())!;
      expect(await b.call((api) => api.deleteUser())).toMatchObject({ error: { code: NOT_CONFIGURED } });
      expect(await b.call((api) => deleteAccount(api, user, PASSWORD))).toEqual({
        ok: false,
        message: OWN_ACCOUNT_COPY.deleteNotConfigured,
      });
      expect(await ctx.accountExists(email)).toBe(true);
      expect(await b.user()).toEqual(user);
      expect(ctx.fake!.requestsTo("/auth/v1/admin/users/", "DELETE")).toEqual([]);
    });

    it("change email: pending until the link is opened; the old address works until then; another account's address gets the same answer", async () => {
      const alice = await signedInUser();
      const bob = await signedInUser();
      const next = newEmail();
      const change = (newAddress: string, currentPassword = PASSWORD) =>
        alice.browser.call(
          (api) => requestEmailChange(api, alice.user, { newEmail: newAddress, currentPassword }, ctx.origin),
          "/account",
        );
      const pending = () => alice.browser.call((api) => api.pendingEmail());

      expect(await change(next, "not-my-password-9")).toEqual({ ok: false, message: ACCOUNT_COPY.wrongCurrentPassword });
      expect(await change(alice.email.toUpperCase())).toEqual({ ok: false, message: OWN_ACCOUNT_COPY.sameEmail });
      // Bob's address: the same answer as any other, and Bob hears nothing.
      expect(await change(bob.email)).toEqual({ ok: true });
      expect((await ctx.mailsTo(bob.email)).filter((m) => m.link?.pathname === "/account/email")).toEqual([]);
      expect(await change(next)).toEqual({ ok: true });
      expect((await pending()).email).toBe(next);

      // Until the link is opened, the old address logs in and recovers; the new one does neither.
      expect((await login(alice.email)).error).toBeNull();
      expect((await login(next)).error?.message).toBe("Invalid login credentials");
      expect(await alice.browser.user()).toMatchObject({ email: alice.email });
      await browser().call((api) => api.resetPasswordForEmail({ email: alice.email, redirectTo: `${ctx.origin}/auth/reset` }));
      const reset = (await ctx.mailsTo(alice.email)).filter((m) => m.link?.pathname === "/auth/reset");
      expect(reset).toHaveLength(1);

      // The link to the new address (single use, hashed); the old address is told (Supabase: its own link).
      const toNew = (await ctx.mailsTo(next)).filter((m) => m.link?.pathname === "/account/email");
      expect(toNew).toHaveLength(1);
      const link = toNew[0].link!;
      expect(link.origin).toBe(ctx.origin);
      expect(link.searchParams.get("type")).toBe("email_change");
      const opener = browser();
      const open = (l: URL) => opener.call((api) => confirmEmailChange(api, l.searchParams), "/account/email");
      if (name === "supabase") {
        const toOld = (await ctx.mailsTo(alice.email)).filter((m) => m.link?.pathname === "/account/email");
        expect(toOld).toHaveLength(1);
        expect(await open(link)).toBe("halfway");
        expect((await login(alice.email)).error).toBeNull(); // still the old address
        expect(await open(toOld[0].link!)).toBe("done");
        const [put] = ctx.fake!.requestsTo("/auth/v1/user", "PUT").filter((r) => (r.body as { email?: string }).email === next);
        expect(put.query.redirect_to).toBe(`${ctx.origin}/account/email`);
      } else {
        const notice = (await ctx.mailsTo(alice.email)).map((m) => m.subject);
        expect(notice.filter((s) => s === "Your email at Underground Mixtape Shop is about to change")).toHaveLength(2);
        const token = link.searchParams.get("token_hash")!;
        const { rows } = await ctx.sql.query<{ token_hash: string; seconds: number }>(
          `select token_hash, extract(epoch from expires_at - created_at)::int as seconds
             from auth.one_time_tokens where user_id = $1 and token_type = 'email_change'`,
          [alice.user.id],
        );
        expect(rows).toEqual([{ token_hash: sha256(token), seconds: 3600 }]);
        expect(await open(link)).toBe("done");
      }
      expect(await opener.user()).toEqual({ id: alice.user.id, email: next });
      expect(await open(link)).toBe("invalid"); // once

      // Now the new address is the account's, everywhere.
      expect((await login(next)).error).toBeNull();
      expect((await login(alice.email)).error?.message).toBe("Invalid login credentials");
      expect((await pending()).email).toBeNull();
      expect(await alice.browser.user()).toEqual({ id: alice.user.id, email: next });
      const { rows: profile } = await ctx.sql.query(`select email from public.profiles where id = $1`, [alice.user.id]);
      expect(profile).toEqual([{ email: next }]);
      if (name !== "supabase") {
        // Links mailed to the old address before the change stop working.
        expect(await browser().call((api) => openRecoveryLink(api, reset[0].link!.searchParams))).toBeNull();
      }
    });

    it("sign out everywhere else: every other session ends, the answer says how many, this browser stays", async () => {
      const { browser: mine, user, email } = await signedInUser();
      const others = [browser(), browser()];
      for (const b of others)
        expect((await b.call((api) => api.signInWithPassword({ email, password: PASSWORD }))).error).toBeNull();
      const { browser: bob, user: bobUser } = await signedInUser();

      const first = await mine.call((api) => signOutEverywhereElse(api), "/account");
      expect(first).toEqual({
        ok: true,
        message: name === "supabase" ? "Other sessions signed out." : "2 other sessions signed out.",
      });
      for (const b of others) expect(await b.user()).toBeNull();
      expect(await mine.user()).toEqual(user);
      expect(await bob.user()).toEqual(bobUser);
      const again = await mine.call((api) => signOutEverywhereElse(api), "/account");
      expect(again.message).toBe(name === "supabase" ? "Other sessions signed out." : "0 other sessions signed out.");
      expect(OWN_ACCOUNT_COPY.otherSessionsEnded(1)).toBe("1 other session signed out.");
      if (ctx.fake)
        expect(ctx.fake.requestsTo("/auth/v1/logout", "POST").map((r) => r.query.scope)).toEqual(["others", "others"]);
      // The old password still works: nothing else changed.
      expect((await login(email)).error).toBeNull();
    });
  });

  // ---- An order's conversation and the shop's insights (issue 25) -------------------
  describe("order conversations and insights", () => {
    /** Alice with two orders, Bob with one, and a mixer. */
    async function shop() {
      const alice = await signedInUser();
      const bob = await signedInUser();
      const mixerEmail = newEmail();
      await ctx.makeMixers([mixerEmail]);
      const mixer = await signedInUser(newUsername(), mixerEmail);
      const a1 = order(alice.user.id);
      const a2 = order(alice.user.id, { design_id: null, tracks: [track("7")] });
      const b1 = order(bob.user.id);
      for (const [who, o] of [
        [alice, a1],
        [alice, a2],
        [bob, b1],
      ] as const) {
        expect((await who.browser.call((api) => api.insertOrder(o))).error).toBeNull();
      }
      const idOf = async (code: string) => String((await ctx.ordersWithCode(code))[0].id);
      return { alice, bob, mixer, a1, a2, b1, idOf };
    }
    type Who = Awaited<ReturnType<typeof signedInUser>>;
    const post = (who: Who | null, orderId: string, fromMixer: boolean, body: string) =>
      (who?.browser ?? browser()).call((api) => api.postMessage({ orderId, fromMixer, body }));
    const messagesIn = async (orderId: string) =>
      (await ctx.sql.query(`select body from public.order_messages where order_id = $1 order by id`, [orderId])).rows.map(
        (r) => r.body,
      );
    /** Unread messages for this side, per order code. */
    const unread = async (who: Who, side: Side) =>
      Object.fromEntries(
        (await who.browser.call((api) => api.unreadMessages(side))).rows.map(readUnreadRow).map((u) => [u!.code, u!.unread]),
      );
    /** Moves an order's recorded times into the past, behind the app's back (triggers off). */
    const backdate = (code: string, column: "created_at" | "sent_at" | "cancelled_at", days: number) =>
      ctx.sql.transaction(async (tx) => {
        await tx.query(`set local session_replication_role = replica`);
        await tx.query(`update public.mixtapes set ${column} = now() - make_interval(days => $2) where code = $1`, [code, days]);
      });

    it("only the order's shopper and the mixers read and write its messages; another shopper is refused and nothing is stored", async () => {
      const { alice, bob, mixer, a1, b1, idOf } = await shop();
      const id = await idOf(a1.code);
      const asked = await post(alice, id, false, "Can you add a shout-out for Sam?");
      expect(asked.error).toBeNull();
      expect(asked.id).toMatch(/^\d+$/);
      const answered = await post(mixer, id, true, "Which version of track 3?\nThe long one?");
      expect(answered.error).toBeNull();
      for (const reader of [alice, mixer]) {
        const { rows, error } = await reader.browser.call((api) => api.listMessages(id));
        expect(error).toBeNull();
        expect(rows.map(readMessageRow).map((m) => m && [m.id, m.fromMixer, m.body])).toEqual([
          [asked.id, false, "Can you add a shout-out for Sam?"],
          [answered.id, true, "Which version of track 3?\nThe long one?"],
        ]);
      }
      // Bob reads nothing of Alice's order and cannot write to it, as a shopper or posing as a mixer.
      expect(await bob.browser.call((api) => api.listMessages(id))).toEqual({ rows: [], error: null });
      for (const fromMixer of [false, true]) {
        const refused = await post(bob, id, fromMixer, "let me in");
        expect(refused.id).toBeNull();
        expect(refused.error?.code).toBe("42501");
      }
      // Alice cannot post as the mixer, nor a signed-out visitor at all.
      expect((await post(alice, id, true, "I am the DJ now")).error?.code).toBe("42501");
      const anonymous = await post(null, id, false, "hello?");
      expect(anonymous.id).toBeNull();
      expect(anonymous.error).not.toBeNull();
      expect((await browser().call((api) => api.listMessages(id))).rows).toEqual([]);
      expect(await messagesIn(id)).toEqual(["Can you add a shout-out for Sam?", "Which version of track 3?\nThe long one?"]);
      expect(await messagesIn(await idOf(b1.code))).toEqual([]);
      // The database refuses what the form refuses: control characters other than newlines, an empty or over-long text.
      for (const body of ["tab\there", "bell\u0007", "", "x".repeat(1001)]) {
        expect((await post(alice, id, false, body)).error?.code).toBe("23514");
      }
      expect((await post(alice, id, false, "🎧".repeat(1000))).error).toBeNull();
    });

    it("each message is emailed through the queue: the shopper's to every mixer, the mixer's to the shopper", async () => {
      const { alice, mixer, a1, idOf } = await shop();
      const emails = ctx.backend.emails!;
      await emails.claim(100); // the order emails
      const id = await idOf(a1.code);
      await post(alice, id, false, "Shout-out for Sam, please");
      await post(mixer, id, true, "Done!");
      const queued = (await emails.claim(100)).filter((e) => e.kind === "message");
      expect(queued.map((e) => [e.recipient.toLowerCase(), e.order.code, e.messages[0]?.fromMixer, e.messages[0]?.body])).toEqual(
        [
          [mixer.email.toLowerCase(), a1.code, false, "Shout-out for Sam, please"],
          [alice.email.toLowerCase(), a1.code, true, "Done!"],
        ],
      );
      expect(queued[0].shopper).toEqual({ username: alice.username, email: alice.email });
    });

    it("unread counts per side, and the read marks that clear them (each side only its own)", async () => {
      const { alice, bob, mixer, a1, a2, idOf } = await shop();
      const id = await idOf(a1.code);
      await post(alice, id, false, "one");
      await post(alice, id, false, "two");
      await post(alice, await idOf(a2.code), false, "three");
      expect(await unread(mixer, "mixer")).toEqual({ [a1.code]: 2, [a2.code]: 1 });
      expect(await unread(alice, "shopper")).toEqual({}); // her own messages
      expect(await unread(alice, "mixer")).toEqual({}); // not a mixer
      expect(await unread(bob, "mixer")).toEqual({});
      // Opening the order's page marks it read for that side only, and only for those on that side.
      expect(await bob.browser.call((api) => api.markOrderRead(a1.code, "shopper"))).toEqual({ marked: false, error: null });
      expect(await alice.browser.call((api) => api.markOrderRead(a1.code, "mixer"))).toEqual({ marked: false, error: null });
      expect(await mixer.browser.call((api) => api.markOrderRead("ZZZZ9999", "mixer"))).toEqual({ marked: false, error: null });
      expect(await unread(mixer, "mixer")).toEqual({ [a1.code]: 2, [a2.code]: 1 });
      expect(await mixer.browser.call((api) => api.markOrderRead(a1.code, "mixer"))).toEqual({ marked: true, error: null });
      expect(await unread(mixer, "mixer")).toEqual({ [a2.code]: 1 });
      // The mixer's reply: unread for Alice until she opens the order, for nobody else.
      await post(mixer, id, true, "Sure");
      expect(await unread(alice, "shopper")).toEqual({ [a1.code]: 1 });
      expect(await unread(bob, "shopper")).toEqual({});
      expect(await unread(mixer, "mixer")).toEqual({ [a2.code]: 1 });
      expect(await alice.browser.call((api) => api.markOrderRead(a1.code, "shopper"))).toEqual({ marked: true, error: null });
      expect(await unread(alice, "shopper")).toEqual({});
      // A new message after the mark counts again.
      await post(alice, id, false, "Thanks!");
      expect(await unread(mixer, "mixer")).toEqual({ [a1.code]: 1, [a2.code]: 1 });
      // Nobody writes read marks directly.
      await expect(
        ctx.sql.transaction(async (tx) => {
          await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`, [
            JSON.stringify({ sub: alice.user.id, role: "authenticated" }),
          ]);
          await tx.query(`insert into public.order_reads (order_id, reader) values ($1, 'mixer')`, [id]);
        }),
      ).rejects.toMatchObject({ code: "42501" });
    });

    it("the conversation closes 30 days after the order is sent or cancelled: nobody writes, everyone still reads", async () => {
      const { alice, mixer, a1, a2, idOf } = await shop();
      const sentId = await idOf(a1.code);
      const cancelledId = await idOf(a2.code);
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }));
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "sent", deliveryUrl: null, message: null }));
      await alice.browser.call((api) => api.updateOrder(a2.code, { to: "cancelled", from: "received", reason: null }));
      expect((await post(alice, sentId, false, "Got it, thanks")).error).toBeNull();
      await backdate(a1.code, "sent_at", 29);
      await backdate(a2.code, "cancelled_at", 29);
      expect((await post(mixer, sentId, true, "Enjoy")).error).toBeNull();
      expect((await post(alice, cancelledId, false, "Sorry!")).error).toBeNull();
      const row = async (code: string) => readOrderRow((await ctx.ordersWithCode(code))[0])!;
      expect(conversationOpen(await row(a1.code))).toBe(true);
      await backdate(a1.code, "sent_at", 31);
      await backdate(a2.code, "cancelled_at", 31);
      expect(conversationOpen(await row(a1.code))).toBe(false);
      expect(conversationOpen(await row(a2.code))).toBe(false);
      for (const [who, orderId, fromMixer] of [
        [alice, sentId, false],
        [mixer, sentId, true],
        [alice, cancelledId, false],
        [mixer, cancelledId, true],
      ] as const) {
        const refused = await post(who, orderId, fromMixer, "one more thing");
        expect(refused.error?.code).toBe("42501");
      }
      expect(await messagesIn(sentId)).toEqual(["Got it, thanks", "Enjoy"]);
      expect((await alice.browser.call((api) => api.listMessages(sentId))).rows).toHaveLength(2);
      // Through the service: the refusal says the conversation is closed, and nothing is stored.
      expect(
        await alice.browser.call((api) =>
          sendMessage(api, readOrderRow({ ...a1, id: sentId, status: "mixing" })!, "shopper", "hi"),
        ),
      ).toEqual({
        ok: false,
        status: 409,
        message: CONVERSATION_COPY.closed,
      });
      expect(await messagesIn(sentId)).toHaveLength(2);
    });

    it("insights: mixers only; orders per week with the cancelled apart, revenue per currency, songs, designs, turnaround, late", async () => {
      const { alice, bob, mixer, a1, a2, b1 } = await shop();
      for (const who of [alice, bob]) {
        const refused = await who.browser.call((api) => api.insights({ weeks: 12, dueDays: 5, turnaroundDays: 30 }));
        expect(refused.insights).toBeNull();
        expect(refused.error?.code).toBe("42501");
      }
      expect((await browser().call((api) => api.insights({ weeks: 12, dueDays: 5, turnaroundDays: 30 }))).insights).toBeNull();
      // a1: paid $12.00, sent 3 days after it was placed; a2: cancelled; b1: paid €9.00, placed 8 days ago, open (late).
      const ledger = ctx.backend.payments!;
      const paid = (code: string, amount: number, currency: string) =>
        ledger.record({
          provider: "checkout",
          eventId: `evt_${unique()}`,
          kind: "payment",
          code,
          amount,
          currency,
          reference: null,
        });
      expect(await paid(a1.code, 1200, "USD")).toBe("paid");
      expect(await paid(b1.code, 900, "EUR")).toBe("paid");
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }));
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "sent", deliveryUrl: null, message: null }));
      await backdate(a1.code, "created_at", 3);
      await alice.browser.call((api) => api.updateOrder(a2.code, { to: "cancelled", from: "received", reason: null }));
      await backdate(b1.code, "created_at", 8);
      const { insights: raw, error } = await mixer.browser.call((api) =>
        api.insights({ weeks: 12, dueDays: 5, turnaroundDays: 30 }),
      );
      expect(error).toBeNull();
      const got = readInsights(raw!);
      const monday = (d: Date) => {
        const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
        return new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * 86_400_000).toISOString();
      };
      const now = new Date();
      const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);
      expect(got.weeks).toHaveLength(12);
      expect(got.weeks.at(-1)!.week).toBe(monday(now));
      const expected = new Map<string, { orders: number; cancelled: number }>();
      for (const [at, cancelled] of [
        [ago(3), false],
        [now, true],
        [ago(8), false],
      ] as const) {
        const week = expected.get(monday(at)) ?? { orders: 0, cancelled: 0 };
        if (cancelled) week.cancelled++;
        else week.orders++;
        expected.set(monday(at), week);
      }
      for (const w of got.weeks)
        expect({ orders: w.orders, cancelled: w.cancelled }).toEqual(expected.get(w.week) ?? { orders: 0, cancelled: 0 });
      expect(got.revenue.map((r) => [r.currency, r.total, r.payments])).toEqual([
        ["EUR", 900, 1],
        ["USD", 1200, 1],
      ]);
      expect(got.revenue[1].weeks.at(-1)).toEqual({ week: monday(now), amount: 1200 });
      expect(got.songs.slice(0, 3).map((s) => [s.id, s.picks])).toEqual([
        ["1", 2],
        ["3", 2],
        ["30", 2],
      ]);
      expect(got.songs[3]).toEqual({ id: "7", title: findSong("7")!.title, picks: 1 });
      expect(got.designs.map((d) => [d.id, d.orders])).toEqual([
        ["high-voltage", 2],
        [null, 1],
      ]);
      expect(got.turnaround).toMatchObject({ sent: 1, over: 0, promise: 5 });
      expect(got.turnaround.median).toBeCloseTo(3, 1);
      expect(got.turnaround.p90).toBeCloseTo(3, 1);
      expect({ open: got.open, late: got.late }).toEqual({ open: 1, late: 1 });
    });
  });
});
