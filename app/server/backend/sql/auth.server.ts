// The cookie holds only a random session id; email tokens are stored as SHA-256 only, single use.
import crypto from "node:crypto";
import type { BackendRequest, User } from "../port.server";
import { cookieStorage, readCookieData } from "../../platform/cookies.server";
import { getLog } from "../../platform/log.server";
import {
  accountDeletedMail,
  alreadyRegisteredMail,
  confirmationMail,
  emailChangeMail,
  emailChangeNoticeMail,
  recoveryMail,
  type Mailer,
} from "../../platform/mailer.server";
import { hashPassword, randomToken, sha256, verifyPassword } from "../passwords.server";
import { BackendUnavailableError } from "../port.server";
import { classify, isDbError, ownerQuery, ownerTransaction, toError, type Sql, type SqlDriver } from "./db.server";

/** Documented in docs/SECURITY.md and README. */
export const SESSION_IDLE_SECONDS = 7 * 24 * 3600;
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 3600;
const TOUCH_AFTER_SECONDS = 3600;
/** GoTrue's defaults. */
export const SIGNUP_TOKEN_SECONDS = 24 * 3600;
export const RECOVERY_TOKEN_SECONDS = 3600;
export const EMAIL_CHANGE_TOKEN_SECONDS = 3600;
type TokenType = "signup" | "recovery" | "email_change";
const TOKEN_SECONDS: Record<TokenType, number> = {
  signup: SIGNUP_TOKEN_SECONDS,
  recovery: RECOVERY_TOKEN_SECONDS,
  email_change: EMAIL_CHANGE_TOKEN_SECONDS,
};
const TOKEN_OF_LINK: Record<string, TokenType | undefined> = { signup: "signup", email: "signup", recovery: "recovery" };

export const AUTH_MESSAGES = {
  invalidCredentials: "Invalid login credentials",
  emailNotConfirmed: "Email not confirmed",
  otpInvalid: "Email link is invalid or has expired",
  pkceUnsupported: "This sign-in link is not supported here. Use the link from your confirmation email.",
  sessionMissing: "Auth session missing!",
  samePassword: "New password should be different from the old password.",
  resendType: "Only sign-up confirmations can be resent here.",
} as const;

export type AuthOptions = { db: SqlDriver; mailer: Mailer; shopTitle: string };

export type AuthCalls = Pick<
  BackendRequest,
  | "getUser"
  | "signInWithPassword"
  | "signUp"
  | "verifyOtp"
  | "exchangeCodeForSession"
  | "resetPasswordForEmail"
  | "resend"
  | "updateUser"
  | "signOut"
  | "findAccountByUsername"
  | "changeEmail"
  | "pendingEmail"
  | "confirmEmailChange"
  | "signOutOthers"
  | "deleteUser"
>;

