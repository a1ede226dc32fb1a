// The Backend port's contract, accounts: sign-up and its confirmation link, login and logout,
// usernames and profiles; run against every adapter (tests/support/adapters.ts).
import "../../support/env";
import { describe, expect, it } from "vitest";
import { AUTH_COPY } from "~/domain/copy-auth";
import { displayName } from "~/domain/display-name";
import { logIn, signUp } from "~/server/services/accounts.server";
import { createSupabaseBackend } from "~/server/backend/supabase/index.server";
import { AUTH_MESSAGES } from "~/server/backend/sql/auth.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { Browser } from "../../support/browser";
import { PASSWORD, unique, newEmail, newUsername, linkParams, backendContract } from "../../support/backend-contract";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const { name, browser, signedInUser } = backendContract(harness, (fresh) => (ctx = fresh));

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
      // GoTrue reports the failed trigger as its 500, with its own words.
      expect(result.error).toMatchObject({ message: "Database error saving new user", status: 500 });
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
});
