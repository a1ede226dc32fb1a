// An HTTP-level stand-in for a hosted Supabase project, served by node:http on 127.0.0.1,
// that records every request so that tests can assert paths, payloads, filters and order.
// - Auth (GoTrue, /auth/v1) is faked in memory: users, sessions, refresh tokens, email
//   links, PKCE flows and a mailbox. Every account is also a row of auth.users in the
//   database, as on Supabase: sign-up inserts it (the handle_new_user trigger makes the
//   profile; a failing trigger answers 500 "Database error saving new user" and creates no
//   user) and a confirmation sets its email_confirmed_at.
// - The Data API (PostgREST, /rest/v1) is real SQL on the database handed in (a PGlite
//   migrated with db/*.sql and supabase/migrations, tests/support/postgrest.ts): the
//   migrations' RLS policies, grants, triggers, constraints and functions decide, with the
//   caller's role from the JWT (anon, authenticated, or service_role as the owner).
//
// Auth's shapes follow Supabase's documentation and what @supabase/auth-js parses:
// - Errors with `X-Supabase-Api-Version: 2024-01-01` (auth-js sends it): body
//   `{ code, message }`, the version header echoed back (auth-js reads `code` only then).
// - Sessions: `{ access_token, token_type: "bearer", expires_in, expires_at, refresh_token, user }`;
//   the access token is a JWT (HS256, signed with this fake's own secret) with sub,
//   role, exp and session_id, like GoTrue's.
// - Sign-up with email confirmation on: 200 with the user object and no session; an
//   address that is already confirmed gets an obfuscated user (random id, no
//   identities) and no email, as GoTrue answers to avoid account enumeration.
// - Email links (GoTrue's one_time_tokens): one token per user and type (a new one
//   replaces the older), single use, expiring after otp_expiry (3600 s, Supabase's
//   default). POST /recover and POST /resend answer 200 {} for any address and send only
//   where GoTrue does (recover: any account; resend signup: an unconfirmed one). A
//   recovery link confirms the address too. PUT /user with a password refuses the current
//   one (422 same_password), then ends the user's other sessions and outstanding links
//   (GoTrue's UpdatePassword). Not modelled: max_frequency between emails, and
//   secure_password_change (both settings of the project).
// - Email change (PUT /user with an email; issue 26) as GoTrue's secure email change
//   (double_confirm_changes, supabase/config.toml): an address of another account gets 422
//   email_exists; otherwise a link to each address (the SSR template's
//   {{ .SiteURL }}/account/email?token_hash=...&type=email_change), both needed: the first
//   verified answers 200 { msg, code } and no session, the second changes the address (in
//   auth.users too) and answers a session. Until then the old address logs in.
// - DELETE /admin/users/{id} (service role) deletes the row of auth.users, so the
//   database's triggers run in that statement (a failure: 500 "Database error deleting
//   user", nothing deleted), then the user's sessions and links.
// - Storage (/storage/v1): buckets and objects in memory, tests/support/supabase-storage.ts
//   (a private bucket `drops` unless told otherwise).
// The database's grants are the shim's, not Supabase's default privileges (which grant
// every new table to anon and authenticated before the migrations revoke).
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { SqlDriver } from "~/server/backend/sql/db.server";
import { createPostgrest, type PostgrestCaller } from "./postgrest";
import { createFakeStorage, type FakeStorage } from "./supabase-storage";

export type RecordedRequest = {
  method: string;
  /** The path without the query, e.g. /rest/v1/mixtapes. */
  path: string;
  /** Query parameters (the last value wins for a repeated key); see also `search`. */
  query: Record<string, string>;
  search: URLSearchParams;
  /** The parsed JSON body, or undefined. */
  body: unknown;
  headers: Record<string, string>;
  /** The status this fake answered with (set as the response starts). */
  status?: number;
};

