// The Backend port's contract, account recovery: reset links, new and changed passwords, resent
// confirmations; run against every adapter.
import "../../support/env";
import { describe, expect, it } from "vitest";
import { ACCOUNT_COPY } from "~/domain/copy-auth";
import {
  changePassword,
  inRecoveryWindow,
  logIn,
  openRecoveryLink,
  resendConfirmation,
  sendPasswordReset,
  setNewPassword,
} from "~/server/services/accounts.server";
import { PASSWORD_MESSAGES, sha256 } from "~/server/backend/passwords.server";
import { AUTH_MESSAGES, RECOVERY_TOKEN_SECONDS } from "~/server/backend/sql/auth.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { Browser } from "../../support/browser";
import { PASSWORD, newEmail, newUsername, linkParams, backendContract } from "../../support/backend-contract";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const { name, browser, signedInUser } = backendContract(harness, (fresh) => (ctx = fresh));

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
});
