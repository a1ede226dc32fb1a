// Sign-up, sign-in, the session, email links, the password: our own auth, on the tables of db/shim.sql.
// The cookie holds only a random session id; email tokens are stored as SHA-256 only, single use.
import crypto from "node:crypto";
import { cookieStorage, readCookieData } from "../../platform/cookies.server";
import { alreadyRegisteredMail, confirmationMail } from "../../platform/mailer.server";
import { hashPassword, randomToken, sha256, verifyPassword } from "../passwords.server";
import type { AuthCalls, User } from "../port.server";
import {
  asRole,
  attempt,
  classify,
  isDbError,
  ownerQuery,
  ownerTransaction,
  toError,
  type Sql,
  type SqlDriver,
} from "./db.server";
import type { Session, SqlBackendOptions, SqlContext } from "./context.server";
import { shopTitleNow } from "./catalogue.server";

/** Documented in docs/SECURITY.md and docs/behaviour.md. */
export const SESSION_IDLE_SECONDS = 7 * 24 * 3600;
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 3600;
const TOUCH_AFTER_SECONDS = 3600;
/** GoTrue's defaults. */
export const SIGNUP_TOKEN_SECONDS = 24 * 3600;
export const RECOVERY_TOKEN_SECONDS = 3600;
export const EMAIL_CHANGE_TOKEN_SECONDS = 3600;
export type TokenType = "signup" | "recovery" | "email_change";
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

/** GoTrue's LogoutAllExceptMe. */
async function endOtherSessions(tx: Sql, userId: string, keep: string) {
  await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [userId, keep]);
}

/** Only the SHA-256 is stored; older unused tokens of the type stop working. */
export async function issueToken(tx: Sql, userId: string, type: TokenType): Promise<string> {
  const token = randomToken();
  await tx.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = $2 and used_at is null`, [userId, type]);
  await tx.query(
    `insert into auth.one_time_tokens (token_hash, user_id, token_type, expires_at)
     values ($1, $2, $3, now() + make_interval(secs => $4))`,
    [sha256(token), userId, type, TOKEN_SECONDS[type]],
  );
  return token;
}

export async function sendConfirmation(opts: SqlBackendOptions, to: string, token: string, origin: string) {
  const link = new URL("/auth/confirm", origin);
  link.searchParams.set("token_hash", token);
  link.searchParams.set("type", "signup");
  return opts.mailer.send(confirmationMail(to, await shopTitleNow(opts), link.toString()));
}

export async function accountOf(db: SqlDriver, email: string) {
  const rows = await ownerQuery<{ id: string; email: string; confirmed: boolean }>(
    db,
    `select id, email, email_confirmed_at is not null as confirmed from auth.users where lower(email) = lower($1)`,
    [email],
  );
  return rows[0];
}

/** The request's session: the browser's cookie, or the session this request has started or ended since. */
export function openSession(db: SqlDriver, request: Request, headers: Headers): Session {
  const q = <T extends Record<string, unknown>>(text: string, params?: unknown[]) => ownerQuery<T>(db, text, params);
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
    db.count?.("sessionReads");
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

  const user = () => (userPromise ??= loadUser());

  return {
    token: readToken,
    user,
    signedIn: async () => ((await readToken()) ? await user() : null),
    async start(userId, email) {
      const previous = await readToken();
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
      current = { token };
      userPromise = Promise.resolve({ id: userId, email });
    },
    async forget() {
      const storage = cookieStorage("auth", request);
      headers.append("Set-Cookie", await storage.destroySession(await storage.getSession()));
      userPromise = Promise.resolve(null);
      current = { token: null };
    },
  };
}

export function auth(ctx: SqlContext): AuthCalls {
  const { db, mailer, session } = ctx;
  const q = <T extends Record<string, unknown>>(text: string, params?: unknown[]) => ownerQuery<T>(db, text, params);
  return {
    getUser: session.user,

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
      await session.start(user.id, email);
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
        await sendConfirmation(ctx, email, created.token, emailRedirectTo);
        return { userId: created.id, error: null };
      } catch (e) {
        if (isDbError(e) && e.code === "23505" && /users_email_key/.test(`${e.constraint ?? ""} ${e.message}`)) {
          // No account enumeration: answer as a fresh sign-up would, resending or telling the owner by email.
          const user = await accountOf(db, email);
          if (user && !user.confirmed) {
            await sendConfirmation(ctx, email, await db.transaction((tx) => issueToken(tx, user.id, "signup")), emailRedirectTo);
          } else {
            await mailer.send(
              alreadyRegisteredMail(email, await shopTitleNow(ctx), new URL("/auth", emailRedirectTo).toString()),
            );
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
      await session.start(userId, users[0]?.email ?? null);
      return { error: null };
    },

    async exchangeCodeForSession() {
      return { error: { message: AUTH_MESSAGES.pkceUnsupported, code: "flow_state_not_found" } };
    },

    async updateUser({ password }) {
      const token = await session.token();
      const user = token ? await session.user() : null;
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

    async signOut(options) {
      const token = await session.token();
      if (options?.scope === "others") {
        const user = token ? await session.user() : null;
        if (token && user) await ownerTransaction(db, (tx) => endOtherSessions(tx, user.id, sha256(token)));
        return { error: null };
      }
      if (token) {
        await q(`delete from auth.sessions where id = $1`, [sha256(token)]);
      }
      await session.forget();
      return { error: null };
    },

    usernameExists: (username) =>
      attempt({ exists: false }, async () => {
        const rows = await asRole(db, "anon", {}, (tx) =>
          tx.query<{ exists: boolean }>(`select public.username_exists($1) as exists`, [username]),
        );
        return { exists: rows.rows[0]?.exists === true };
      }),

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
  };
}