export type FakeMail = {
  to: string;
  subject: string;
  type: "signup" | "recovery" | "email_change";
  /** The hashed token that the SSR template puts into the link (`{{ .TokenHash }}`). */
  tokenHash: string;
  redirectTo: string | null;
  /**
   * The SSR templates of supabase/templates: {{ .SiteURL }}/auth/confirm?token_hash=...&type=email
   * (sign-up) and {{ .SiteURL }}/auth/reset?token_hash=...&type=recovery (recovery), the
   * site being the redirect's origin here.
   */
  link: string;
  /** The GoTrue verify link ({{ .ConfirmationURL }}): GET /auth/v1/verify?token=...&type=signup|recovery&redirect_to=... */
  confirmationUrl: string;
  /** When it was sent (ms). */
  sentAt?: number;
};

export type FakeUser = {
  id: string;
  email: string;
  password: string;
  email_confirmed_at: string | null;
  confirmation_sent_at: string | null;
  last_sign_in_at: string | null;
  user_metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  /** The address an email change waits for (GoTrue's email_change), or undefined. */
  email_change?: string;
};

type Injection = { match: (r: RecordedRequest) => boolean; status: number; body: unknown; once: boolean };

export type SupabaseFake = {
  url: string;
  anonKey: string;
  requests: RecordedRequest[];
  mailbox: FakeMail[];
  /** Auth's accounts (each one also a row of auth.users). */
  users: Map<string, FakeUser>;
  /** The database (superuser: bypasses RLS), to read and seed rows. */
  sql: SqlDriver;
  /** A service_role key (bypasses RLS), as a project's secret key. */
  serviceKey: string;
  /** Storage's buckets and objects, the signed URLs issued, and its clock. */
  storage: FakeStorage;
  /** Requests whose path starts with the prefix (and method, when given). */
  requestsTo(pathPrefix: string, method?: string): RecordedRequest[];
  /** Answers the next matching request (or every one, once=false) with this status and body. */
  inject(match: (r: RecordedRequest) => boolean, status: number, body: unknown, once?: boolean): void;
  /** Makes every outstanding email link of this address expired (as if otp_expiry had passed). */
  expireLinks(email: string): void;
  /** Stops listening (the service is down); the data stays. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
};

const API_VERSION = "2024-01-01";
/** GoTrue's otp_expiry (Supabase's default, and supabase/config.toml's). */
const OTP_EXPIRY_SECONDS = 3600;

const b64url = (v: Buffer | string) => Buffer.from(v).toString("base64url");
const sha224hex = (s: string) => crypto.createHash("sha224").update(s).digest("hex");

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(
      typeof body === "object" && body && "message" in body ? String((body as { message: unknown }).message) : `HTTP ${status}`,
    );
  }
}

const authError = (status: number, code: string, message: string, extra?: object) =>
  new ApiError(status, { code, message, ...extra });
const pgError = (status: number, code: string, message: string, details: string | null = null, hint: string | null = null) =>
  new ApiError(status, { code, message, details, hint });

/**
 * @param options.db the project's database, migrated (e.g. a clone of tests/support/pglite's
 *   template); the caller closes it.
 * @param options.accessTokenSeconds lifetime of the access tokens it issues (GoTrue's
 *   default is 3600; a minute or less makes supabase-js refresh on every request).
 * @param options.buckets Storage's buckets (default: the private `drops`).
 */
