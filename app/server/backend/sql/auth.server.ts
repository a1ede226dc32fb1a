// The SQL adapter's auth: scrypt password hashes, server-side sessions (the cookie
// holds only a random id), one-time email tokens, and messages worded like Supabase
// Auth's. The tables live in the `auth` schema that db/shim.sql creates.
import crypto from "node:crypto";
import type { BackendRequest, User } from "../port.server";
import { cookieStorage, readCookieData } from "../../platform/cookies.server";
import { alreadyRegisteredMail, confirmationMail, type Mailer } from "../../platform/mailer.server";
import { hashPassword, randomToken, sha256, verifyPassword } from "../passwords.server";
import { classify, isDbError, ownerQuery, toError, type Sql, type SqlDriver } from "./db.server";

/** Session lifetimes: idle and absolute (documented in docs/SECURITY.md and README). */
export const SESSION_IDLE_SECONDS = 7 * 24 * 3600;
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 3600;
const TOUCH_AFTER_SECONDS = 3600;
/** PGlite only (one process): PostgreSQL mode looks every session up. */
const SESSION_CACHE_MS = 2_000;
const SIGNUP_TOKEN_SECONDS = 24 * 3600;

/** Messages worded like Supabase Auth's. */
export const AUTH_MESSAGES = {
  invalidCredentials: "Invalid login credentials",
  emailNotConfirmed: "Email not confirmed",
  otpInvalid: "Email link is invalid or has expired",
  pkceUnsupported: "This sign-in link is not supported here. Use the link from your confirmation email.",
} as const;

export type AuthOptions = { db: SqlDriver; mailer: Mailer; shopTitle: string };

export type AuthCalls = Pick<
  BackendRequest,
  "getUser" | "signInWithPassword" | "signUp" | "verifyOtp" | "exchangeCodeForSession" | "signOut"
>;

export function createSqlAuth({ db, mailer, shopTitle }: AuthOptions) {
  const q = <T extends Record<string, unknown>>(text: string, params?: unknown[]) => ownerQuery<T>(db, text, params);
  // A session seen in the last SESSION_CACHE_MS is not looked up again; login and
  // logout forget it at once.
  const sessionCache = new Map<string, { user: User; until: number }>();
  const cacheSessions = db.kind === "pglite";

  /** A new session (new id) at every login; the session this browser had ends. */
  async function startSession(userId: string, request: Request, headers: Headers, previous: string | null) {
    if (previous) {
      sessionCache.delete(sha256(previous));
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
  }

  return function forRequest(request: Request, headers: Headers): AuthCalls {
    let userPromise: Promise<User | null> | undefined;

    const readToken = async (): Promise<string | null> => {
      const token = (await readCookieData("auth", request))?.token;
      return typeof token === "string" && token.length > 20 && token.length < 100 ? token : null;
    };

    const loadUser = async (): Promise<User | null> => {
      const token = await readToken();
      if (!token) return null;
      const id = sha256(token);
      const cached = sessionCache.get(id);
      if (cacheSessions && cached && cached.until > Date.now()) return cached.user;
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
      const user = { id: row.id, email: row.email };
      if (sessionCache.size >= 10_000) sessionCache.clear();
      sessionCache.set(id, { user, until: Date.now() + SESSION_CACHE_MS });
      return user;
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
        await startSession(user.id, request, headers, await readToken());
        userPromise = Promise.resolve({ id: user.id, email });
        return { error: null };
      },

      async signUp({ email, password, username, emailRedirectTo }) {
        const hash = await hashPassword(password);
        const issueToken = async (tx: Sql, userId: string) => {
          const token = randomToken();
          await tx.query(
            `insert into auth.one_time_tokens (token_hash, user_id, token_type, expires_at)
             values ($1, $2, 'signup', now() + make_interval(secs => $3))`,
            [sha256(token), userId, SIGNUP_TOKEN_SECONDS],
          );
          return token;
        };
        const sendConfirmation = (token: string) => {
          const link = new URL("/auth/confirm", emailRedirectTo);
          link.searchParams.set("token_hash", token);
          link.searchParams.set("type", "signup");
          return mailer.send(confirmationMail(email, shopTitle, link.toString()));
        };
        try {
          const created = await db.transaction(async (tx) => {
            const inserted = await tx.query<{ id: string }>(
              `insert into auth.users (email, encrypted_password, raw_user_meta_data)
               values ($1, $2, jsonb_build_object('username', $3::text)) returning id`,
              [email, hash, username],
            );
            const id = inserted.rows[0].id;
            return { id, token: await issueToken(tx, id) };
          });
          await sendConfirmation(created.token);
          return { userId: created.id, error: null };
        } catch (e) {
          if (isDbError(e) && e.code === "23505" && /users_email_key/.test(`${e.constraint ?? ""} ${e.message}`)) {
            // The address has an account already. Answer exactly as a fresh sign-up
            // would (no account enumeration): resend the confirmation when it was never
            // confirmed (as Supabase does), else tell the owner by email.
            const existing = await q<{ id: string; confirmed: boolean }>(
              `select id, email_confirmed_at is not null as confirmed from auth.users where lower(email) = lower($1)`,
              [email],
            );
            const user = existing[0];
            if (user && !user.confirmed) {
              await sendConfirmation(await db.transaction((tx) => issueToken(tx, user.id)));
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
        if (type !== "signup" && type !== "email") return { error: { message: AUTH_MESSAGES.otpInvalid, code: "otp_expired" } };
        const rows = await q<{ user_id: string }>(
          `update auth.one_time_tokens set used_at = now()
            where token_hash = $1 and used_at is null and expires_at > now()
            returning user_id`,
          [sha256(tokenHash)],
        );
        const userId = rows[0]?.user_id;
        if (!userId) return { error: { message: AUTH_MESSAGES.otpInvalid, code: "otp_expired", status: 403 } };
        const users = await q<{ email: string | null }>(
          `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
            where id = $1 returning email`,
          [userId],
        );
        await startSession(userId, request, headers, await readToken());
        userPromise = Promise.resolve({ id: userId, email: users[0]?.email ?? null });
        return { error: null };
      },

      async exchangeCodeForSession() {
        return { error: { message: AUTH_MESSAGES.pkceUnsupported, code: "flow_state_not_found" } };
      },

      async signOut() {
        const token = await readToken();
        if (token) {
          sessionCache.delete(sha256(token));
          await q(`delete from auth.sessions where id = $1`, [sha256(token)]);
        }
        const storage = cookieStorage("auth", request);
        headers.append("Set-Cookie", await storage.destroySession(await storage.getSession()));
        userPromise = Promise.resolve(null);
      },
    };
  };
}
