import crypto from "node:crypto";
// The embedded adapter: our own auth (scrypt hashes, server-side sessions, one-time
// email tokens) and the data, on PGlite or PostgreSQL. Every user-scoped query runs
// in a transaction as role `authenticated` with the user's claims, so the RLS
// policies of supabase/migrations are what guard the rows.
import type { Backend, BackendError, BackendRequest, User } from "./backend.server";
import { BackendUnavailableError } from "./backend.server";
import { cookieStorage, readCookieData } from "./cookies.server";
import { isDbError, type Sql, type SqlDriver } from "./db.server";
import { alreadyRegisteredMail, confirmationMail, type Mailer } from "./mailer.server";
import { hashPassword, randomToken, sha256, verifyPassword } from "./passwords.server";

/** Session lifetimes: idle and absolute (documented in docs/SECURITY.md and README). */
export const SESSION_IDLE_SECONDS = 7 * 24 * 3600;
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 3600;
const TOUCH_AFTER_SECONDS = 3600;
/** PGlite (one process, in process) only: PostgreSQL mode looks every session up. */
const SESSION_CACHE_MS = 2_000;
const SIGNUP_TOKEN_SECONDS = 24 * 3600;

/** Messages worded like Supabase Auth's. */
export const AUTH_MESSAGES = {
  invalidCredentials: "Invalid login credentials",
  emailNotConfirmed: "Email not confirmed",
  otpInvalid: "Email link is invalid or has expired",
  pkceUnsupported: "This sign-in link is not supported here. Use the link from your confirmation email.",
} as const;

const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "57P01", "57P03", "08006", "08001", "08003"]);
/** Connection failures become BackendUnavailableError (503); SQL errors pass through. */
function classify(error: unknown): never {
  const code = (error as { code?: string })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if ((code && CONNECTION_CODES.has(code)) || /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED/i.test(message)) {
    throw new BackendUnavailableError(error);
  }
  throw error;
}

const toError = (e: unknown): BackendError =>
  isDbError(e) ? { message: e.message, code: e.code } : { message: e instanceof Error ? e.message : String(e) };

export type EmbeddedOptions = {
  db: SqlDriver;
  mailer: Mailer;
  shopTitle: string;
  kind?: "embedded" | "postgres";
};