export function createSqlAuth({ db, mailer, shopTitle }: AuthOptions) {
  const q = <T extends Record<string, unknown>>(text: string, params?: unknown[]) => ownerQuery<T>(db, text, params);
  /** GoTrue's LogoutAllExceptMe. */
  async function endOtherSessions(tx: Sql, userId: string, keep: string) {
    await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [userId, keep]);
  }

  /** Only the SHA-256 is stored; older unused tokens of the type stop working. */
  async function issueToken(tx: Sql, userId: string, type: TokenType): Promise<string> {
    const token = randomToken();
    await tx.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = $2 and used_at is null`, [userId, type]);
    await tx.query(
      `insert into auth.one_time_tokens (token_hash, user_id, token_type, expires_at)
       values ($1, $2, $3, now() + make_interval(secs => $4))`,
      [sha256(token), userId, type, TOKEN_SECONDS[type]],
    );
    return token;
  }

  function sendConfirmation(to: string, token: string, origin: string) {
    const link = new URL("/auth/confirm", origin);
    link.searchParams.set("token_hash", token);
    link.searchParams.set("type", "signup");
    return mailer.send(confirmationMail(to, shopTitle, link.toString()));
  }

  async function accountOf(email: string) {
    const rows = await q<{ id: string; email: string; confirmed: boolean }>(
      `select id, email, email_confirmed_at is not null as confirmed from auth.users where lower(email) = lower($1)`,
      [email],
    );
    return rows[0];
  }

  /** A new session id at every login prevents session fixation. */
  async function startSession(userId: string, request: Request, headers: Headers, previous: string | null) {
    if (previous) {
      await q(`delete from auth.sessions where id = $1`, [sha256(previous)]);
    }
    const token = randomToken();
    await q(`insert into auth.sessions (id, user_id, expires_at) values ($1, $2, now() + make_interval(secs => $3))`, [
      sha256(token),
      userId,
      SESSION_ABSOLUTE_SECONDS,
    ]);
    const storage = cookieStorage("auth", request);
    const session = await storage.getSession();
    session.set("token", token);
    headers.append("Set-Cookie", await storage.commitSession(session));
    return token;
  }

  /** The same work for any address, so accounts cannot be probed. */
  async function queueEmailRequest(kind: TokenType, email: string, redirectTo: string) {
    await q(`insert into auth.email_requests (kind, email, redirect_to) values ($1, $2, $3)`, [kind, email, redirectTo]);
  }

  async function answerEmailChange(userId: string | null, newEmail: string, redirectTo: string) {
    const [user] = userId
      ? await q<{ email: string | null; email_change: string | null }>(
          `select email, email_change from auth.users where id = $1`,
          [userId],
        )
      : [];
    if (!user?.email) return;
    if (!(await accountOf(newEmail)) && user.email_change?.toLowerCase() === newEmail.toLowerCase()) {
      const token = await db.transaction((tx) => issueToken(tx, userId!, "email_change"));
      const link = new URL(redirectTo);
      link.searchParams.set("token_hash", token);
      link.searchParams.set("type", "email_change");
      await mailer.send(emailChangeMail(newEmail, shopTitle, link.toString()));
    }
    await mailer.send(emailChangeNoticeMail(user.email, shopTitle, newEmail));
  }

  async function answerEmailRequest(kind: TokenType, email: string, redirectTo: string, userId: string | null) {
    if (kind === "email_change") return answerEmailChange(userId, email, redirectTo);
    const user = await accountOf(email);
    if (!user || (kind === "signup" && user.confirmed)) return;
    const token = await db.transaction((tx) => issueToken(tx, user.id, kind));
    if (kind === "signup") return sendConfirmation(user.email, token, redirectTo);
    const link = new URL(redirectTo);
    link.searchParams.set("token_hash", token);
    link.searchParams.set("type", "recovery");
    await mailer.send(recoveryMail(user.email, shopTitle, link.toString()));
  }

  /** A request older than its link's lifetime is dropped. */
  async function sendEmailRequests() {
    for (;;) {
      const due = await q<{
        id: string;
        kind: TokenType;
        email: string;
        redirect_to: string;
        attempts: number;
        user_id: string | null;
      }>(
        `update auth.email_requests r set locked_until = now() + interval '5 minutes', attempts = r.attempts + 1
          where r.id in (select id from auth.email_requests
                          where done_at is null and next_attempt_at <= now() and (locked_until is null or locked_until < now())
                          order by id limit 20 for update skip locked)
          returning r.id::text, r.kind, r.email, r.redirect_to, r.attempts, r.user_id`,
      );
      for (const request of due) {
        let error: string | null = null;
        try {
          await answerEmailRequest(request.kind, request.email, request.redirect_to, request.user_id);
        } catch (e) {
          if (e instanceof BackendUnavailableError) throw e;
          error = e instanceof Error ? e.message : String(e);
          getLog().warn(
            { request: request.id, kind: request.kind, to: request.email, attempts: request.attempts, err: error },
            "email request not sent; retrying later",
          );
        }
        await q(
          `update auth.email_requests
              set locked_until = null, last_error = left($2, 500),
                  done_at = case when $2::text is null or created_at < now() - interval '1 hour' then now() end,
                  next_attempt_at = now() + least(interval '5 seconds' * power(2, least(attempts - 1, 10)), interval '10 minutes')
            where id = $1`,
          [request.id, error],
        );
      }
      if (due.length < 20) return;
    }
  }

  const forRequest = function forRequest(request: Request, headers: Headers): AuthCalls {
    let userPromise: Promise<User | null> | undefined;
    // Once this request has started or ended a session, the browser's cookie is stale.
    let current: { token: string | null } | undefined;

    const readToken = async (): Promise<string | null> => {
      if (current) return current.token;
      const token = (await readCookieData("auth", request))?.token;
      return typeof token === "string" && token.length > 20 && token.length < 100 ? token : null;
    };

    const loadUser = async (): Promise<User | null> => {
      const token = await readToken();
      if (!token) return null;
      const id = sha256(token);
      const rows = await q<{ id: string; email: string | null; idle: number }>(
        `select u.id, u.email, extract(epoch from now() - s.last_seen_at)::int as idle
           from auth.sessions s join auth.users u on u.id = s.user_id
          where s.id = $1 and s.expires_at > now()
            and s.last_seen_at > now() - make_interval(secs => $2)`,
        [id, SESSION_IDLE_SECONDS],
      );
      const row = rows[0];
      if (!row) return null;
      if (row.idle > TOUCH_AFTER_SECONDS) await q(`update auth.sessions set last_seen_at = now() where id = $1`, [id]);
      return { id: row.id, email: row.email };
    };

    const signedIn = async () => ((await readToken()) ? await (userPromise ??= loadUser()) : null);

    const forgetSession = async () => {
      const storage = cookieStorage("auth", request);
      headers.append("Set-Cookie", await storage.destroySession(await storage.getSession()));
      userPromise = Promise.resolve(null);
      current = { token: null };
    };

    return {
      getUser: () => (userPromise ??= loadUser()),

      async signInWithPassword({ email, password }) {
        const rows = await q<{ id: string; encrypted_password: string | null; confirmed: boolean }>(
          `select id, encrypted_password, email_confirmed_at is not null as confirmed from auth.users where lower(email) = lower($1)`,
          [email],
        );
        const user = rows[0];
        // Same scrypt work for an unknown user as for a wrong password.
        const valid = await verifyPassword(password, user?.encrypted_password ?? null);
        if (!user || !valid)
          return { error: { message: AUTH_MESSAGES.invalidCredentials, code: "invalid_credentials", status: 400 } };
        if (!user.confirmed)
          return { error: { message: AUTH_MESSAGES.emailNotConfirmed, code: "email_not_confirmed", status: 400 } };
        current = { token: await startSession(user.id, request, headers, await readToken()) };
        userPromise = Promise.resolve({ id: user.id, email });
        return { error: null };
      },

      async signUp({ email, password, username, emailRedirectTo }) {
        const hash = await hashPassword(password);
        try {
          const created = await db.transaction(async (tx) => {
            const inserted = await tx.query<{ id: string }>(
              `insert into auth.users (email, encrypted_password, raw_user_meta_data)
               values ($1, $2, jsonb_build_object('username', $3::text)) returning id`,
              [email, hash, username],
            );
            const id = inserted.rows[0].id;
            return { id, token: await issueToken(tx, id, "signup") };
          });
          await sendConfirmation(email, created.token, emailRedirectTo);
          return { userId: created.id, error: null };
        } catch (e) {
          if (isDbError(e) && e.code === "23505" && /users_email_key/.test(`${e.constraint ?? ""} ${e.message}`)) {
            // No account enumeration: answer as a fresh sign-up would, resending or telling the owner by email.
            const user = await accountOf(email);
            if (user && !user.confirmed) {
              await sendConfirmation(email, await db.transaction((tx) => issueToken(tx, user.id, "signup")), emailRedirectTo);
            } else {
              await mailer.send(alreadyRegisteredMail(email, shopTitle, new URL("/auth", emailRedirectTo).toString()));
            }
            return { userId: crypto.randomUUID(), error: null };
          }
          if (isDbError(e) && /profiles/.test(`${e.constraint ?? ""} ${e.message} ${e.table ?? ""}`)) {
            return { userId: null, error: { ...toError(e), status: 422, step: "username" } };
          }
          classify(e);
        }
      },

      async verifyOtp({ tokenHash, type }) {
        const tokenType = TOKEN_OF_LINK[type];
        if (!tokenType) return { error: { message: AUTH_MESSAGES.otpInvalid, code: "otp_expired", status: 403 } };
        const rows = await q<{ user_id: string }>(
          `update auth.one_time_tokens set used_at = now()
            where token_hash = $1 and token_type = $2 and used_at is null and expires_at > now()
            returning user_id`,
          [sha256(tokenHash), tokenType],
        );
        const userId = rows[0]?.user_id;
        if (!userId) return { error: { message: AUTH_MESSAGES.otpInvalid, code: "otp_expired", status: 403 } };
        const users = await q<{ email: string | null }>(
          `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
            where id = $1 returning email`,
          [userId],
        );
        current = { token: await startSession(userId, request, headers, await readToken()) };
        userPromise = Promise.resolve({ id: userId, email: users[0]?.email ?? null });
        return { error: null };
      },

      async exchangeCodeForSession() {
        return { error: { message: AUTH_MESSAGES.pkceUnsupported, code: "flow_state_not_found" } };
      },

      async resetPasswordForEmail({ email, redirectTo }) {
        await queueEmailRequest("recovery", email, redirectTo);
        return { error: null };
      },

      async resend({ type, email, emailRedirectTo }) {
        if (type !== "signup") return { error: { message: AUTH_MESSAGES.resendType, code: "validation_failed", status: 400 } };
        await queueEmailRequest("signup", email, emailRedirectTo);
        return { error: null };
      },

      async updateUser({ password }) {
        const token = await readToken();
        const user = token ? await (userPromise ??= loadUser()) : null;
        if (!token || !user) return { error: { message: AUTH_MESSAGES.sessionMissing, status: 400 } };
        const rows = await q<{ encrypted_password: string | null }>(`select encrypted_password from auth.users where id = $1`, [
          user.id,
        ]);
        if (await verifyPassword(password, rows[0]?.encrypted_password ?? null))
          return { error: { message: AUTH_MESSAGES.samePassword, code: "same_password", status: 422 } };
        const hash = await hashPassword(password);
        await ownerTransaction(db, async (tx) => {
          await tx.query(`update auth.users set encrypted_password = $2, updated_at = now() where id = $1`, [user.id, hash]);
          // As GoTrue's UpdatePassword: the other sessions end, and so do the outstanding email links.
          await endOtherSessions(tx, user.id, sha256(token));
          await tx.query(`delete from auth.one_time_tokens where user_id = $1 and used_at is null`, [user.id]);
        });
        return { error: null };
      },

      async findAccountByUsername(username) {
        const rows = await q<{ email: string; confirmed: boolean }>(
          `select u.email, u.email_confirmed_at is not null as confirmed
             from public.profiles p join auth.users u on u.id = p.id
            where lower(p.username) = lower($1) and u.email is not null
            order by p.username_clash, p.created_at
            limit 1`,
          [username],
        );
        return { account: rows[0] ? { email: rows[0].email, confirmed: rows[0].confirmed } : null, error: null };
      },

      async signOut(options) {
        const token = await readToken();
        if (options?.scope === "others") {
          const user = token ? await (userPromise ??= loadUser()) : null;
          if (token && user) await ownerTransaction(db, (tx) => endOtherSessions(tx, user.id, sha256(token)));
          return { error: null };
        }
        if (token) {
          await q(`delete from auth.sessions where id = $1`, [sha256(token)]);
        }
        await forgetSession();
        return { error: null };
      },

      async changeEmail({ email, emailRedirectTo }) {
        const user = await signedIn();
        if (!user) return { error: { message: AUTH_MESSAGES.sessionMissing, status: 400 } };
        // The same work whoever has the address: the email worker decides what to send.
        await db.transaction(async (tx) => {
          await tx.query(
            `update auth.users set email_change = $2, email_change_sent_at = now(), updated_at = now() where id = $1`,
            [user.id, email],
          );
          await tx.query(
            `delete from auth.one_time_tokens where user_id = $1 and token_type = 'email_change' and used_at is null`,
            [user.id],
          );
          await tx.query(
            `insert into auth.email_requests (kind, email, redirect_to, user_id) values ('email_change', $2, $3, $1)`,
            [user.id, email, emailRedirectTo],
          );
        });
        return { error: null };
      },

      async pendingEmail() {
        const user = await signedIn();
        if (!user) return { email: null, error: null };
        const [row] = await q<{ email_change: string | null }>(
          `select email_change from auth.users
            where id = $1 and email_change_sent_at > now() - make_interval(secs => $2)`,
          [user.id, EMAIL_CHANGE_TOKEN_SECONDS],
        );
        return { email: row?.email_change ?? null, error: null };
      },

      async confirmEmailChange(tokenHash) {
        const invalid = { done: false, error: { message: AUTH_MESSAGES.otpInvalid, code: "otp_expired", status: 403 } };
        const [token] = await q<{ user_id: string }>(
          `update auth.one_time_tokens set used_at = now()
            where token_hash = $1 and token_type = 'email_change' and used_at is null and expires_at > now()
            returning user_id`,
          [sha256(tokenHash)],
        );
        if (!token) return invalid;
        let email: string | null | undefined;
        try {
          email = await db.transaction(async (tx) => {
            const { rows } = await tx.query<{ email: string }>(
              `update auth.users
                  set email = email_change, email_change = null, email_change_sent_at = null,
                      email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
                where id = $1 and email_change is not null
            returning email`,
              [token.user_id],
            );
            // Links mailed to the old address (reset, confirmation) stop working.
            await tx.query(`delete from auth.one_time_tokens where user_id = $1 and used_at is null`, [token.user_id]);
            return rows[0]?.email;
          });
        } catch (e) {
          // The address was taken by a new account in the meantime.
          if (isDbError(e) && e.code === "23505") return invalid;
          classify(e);
        }
        if (!email) return invalid;
        current = { token: await startSession(token.user_id, request, headers, await readToken()) };
        userPromise = Promise.resolve({ id: token.user_id, email });
        return { done: true, error: null };
      },

      async signOutOthers() {
        const token = await readToken();
        const user = await signedIn();
        if (!token || !user) return { ended: null, error: { message: AUTH_MESSAGES.sessionMissing, status: 400 } };
        // Expired sessions end too, but only live ones count.
        const [row] = await q<{ n: number }>(
          `with ended as (delete from auth.sessions where user_id = $1 and id <> $2 returning expires_at, last_seen_at)
           select (count(*) filter (where expires_at > now() and last_seen_at > now() - make_interval(secs => $3)))::int as n
             from ended`,
          [user.id, sha256(token), SESSION_IDLE_SECONDS],
        );
        return { ended: row.n, error: null };
      },

      async deleteUser() {
        const user = await signedIn();
        if (!user) return { error: { message: AUTH_MESSAGES.sessionMissing, status: 400 } };
        await ownerTransaction(db, async (tx) => {
          await tx.query(`delete from auth.email_requests where user_id = $1 or lower(email) = lower($2)`, [user.id, user.email]);
          // public.erase_account (before delete) anonymises the orders; sessions and links cascade.
          await tx.query(`delete from auth.users where id = $1`, [user.id]);
        });
        await forgetSession();
        if (user.email) {
          await mailer
            .send(accountDeletedMail(user.email, shopTitle))
            .catch((e: unknown) =>
              getLog().warn({ err: e instanceof Error ? e.message : String(e) }, "account deleted email not sent"),
            );
        }
        return { error: null };
      },
    };
  };
  return { forRequest, sendEmailRequests };
}