export async function startSupabaseFake(options: {
  db: SqlDriver;
  accessTokenSeconds?: number;
  buckets?: { id: string; public?: boolean; fileSizeLimit?: number | null }[];
}): Promise<SupabaseFake> {
  const db = options.db;
  const postgrest = createPostgrest(db);
  const ACCESS_TOKEN_SECONDS = options.accessTokenSeconds ?? 3600;
  const secret = crypto.randomBytes(32);
  const sign = (payload: object) => {
    const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
    const body = b64url(JSON.stringify(payload));
    const sig = crypto.createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
    return `${head}.${body}.${sig}`;
  };
  /** A verified JWT payload, or an error that names why (PGRST301 / bad_jwt). */
  const verify = (token: string): Record<string, unknown> | "invalid" | "expired" => {
    const [head, body, sig] = token.split(".");
    if (!head || !body || !sig) return "invalid";
    const expected = crypto.createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
    if (expected.length !== sig.length || !crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(sig))) return "invalid";
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof payload.exp === "number" && payload.exp <= Date.now() / 1000) return "expired";
    return payload;
  };

  const now = () => new Date().toISOString();
  const serviceKey = sign({
    iss: "supabase-fake",
    ref: "fake",
    role: "service_role",
    iat: Math.floor(Date.now() / 1000),
    exp: 4_102_444_800,
  });
  const anonKey = sign({
    iss: "supabase-fake",
    ref: "fake",
    role: "anon",
    iat: Math.floor(Date.now() / 1000),
    exp: 4_102_444_800,
  });

  const storageApi = createFakeStorage({ sign, verify: (token) => verify(token) });
  for (const b of options.buckets ?? [{ id: "drops" }]) storageApi.storage.createBucket(b.id, b);

  const requests: RecordedRequest[] = [];
  const mailbox: FakeMail[] = [];
  const users = new Map<string, FakeUser>();
  const injections: Injection[] = [];
  // GoTrue state
  const sessions = new Map<string, { id: string; userId: string; revoked: boolean }>();
  const refreshTokens = new Map<string, { sessionId: string; used: boolean }>();
  type Otp = {
    userId: string;
    type: FakeMail["type"];
    used: boolean;
    flowId: string | null;
    expiresAt: number;
    /** An email change's link: to the current address or to the new one. */
    side?: "current" | "new";
  };
  const otps = new Map<string, Otp>(); // token_hash -> ...
  const flows = new Map<string, { id: string; userId: string; challenge: string; method: string; authCode: string | null }>();
  let baseUrl = "";

  const findUserByEmail = (email: string) => [...users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase());

  /** An email link's token: unused, not expired, of this type. */
  const usable = (otp: Otp | undefined, type: Otp["type"]): otp is Otp =>
    !!otp && !otp.used && otp.type === type && otp.expiresAt > Date.now();

  /**
   * A new link of this type for the user (the older one of the type stops working: GoTrue
   * keeps one per type), with a PKCE flow when the request carries a code challenge, and
   * its email in the mailbox.
   */
  const sendLink = (user: FakeUser, type: Otp["type"], body: Record<string, unknown>, redirectTo: string | null) => {
    let flowId: string | null = null;
    if (typeof body.code_challenge === "string" && body.code_challenge) {
      flowId = crypto.randomUUID();
      flows.set(flowId, {
        id: flowId,
        userId: user.id,
        challenge: body.code_challenge,
        method: String(body.code_challenge_method ?? "s256"),
        authCode: null,
      });
    }
    for (const old of otps.values()) if (old.userId === user.id && old.type === type) old.used = true;
    const code = crypto.randomBytes(3).readUIntBE(0, 3).toString().padStart(6, "0");
    const tokenHash = sha224hex(user.email + code);
    otps.set(tokenHash, { userId: user.id, type, used: false, flowId, expiresAt: Date.now() + OTP_EXPIRY_SECONDS * 1000 });
    if (type === "signup") user.confirmation_sent_at = now();
    const site = redirectTo ?? "http://localhost:3000";
    const link = new URL(type === "signup" ? "/auth/confirm" : "/auth/reset", site);
    link.searchParams.set("token_hash", tokenHash);
    link.searchParams.set("type", type === "signup" ? "email" : "recovery");
    const confirmationUrl = new URL(`${baseUrl}/auth/v1/verify`);
    confirmationUrl.searchParams.set("token", flowId ? `pkce_${tokenHash}` : tokenHash);
    confirmationUrl.searchParams.set("type", type);
    if (redirectTo) confirmationUrl.searchParams.set("redirect_to", redirectTo);
    mailbox.push({
      to: user.email,
      subject: type === "signup" ? "Confirm Your Signup" : "Reset Your Password",
      type,
      tokenHash,
      redirectTo,
      link: link.toString(),
      confirmationUrl: confirmationUrl.toString(),
      sentAt: Date.now(),
    });
  };

  /** Secure email change: a link to the current address and one to the new address (older ones stop working). */
  const sendEmailChangeLinks = (user: FakeUser, newEmail: string, redirectTo: string | null) => {
    for (const old of otps.values()) if (old.userId === user.id && old.type === "email_change") old.used = true;
    for (const [side, to] of [
      ["current", user.email],
      ["new", newEmail],
    ] as const) {
      const tokenHash = sha224hex(to + crypto.randomBytes(6).toString("hex"));
      otps.set(tokenHash, {
        userId: user.id,
        type: "email_change",
        used: false,
        flowId: null,
        expiresAt: Date.now() + OTP_EXPIRY_SECONDS * 1000,
        side,
      });
      const link = new URL("/account/email", redirectTo ?? "http://localhost:3000");
      link.searchParams.set("token_hash", tokenHash);
      link.searchParams.set("type", "email_change");
      const confirmationUrl = new URL(`${baseUrl}/auth/v1/verify`);
      confirmationUrl.searchParams.set("token", tokenHash);
      confirmationUrl.searchParams.set("type", "email_change");
      mailbox.push({
        to,
        subject: "Confirm Change of Email",
        type: "email_change",
        tokenHash,
        redirectTo,
        link: link.toString(),
        confirmationUrl: confirmationUrl.toString(),
        sentAt: Date.now(),
      });
    }
  };

  const userJson = (u: FakeUser) => ({
    id: u.id,
    aud: "authenticated",
    role: "authenticated",
    email: u.email,
    email_confirmed_at: u.email_confirmed_at ?? undefined,
    phone: "",
    confirmation_sent_at: u.confirmation_sent_at ?? undefined,
    new_email: u.email_change,
    confirmed_at: u.email_confirmed_at ?? undefined,
    last_sign_in_at: u.last_sign_in_at ?? undefined,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: {
      ...u.user_metadata,
      email: u.email,
      email_verified: u.email_confirmed_at !== null,
      phone_verified: false,
      sub: u.id,
    },
    identities: [
      {
        identity_id: crypto.createHash("md5").update(u.id).digest("hex"),
        id: u.id,
        user_id: u.id,
        identity_data: { email: u.email, email_verified: u.email_confirmed_at !== null, phone_verified: false, sub: u.id },
        provider: "email",
        created_at: u.created_at,
        updated_at: u.updated_at,
        email: u.email,
      },
    ],
    created_at: u.created_at,
    updated_at: u.updated_at,
    is_anonymous: false,
  });

  const issueSession = (u: FakeUser, method: string) => {
    const sessionId = crypto.randomUUID();
    sessions.set(sessionId, { id: sessionId, userId: u.id, revoked: false });
    u.last_sign_in_at = now();
    return sessionJson(u, sessionId, method);
  };
  const sessionJson = (u: FakeUser, sessionId: string, method: string) => {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + ACCESS_TOKEN_SECONDS;
    const access_token = sign({
      aud: "authenticated",
      exp,
      iat,
      iss: `${baseUrl}/auth/v1`,
      sub: u.id,
      email: u.email,
      phone: "",
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: { ...u.user_metadata },
      role: "authenticated",
      aal: "aal1",
      amr: [{ method, timestamp: iat }],
      session_id: sessionId,
      is_anonymous: false,
    });
    const refresh_token = crypto.randomBytes(9).toString("base64url");
    refreshTokens.set(refresh_token, { sessionId, used: false });
    return {
      access_token,
      token_type: "bearer",
      expires_in: ACCESS_TOKEN_SECONDS,
      expires_at: exp,
      refresh_token,
      user: userJson(u),
    };
  };

  /** The caller's role and claims, from Authorization (or apikey), like PostgREST. */
  const who = (r: RecordedRequest): PostgrestCaller => {
    const apikey = r.headers.apikey;
    if (!apikey) throw pgError(401, "PGRST000", "No API key found in request");
    const auth = r.headers.authorization;
    const token = auth?.startsWith("Bearer ") ? auth.slice(7) : apikey;
    const payload = verify(token);
    if (payload === "invalid") throw pgError(401, "PGRST301", "No suitable key or wrong key type");
    if (payload === "expired") throw pgError(401, "PGRST303", "JWT expired");
    if (payload.role === "authenticated" && typeof payload.sub === "string") return { role: "authenticated", claims: payload };
    if (payload.role === "service_role") return { role: "service_role", claims: payload };
    return { role: "anon", claims: { ...payload, role: "anon" } };
  };

  /** A confirmed address, in Auth and in auth.users. */
  const confirm = async (user: FakeUser) => {
    if (user.email_confirmed_at) return;
    const t = now();
    await db.query(`update auth.users set email_confirmed_at = $2, updated_at = $2 where id = $1`, [user.id, t]);
    user.email_confirmed_at = t;
    user.updated_at = t;
  };
  // ---- Routes ----------------------------------------------------------------------
  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? "" : JSON.stringify(body);
    res.writeHead(status, {
      ...(text ? { "Content-Type": "application/json; charset=utf-8" } : {}),
      ...headers,
    });
    res.end(text);
  };

  async function auth(r: RecordedRequest, res: http.ServerResponse) {
    const route = `${r.method} ${r.path.slice("/auth/v1".length)}`;
    const body = (r.body ?? {}) as Record<string, unknown>;
    if (route === "GET /health")
      return send(res, 200, {
        version: "fake",
        name: "GoTrue",
        description: "GoTrue is a user registration and authentication API",
      });
    // The email link is opened by a browser: Supabase's gateway lets /verify (GET) through without a key.
    if (!r.headers.apikey && route !== "GET /verify") throw authError(401, "no_authorization", "No API key found in request");

    if (route === "POST /signup") {
      const email = typeof body.email === "string" ? body.email.trim() : "";
      const password = typeof body.password === "string" ? body.password : "";
      if (!email && !password) throw authError(400, "validation_failed", "Signup requires a valid password");
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        throw authError(400, "validation_failed", "Unable to validate email address: invalid format");
      if (password.length < 6) {
        throw authError(422, "weak_password", "Password should be at least 6 characters.", {
          weak_password: { reasons: ["length"] },
        });
      }
      const data = body.data && typeof body.data === "object" ? (body.data as Record<string, unknown>) : {};
      const redirectTo = r.query.redirect_to ?? null;
      const existing = findUserByEmail(email);
      if (existing?.email_confirmed_at) {
        // GoTrue with confirmations on: an obfuscated user, no email, no error.
        const fake = userJson({ ...existing, id: crypto.randomUUID(), user_metadata: {}, created_at: now(), updated_at: now() });
        return send(res, 200, { ...fake, identities: [] });
      }
      let user = existing;
      if (!user) {
        const t = now();
        user = {
          id: crypto.randomUUID(),
          email,
          password,
          email_confirmed_at: null,
          confirmation_sent_at: null,
          last_sign_in_at: null,
          user_metadata: { ...data },
          created_at: t,
          updated_at: t,
        };
        // The handle_new_user trigger makes the profile; when it fails (a taken or
        // malformed username) the insert fails, which GoTrue reports as a 500.
        try {
          await db.query(
            `insert into auth.users (id, email, raw_user_meta_data, created_at, updated_at) values ($1, $2, $3, $4, $4)`,
            [user.id, email, JSON.stringify(user.user_metadata), t],
          );
        } catch {
          throw authError(500, "unexpected_failure", "Database error saving new user");
        }
        users.set(user.id, user);
      }
      // The confirmation email (sent again for an unconfirmed address).
      sendLink(user, "signup", body, redirectTo);
      return send(res, 200, userJson(user));
    }

    if (route === "POST /recover") {
      const email = typeof body.email === "string" ? body.email.trim() : "";
      if (!email) throw authError(400, "validation_failed", "Password recovery requires an email");
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        throw authError(400, "validation_failed", "Unable to validate email address: invalid format");
      const user = findUserByEmail(email);
      // Unknown address: the same 200 {}, no email.
      if (user) sendLink(user, "recovery", body, r.query.redirect_to ?? null);
      return send(res, 200, {});
    }

    if (route === "POST /resend") {
      const email = typeof body.email === "string" ? body.email.trim() : "";
      if (body.type !== "signup" && body.type !== "email_change")
        throw authError(400, "validation_failed", "Missing one of these types: signup, email_change, sms, phone_change");
      if (!email) throw authError(400, "validation_failed", "Type provided requires an email address");
      const user = findUserByEmail(email);
      // Unknown, or already confirmed: 200 {} and nothing sent (GoTrue's Resend).
      if (user && body.type === "signup" && !user.email_confirmed_at) sendLink(user, "signup", body, r.query.redirect_to ?? null);
      return send(res, 200, {});
    }

    if (route === "POST /token") {
      const grant = r.query.grant_type;
      if (grant === "password") {
        const email = typeof body.email === "string" ? body.email : "";
        const password = typeof body.password === "string" ? body.password : "";
        const user = findUserByEmail(email);
        if (!user || user.password !== password) throw authError(400, "invalid_credentials", "Invalid login credentials");
        if (!user.email_confirmed_at) throw authError(400, "email_not_confirmed", "Email not confirmed");
        return send(res, 200, issueSession(user, "password"));
      }
      if (grant === "pkce") {
        const authCode = typeof body.auth_code === "string" ? body.auth_code : "";
        const verifier = typeof body.code_verifier === "string" ? body.code_verifier : "";
        if (!authCode || !verifier)
          throw authError(400, "validation_failed", "invalid request: both auth code and code verifier should be non-empty");
        const flow = [...flows.values()].find((f) => f.authCode === authCode);
        if (!flow) throw authError(404, "flow_state_not_found", "invalid flow state, no valid flow state found");
        const computed = flow.method === "plain" ? verifier : crypto.createHash("sha256").update(verifier).digest("base64url");
        if (computed !== flow.challenge)
          throw authError(403, "bad_code_verifier", "code challenge does not match previously saved code verifier");
        flows.delete(flow.id);
        const user = users.get(flow.userId)!;
        return send(res, 200, issueSession(user, "email/signup"));
      }
      if (grant === "refresh_token") {
        const token = typeof body.refresh_token === "string" ? body.refresh_token : "";
        const entry = refreshTokens.get(token);
        if (!entry) throw authError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
        if (entry.used) throw authError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
        const session = sessions.get(entry.sessionId);
        if (!session || session.revoked) throw authError(400, "session_not_found", "Invalid Refresh Token: Session not found");
        entry.used = true;
        return send(res, 200, sessionJson(users.get(session.userId)!, session.id, "token_refresh"));
      }
      throw authError(400, "validation_failed", "unsupported_grant_type");
    }

    if (route === "POST /verify") {
      const type = body.type;
      const tokenHash = typeof body.token_hash === "string" ? body.token_hash : "";
      if (!tokenHash) throw authError(400, "validation_failed", "Verify requires either a token or a token hash");
      if (type !== "signup" && type !== "email" && type !== "recovery" && type !== "email_change")
        throw authError(400, "validation_failed", "Verify requires a verification type");
      const otp = otps.get(tokenHash);
      if (type === "email_change") {
        if (!usable(otp, "email_change")) throw authError(403, "otp_expired", "Email link is invalid or has expired");
        otp.used = true;
        const user = users.get(otp.userId)!;
        const newEmail = user.email_change;
        if (!newEmail) throw authError(403, "otp_expired", "Email link is invalid or has expired");
        const waiting = [...otps.values()].some((o) => o.userId === user.id && usable(o, "email_change") && o.side !== otp.side);
        if (waiting)
          return send(res, 200, {
            msg: "Confirmation link accepted. Please proceed to confirm link sent to the other email",
            code: 200,
          });
        if (findUserByEmail(newEmail))
          throw authError(422, "email_exists", "A user with this email address has already been registered");
        const t = now();
        await db.query(`update auth.users set email = $2, updated_at = $3 where id = $1`, [user.id, newEmail, t]);
        user.email = newEmail;
        user.email_change = undefined;
        user.updated_at = t;
        return send(res, 200, issueSession(user, "otp"));
      }
      if (!usable(otp, type === "recovery" ? "recovery" : "signup"))
        throw authError(403, "otp_expired", "Email link is invalid or has expired");
      otp.used = true;
      const user = users.get(otp.userId)!;
      // A recovery link confirms an unconfirmed address too (GoTrue's recoverVerify).
      await confirm(user);
      return send(res, 200, issueSession(user, type === "recovery" ? "recovery" : "otp"));
    }

    if (route === "GET /verify") {
      // The {{ .ConfirmationURL }} link: confirms and redirects to redirect_to, with
      // ?code= for a PKCE flow (then POST /token?grant_type=pkce) or #access_token=...
      const raw = r.query.token ?? "";
      const tokenHash = raw.startsWith("pkce_") ? raw.slice(5) : raw;
      const redirectTo = r.query.redirect_to ?? "http://localhost:3000";
      const linkType = r.query.type === "recovery" ? "recovery" : "signup";
      const otp = otps.get(tokenHash);
      if (!usable(otp, linkType)) {
        const to = new URL(redirectTo);
        to.hash = "error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired";
        res.writeHead(303, { Location: to.toString() });
        return res.end();
      }
      otp.used = true;
      const user = users.get(otp.userId)!;
      await confirm(user);
      const to = new URL(redirectTo);
      const flow = otp.flowId ? flows.get(otp.flowId) : undefined;
      if (flow) {
        flow.authCode = crypto.randomUUID();
        to.searchParams.set("code", flow.authCode);
      } else {
        const s = issueSession(user, "otp");
        to.hash = new URLSearchParams({
          access_token: s.access_token,
          expires_at: String(s.expires_at),
          expires_in: String(s.expires_in),
          refresh_token: s.refresh_token,
          token_type: "bearer",
          type: linkType,
        }).toString();
      }
      res.writeHead(303, { Location: to.toString() });
      return res.end();
    }

    // Endpoints with the user's JWT.
    const authz = r.headers.authorization;
    const token = authz?.startsWith("Bearer ") ? authz.slice(7) : "";
    if (!token) throw authError(401, "no_authorization", "This endpoint requires a Bearer token");
    const payload = verify(token);
    if (payload === "invalid")
      throw authError(403, "bad_jwt", "invalid JWT: unable to parse or verify signature, token is malformed");
    if (payload === "expired")
      throw authError(
        403,
        "bad_jwt",
        "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired",
      );
    const session = typeof payload.session_id === "string" ? sessions.get(payload.session_id) : undefined;

    if (route === "GET /user") {
      if (payload.role !== "authenticated") throw authError(403, "bad_jwt", "invalid claim: missing sub claim");
      const user = users.get(String(payload.sub));
      if (!user) throw authError(403, "user_not_found", "User from sub claim in JWT does not exist");
      if (!session || session.revoked)
        throw authError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
      return send(res, 200, userJson(user));
    }
    if (route === "PUT /user") {
      if (payload.role !== "authenticated") throw authError(403, "bad_jwt", "invalid claim: missing sub claim");
      const user = users.get(String(payload.sub));
      if (!user) throw authError(403, "user_not_found", "User from sub claim in JWT does not exist");
      if (!session || session.revoked)
        throw authError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
      if (typeof body.password === "string") {
        if (body.password.length < 6) {
          throw authError(422, "weak_password", "Password should be at least 6 characters.", {
            weak_password: { reasons: ["length"] },
          });
        }
        if (body.password === user.password)
          throw authError(422, "same_password", "New password should be different from the old password.");
        user.password = body.password;
        user.updated_at = now();
        // GoTrue's UpdatePassword: the other sessions and the outstanding email links end.
        for (const s of sessions.values()) if (s.userId === user.id && s.id !== session.id) s.revoked = true;
        for (const otp of otps.values()) if (otp.userId === user.id) otp.used = true;
      }
      if (typeof body.email === "string" && body.email.trim().toLowerCase() !== user.email.toLowerCase()) {
        const email = body.email.trim();
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
          throw authError(400, "validation_failed", "Unable to validate email address: invalid format");
        if (findUserByEmail(email))
          throw authError(422, "email_exists", "A user with this email address has already been registered");
        user.email_change = email;
        user.updated_at = now();
        sendEmailChangeLinks(user, email, r.query.redirect_to ?? null);
      }
      return send(res, 200, userJson(user));
    }
    if (r.method === "DELETE" && r.path.startsWith("/auth/v1/admin/users/")) {
      if (payload.role !== "service_role") throw authError(403, "not_admin", "User not allowed");
      const id = decodeURIComponent(r.path.slice("/auth/v1/admin/users/".length));
      const user = users.get(id);
      if (!user) throw authError(404, "user_not_found", "User not found");
      try {
        await db.query(`delete from auth.users where id = $1`, [id]);
      } catch {
        throw authError(500, "unexpected_failure", "Database error deleting user");
      }
      users.delete(id);
      for (const s of sessions.values()) if (s.userId === id) s.revoked = true;
      for (const [hash, otp] of otps) if (otp.userId === id) otps.delete(hash);
      return send(res, 200, {});
    }
    if (r.method === "GET" && r.path.startsWith("/auth/v1/admin/users/")) {
      if (payload.role !== "service_role") throw authError(403, "not_admin", "User not allowed");
      const user = users.get(decodeURIComponent(r.path.slice("/auth/v1/admin/users/".length)));
      if (!user) throw authError(404, "user_not_found", "User not found");
      return send(res, 200, userJson(user));
    }
    if (route === "POST /logout") {
      const scope = r.query.scope ?? "global";
      if (!session || session.revoked)
        throw authError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
      for (const s of sessions.values()) {
        if (scope === "local" && s.id === session.id) s.revoked = true;
        if (scope === "global" && s.userId === session.userId) s.revoked = true;
        if (scope === "others" && s.userId === session.userId && s.id !== session.id) s.revoked = true;
      }
      return send(res, 204, undefined);
    }
    throw authError(404, "not_found", `${route} is not served by this fake`);
  }

  async function rest(r: RecordedRequest, res: http.ServerResponse) {
    const answer = await postgrest.handle(
      { method: r.method, resource: r.path.slice("/rest/v1/".length), search: r.search, body: r.body, headers: r.headers },
      who(r),
    );
    return send(res, answer.status, answer.body, answer.headers);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", baseUrl);
      const raw = Buffer.concat(chunks);
      const binary = url.pathname.startsWith("/storage/v1/") && !req.headers["content-type"]?.includes("application/json");
      const text = binary ? "" : raw.toString("utf8");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      const record: RecordedRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        search: url.searchParams,
        body,
        headers,
      };
      requests.push(record);
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
      res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
        record.status = statusCode;
        return writeHead(statusCode, ...rest);
      }) as typeof res.writeHead;
      const versioned = record.headers["x-supabase-api-version"] === API_VERSION;
      const authHeaders: Record<string, string> =
        record.path.startsWith("/auth/v1/") && versioned ? { "X-Supabase-Api-Version": API_VERSION } : {};
      try {
        const injected = injections.find((i) => i.match(record));
        if (injected) {
          if (injected.once) injections.splice(injections.indexOf(injected), 1);
          return send(res, injected.status, injected.body, authHeaders);
        }
        if (record.path.startsWith("/auth/v1/")) return await auth(record, res).then(() => undefined);
        if (record.path.startsWith("/rest/v1/")) return await rest(record, res).then(() => undefined);
        if (record.path.startsWith("/storage/v1/")) {
          const role = record.headers.apikey ? who(record).role : null;
          return await storageApi.handle({ ...record, raw, role }, res);
        }
        throw new ApiError(404, { message: "no Route matched with those values" });
      } catch (e) {
        if (res.headersSent) return;
        if (e instanceof ApiError) {
          // Before the 2024-01-01 API version GoTrue answered {code: <status>, error_code, msg}.
          const errBody =
            record.path.startsWith("/auth/v1/") && !versioned && e.body && typeof e.body === "object"
              ? { code: e.status, error_code: (e.body as { code?: string }).code, msg: (e.body as { message?: string }).message }
              : e.body;
          return send(res, e.status, errBody, authHeaders);
        }
        return send(res, 500, { message: e instanceof Error ? e.message : String(e) });
      }
    });
  });

  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        port = (server.address() as AddressInfo).port;
        baseUrl = `http://127.0.0.1:${port}`;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen();

  return {
    get url() {
      return baseUrl;
    },
    anonKey,
    serviceKey,
    storage: storageApi.storage,
    requests,
    mailbox,
    users,
    sql: db,
    requestsTo: (prefix, method) => requests.filter((r) => r.path.startsWith(prefix) && (!method || r.method === method)),
    inject(match, status, body, once = true) {
      injections.push({ match, status, body, once });
    },
    expireLinks(email) {
      const user = findUserByEmail(email);
      for (const otp of otps.values()) if (user && otp.userId === user.id) otp.expiresAt = Date.now() - 1;
    },
    stop,
    start: listen,
    close: stop,
  };
}