export function createEmbeddedBackend(opts: EmbeddedOptions): Backend {
  const { db, mailer } = opts;
  const usernames = new Map<string, string>();
  // On PGlite (one process) a session seen in the last SESSION_CACHE_MS is not looked
  // up again; logout and login forget it at once.
  const sessionCache = new Map<string, { user: User; until: number }>();
  const cacheSessions = db.kind === "pglite";

  const q = async <T extends Record<string, unknown>>(text: string, params?: unknown[]) => {
    try {
      return (await db.query<T>(text, params)).rows;
    } catch (e) {
      classify(e);
    }
  };

  /** Runs fn as `role` with the given JWT claims, inside one transaction. */
  const asRole = async <T>(role: "authenticated" | "anon", claims: object, fn: (tx: Sql) => Promise<T>): Promise<T> => {
    try {
      return await db.transaction(async (tx) => {
        // One statement, as PostgREST does it: the claims and the role, for this transaction only.
        await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('role', $2, true)`, [
          JSON.stringify({ ...claims, role }),
          role,
        ]);
        return fn(tx);
      });
    } catch (e) {
      classify(e);
    }
  };
  const asUser = <T>(userId: string, fn: (tx: Sql) => Promise<T>) => asRole("authenticated", { sub: userId }, fn);

  /** A new session (new id) at every login; the session this browser had ends. */
  async function startSession(userId: string, request: Request, headers: Headers, previous: string | null) {
    if (previous) {
      sessionCache.delete(sha256(previous));
      await q(`delete from auth.sessions where id = $1`, [sha256(previous)]);
    }
    const token = randomToken();
    await q(
      `insert into auth.sessions (id, user_id, expires_at) values ($1, $2, now() + make_interval(secs => $3))`,
      [sha256(token), userId, SESSION_ABSOLUTE_SECONDS],
    );
    const storage = cookieStorage("auth", request);
    const session = await storage.getSession(); // always a new session at login
    session.set("token", token);
    headers.append("Set-Cookie", await storage.commitSession(session));
  }

  return {
    kind: opts.kind ?? "embedded",

    async health() {
      try {
        await db.query("select 1");
        return true;
      } catch {
        return false;
      }
    },

    close: () => db.close(),

    forRequest(request: Request): BackendRequest {
      const headers = new Headers();
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
          [sha256(token), SESSION_IDLE_SECONDS],
        );
        const row = rows[0];
        if (!row) return null;
        if (row.idle > TOUCH_AFTER_SECONDS) {
          await q(`update auth.sessions set last_seen_at = now() where id = $1`, [id]);
        }
        const user = { id: row.id, email: row.email };
        if (sessionCache.size >= 10_000) sessionCache.clear();
        sessionCache.set(id, { user, until: Date.now() + SESSION_CACHE_MS });
        return user;
      };

      const getUser = () => (userPromise ??= loadUser());
      /**
       * Runs fn with the claims of this request's session (role anon when signed out),
       * as Supabase takes them from the JWT: the policies, not a user id passed in by
       * the caller, decide which rows are seen and written.
       */
      const asSession = async <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => {
        const user = await getUser();
        return user ? asUser(user.id, fn) : asRole("anon", {}, fn);
      };

      return {
        headers,

        getUser,

        async signInWithPassword({ email, password }) {
          const rows = await q<{ id: string; encrypted_password: string | null; confirmed: boolean }>(
            `select id, encrypted_password, email_confirmed_at is not null as confirmed
               from auth.users where lower(email) = lower($1)`,
            [email],
          );
          const user = rows[0];
          // Same scrypt work for an unknown user as for a wrong password.
          const valid = await verifyPassword(password, user?.encrypted_password ?? null);
          if (!user || !valid) return { error: { message: AUTH_MESSAGES.invalidCredentials, code: "invalid_credentials", status: 400 } };
          if (!user.confirmed) return { error: { message: AUTH_MESSAGES.emailNotConfirmed, code: "email_not_confirmed", status: 400 } };
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
            return mailer.send(confirmationMail(email, opts.shopTitle, link.toString()));
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
              // would (no account enumeration): resend the confirmation when it was
              // never confirmed (like Supabase), else tell the owner by email.
              const existing = await q<{ id: string; confirmed: boolean }>(
                `select id, email_confirmed_at is not null as confirmed from auth.users where lower(email) = lower($1)`,
                [email],
              );
              const user = existing[0];
              if (user && !user.confirmed) {
                await sendConfirmation(await db.transaction((tx) => issueToken(tx, user.id)));
              } else {
                await mailer.send(alreadyRegisteredMail(email, opts.shopTitle, new URL("/auth", emailRedirectTo).toString()));
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

        async usernameExists(username) {
          try {
            const rows = await asRole("anon", {}, (tx) =>
              tx.query<{ exists: boolean }>(`select public.username_exists($1) as exists`, [username]),
            );
            return { exists: rows.rows[0]?.exists === true, error: null };
          } catch (e) {
            if (e instanceof BackendUnavailableError) throw e;
            return { exists: false, error: toError(e) };
          }
        },

        async getProfile(userId) {
          try {
            // A username never changes once set: remember it for the signed-in owner.
            const owner = (await getUser())?.id === userId;
            const known = owner ? usernames.get(userId) : undefined;
            if (known) return { username: known, error: null };
            const result = await asSession((tx) =>
              tx.query<{ username: string | null }>(`select username from public.profiles where id = $1`, [userId]),
            );
            if (result.rows.length > 1) return { username: null, error: { message: "More than one profile", code: "PGRST116" } };
            const username = result.rows[0]?.username ?? null;
            if (owner && username) {
              if (usernames.size >= 10_000) usernames.clear();
              usernames.set(userId, username);
            }
            return { username, error: null };
          } catch (e) {
            if (e instanceof BackendUnavailableError) throw e;
            return { username: null, error: toError(e) };
          }
        },

        async insertOrder(order) {
          try {
            await asSession((tx) =>
              tx.query(
                `insert into public.mixtapes (user_id, code, tracks, toggles, note, design_id)
                 values ($1, $2, $3::jsonb, $4::jsonb, $5, $6)`,
                [order.user_id, order.code, JSON.stringify(order.tracks), JSON.stringify(order.toggles), order.note, order.design_id],
              ),
            );
            return { error: null };
          } catch (e) {
            if (e instanceof BackendUnavailableError) throw e;
            return { error: toError(e) };
          }
        },

        async listOrders(userId, filter) {
          try {
            const params: unknown[] = [userId];
            let where = "user_id = $1";
            if (filter?.code) {
              params.push(filter.code);
              where += " and code = $2";
            }
            const result = await asSession((tx) =>
              tx.query(
                `select id::text as id, user_id, code, tracks, toggles, note, design_id, created_at
                   from public.mixtapes where ${where} order by created_at desc, id desc`,
                params,
              ),
            );
            return { rows: result.rows, error: null };
          } catch (e) {
            if (e instanceof BackendUnavailableError) throw e;
            return { rows: [], error: toError(e) };
          }
        },
      };
    },
  };
}
