// An HTTP-level stand-in for a hosted Supabase project: the Auth (GoTrue) endpoints
// and the PostgREST endpoints that the Supabase adapter calls, served by node:http on
// 127.0.0.1. It keeps its data in memory and records every request so that tests can
// assert paths, payload field names, filters and ordering.
//
// Response shapes follow Supabase's documentation and what @supabase/auth-js and
// @supabase/postgrest-js parse:
// - Auth errors with `X-Supabase-Api-Version: 2024-01-01` (auth-js sends it): body
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
// - PostgREST errors: `{ code, message, details, hint }` with the status PostgREST maps
//   the SQLSTATE to: 23505 -> 409, 23503 -> 409, 23514 -> 400, 42501 -> 401 for anon and
//   403 for an authenticated role.
// The policies mirror supabase/migrations: profiles and mixtapes are readable by their
// owner and by mixers (emails in `mixers`), anon has no table grants, mixtapes insert
// requires user_id = auth.uid() and only the order's own columns, mixers change status
// and payment under the rules of the mixtapes_transition trigger, the order emails are
// queued as its triggers do, and the worker's two functions answer the service role only.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

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
  type: "signup" | "recovery";
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
};

export type FakeRow = Record<string, unknown>;

type Injection = { match: (r: RecordedRequest) => boolean; status: number; body: unknown; once: boolean };

export type SupabaseFake = {
  url: string;
  anonKey: string;
  requests: RecordedRequest[];
  mailbox: FakeMail[];
  users: Map<string, FakeUser>;
  profiles: FakeRow[];
  mixtapes: FakeRow[];
  /** public.mixers: lower-case addresses. */
  mixers: Set<string>;
  /** public.order_emails. */
  orderEmails: FakeRow[];
  /** A service_role key (bypasses RLS), as a project's secret key. */
  serviceKey: string;
  /** Requests whose path starts with the prefix (and method, when given). */
  requestsTo(pathPrefix: string, method?: string): RecordedRequest[];
  /** Answers the next matching request (or every one, once=false) with this status and body. */
  inject(match: (r: RecordedRequest) => boolean, status: number, body: unknown, once?: boolean): void;
  /** Stores a row as-is, bypassing constraints and policies (like a superuser would). */
  seedMixtape(row: FakeRow): FakeRow;
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
 * @param options.accessTokenSeconds lifetime of the access tokens it issues (GoTrue's
 *   default is 3600; a minute or less makes supabase-js refresh on every request).
 */
export async function startSupabaseFake(options: { accessTokenSeconds?: number } = {}): Promise<SupabaseFake> {
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

  const requests: RecordedRequest[] = [];
  const mailbox: FakeMail[] = [];
  const users = new Map<string, FakeUser>();
  const profiles: FakeRow[] = [];
  const mixtapes: FakeRow[] = [];
  const mixers = new Set<string>();
  const orderEmails: FakeRow[] = [];
  let nextEmailId = 1;
  const injections: Injection[] = [];
  // GoTrue state
  const sessions = new Map<string, { id: string; userId: string; revoked: boolean }>();
  const refreshTokens = new Map<string, { sessionId: string; used: boolean }>();
  type Otp = { userId: string; type: FakeMail["type"]; used: boolean; flowId: string | null; expiresAt: number };
  const otps = new Map<string, Otp>(); // token_hash -> ...
  const flows = new Map<string, { id: string; userId: string; challenge: string; method: string; authCode: string | null }>();
  let nextMixtapeId = 1;
  let lastCreated = 0;
  let baseUrl = "";

  /** profiles_username_lower_key: unique whatever the case (flagged old clashes aside). */
  const sameUsername = (p: FakeRow, username: string) =>
    typeof p.username === "string" && !p.username_clash && p.username.toLowerCase() === username.toLowerCase();
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
    });
  };

  const userJson = (u: FakeUser) => ({
    id: u.id,
    aud: "authenticated",
    role: "authenticated",
    email: u.email,
    email_confirmed_at: u.email_confirmed_at ?? undefined,
    phone: "",
    confirmation_sent_at: u.confirmation_sent_at ?? undefined,
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

  /** The caller's role and user id, from Authorization (or apikey), like PostgREST. */
  type Caller = { role: "anon" | "authenticated" | "service_role"; sub: string | null };
  const who = (r: RecordedRequest): Caller => {
    const apikey = r.headers.apikey;
    if (!apikey) throw pgError(401, "PGRST000", "No API key found in request");
    const auth = r.headers.authorization;
    const token = auth?.startsWith("Bearer ") ? auth.slice(7) : apikey;
    const payload = verify(token);
    if (payload === "invalid") throw pgError(401, "PGRST301", "No suitable key or wrong key type");
    if (payload === "expired") throw pgError(401, "PGRST303", "JWT expired");
    if (payload.role === "authenticated" && typeof payload.sub === "string") return { role: "authenticated", sub: payload.sub };
    if (payload.role === "service_role") return { role: "service_role", sub: null };
    return { role: "anon", sub: null };
  };
  const denied = (role: Caller["role"], table: string) =>
    pgError(role === "anon" ? 401 : 403, "42501", `permission denied for table ${table}`);
  /** public.is_mixer() for this caller. */
  const isMixer = (caller: Caller) => {
    const email = caller.sub ? users.get(caller.sub)?.email : undefined;
    return !!email && mixers.has(email.toLowerCase());
  };

  // ---- PostgREST query helpers ----------------------------------------------------
  const applyFilters = (rows: FakeRow[], search: URLSearchParams) => {
    let out = rows;
    for (const [key, value] of search) {
      if (["select", "order", "limit", "offset", "columns", "on_conflict"].includes(key)) continue;
      const m = /^(eq|like|ilike)\.(.*)$/s.exec(value);
      if (!m) throw pgError(400, "PGRST100", `"failed to parse filter (${value})" (line 1, column 1)`);
      const [, op, operand] = m;
      // LIKE: % (or PostgREST's *) any run, _ one character, a backslash escapes the next.
      const pattern = [...operand.matchAll(/\\(.)|([%*])|(_)|(.)/gs)]
        .map(([, escaped, run, one, plain]) =>
          run ? ".*" : one ? "." : (escaped ?? plain).replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
        )
        .join("");
      const like = new RegExp(`^${pattern}$`, op === "ilike" ? "si" : "s");
      out = out.filter(
        (row) =>
          row[key] !== undefined &&
          row[key] !== null &&
          (op === "eq" ? String(row[key]) === operand : like.test(String(row[key]))),
      );
    }
    return out;
  };
  const applyOrder = (rows: FakeRow[], order: string | null) => {
    if (!order) return rows;
    const keys = order.split(",").map((part) => {
      const [col, dir = "asc"] = part.split(".");
      return { col, desc: dir === "desc" };
    });
    return [...rows].sort((a, b) => {
      for (const { col, desc } of keys) {
        const av = a[col] as string | number;
        const bv = b[col] as string | number;
        if (av === bv) continue;
        const cmp = av < bv ? -1 : 1;
        return desc ? -cmp : cmp;
      }
      return 0;
    });
  };
  const applyRange = (rows: FakeRow[], query: Record<string, string>) => {
    const offset = Number(query.offset ?? 0);
    return query.limit === undefined ? rows.slice(offset) : rows.slice(offset, offset + Number(query.limit));
  };
  const applySelect = (rows: FakeRow[], select: string | null, table: string, columns: string[]) => {
    // One embedded resource, as the console reads it: "*, profiles(username, email)".
    const embed = select ? /^\*,\s*profiles\(([\w\s,]+)\)$/.exec(select) : null;
    if (embed && table === "mixtapes") {
      const cols = embed[1].split(",").map((c) => c.trim());
      for (const c of cols) if (!PROFILE_COLUMNS.includes(c)) throw pgError(400, "42703", `column profiles.${c} does not exist`);
      return rows.map((r) => {
        const p = profiles.find((x) => x.id === r.user_id);
        return { ...r, profiles: p ? Object.fromEntries(cols.map((c) => [c, p[c] ?? null])) : null };
      });
    }
    if (!select || select === "*") return rows.map((r) => ({ ...r }));
    const cols = select.split(",").map((c) => c.trim());
    for (const c of cols) {
      if (!columns.includes(c)) throw pgError(400, "42703", `column ${table}.${c} does not exist`);
    }
    return rows.map((r) => Object.fromEntries(cols.map((c) => [c, r[c] ?? null])));
  };

  const PROFILE_COLUMNS = ["id", "username", "created_at", "email", "username_clash"];
  /** The columns a shopper may insert (the migration's column grant). */
  const ORDER_COLUMNS = ["user_id", "code", "tracks", "toggles", "note", "design_id"];
  const LIFECYCLE_COLUMNS = [
    "status",
    "finished",
    "mixing_at",
    "mixing_by",
    "sent_at",
    "sent_by",
    "paid",
    "paid_at",
    "paid_by",
    "delivery_url",
    "mixer_message",
  ];
  const MIXTAPE_COLUMNS = ["id", ...ORDER_COLUMNS, "created_at", ...LIFECYCLE_COLUMNS];

  const lifecycleDefaults = () => ({
    status: "received",
    finished: false,
    mixing_at: null,
    mixing_by: null,
    sent_at: null,
    sent_by: null,
    paid: false,
    paid_at: null,
    paid_by: null,
    delivery_url: null,
    mixer_message: null,
  });

  /** The queue_order_emails trigger. */
  const queueEmails = (order: FakeRow, kind: "received" | "new_order" | "sent") => {
    const shopper = users.get(String(order.user_id))?.email;
    const recipients = kind === "new_order" ? [...mixers] : shopper ? [shopper] : [];
    for (const recipient of recipients) {
      orderEmails.push({
        id: nextEmailId++,
        order_id: order.id,
        kind,
        recipient,
        created_at: now(),
        attempts: 0,
        next_attempt_at: Date.now(),
        locked_until: null,
        sent_at: null,
        last_error: null,
      });
    }
  };

  /** A mixer's update of one order, under the mixtapes_transition trigger's rules. */
  const updateMixtape = (row: FakeRow, patch: FakeRow, caller: Caller): FakeRow => {
    const failing = `Failing row contains (${row.id}, ${row.user_id}, ${row.code}, ...).`;
    const next = { ...row, ...patch };
    for (const key of Object.keys(patch)) {
      if (!MIXTAPE_COLUMNS.includes(key))
        throw pgError(400, "PGRST204", `Could not find the '${key}' column of 'mixtapes' in the schema cache`);
      if (["id", ...ORDER_COLUMNS, "created_at"].includes(key) && patch[key] !== row[key])
        throw pgError(403, "42501", "an order's contents never change");
      if (["finished", "mixing_at", "mixing_by", "sent_at", "sent_by", "paid_at", "paid_by"].includes(key)) {
        throw pgError(403, "42501", "the times and authors of changes are recorded, never written");
      }
    }
    const check = (ok: boolean, message: string) => {
      if (!ok) throw pgError(400, "23514", message, failing);
    };
    if (next.status !== row.status) {
      check(
        (row.status === "received" && next.status === "mixing") || (row.status === "mixing" && next.status === "sent"),
        `an order cannot go from ${String(row.status)} to ${String(next.status)}`,
      );
      if (next.status === "mixing") Object.assign(next, { mixing_at: now(), mixing_by: caller.sub });
      else Object.assign(next, { sent_at: now(), sent_by: caller.sub });
    }
    check(
      (next.delivery_url === row.delivery_url && next.mixer_message === row.mixer_message) ||
        (row.status === "mixing" && next.status === "sent"),
      "the delivery link and message are set when the order is sent",
    );
    if (next.paid !== row.paid) {
      check(row.paid === false, "a payment mark cannot be taken back");
      Object.assign(next, { paid_at: now(), paid_by: caller.sub });
    }
    check(
      next.delivery_url === null || (typeof next.delivery_url === "string" && /^https:\/\/\S+$/.test(next.delivery_url)),
      'new row for relation "mixtapes" violates check constraint "mixtapes_delivery_url"',
    );
    check(
      next.mixer_message === null || (typeof next.mixer_message === "string" && [...next.mixer_message].length <= 500),
      'new row for relation "mixtapes" violates check constraint "mixtapes_mixer_message_length"',
    );
    next.finished = next.status === "sent";
    return next;
  };

  const monotonicNow = () => {
    const t = Math.max(Date.now(), lastCreated + 1);
    lastCreated = t;
    return new Date(t).toISOString().replace("Z", "+00:00");
  };

  const insertMixtape = (input: FakeRow, caller: Caller): FakeRow => {
    for (const key of Object.keys(input)) {
      if (!MIXTAPE_COLUMNS.includes(key))
        throw pgError(400, "PGRST204", `Could not find the '${key}' column of 'mixtapes' in the schema cache`);
      if (key !== "id" && !ORDER_COLUMNS.includes(key)) throw denied(caller.role, "mixtapes");
    }
    if ("id" in input)
      throw pgError(
        400,
        "428C9",
        'cannot insert a non-DEFAULT value into column "id"',
        'Column "id" is an identity column defined as GENERATED ALWAYS.',
        "Use OVERRIDING SYSTEM VALUE to override.",
      );
    const row: FakeRow = {
      id: nextMixtapeId,
      user_id: input.user_id ?? null,
      code: input.code ?? null,
      tracks: input.tracks ?? [],
      toggles: input.toggles ?? {},
      note: input.note ?? "",
      design_id: input.design_id ?? null,
      created_at: input.created_at ?? monotonicNow(),
      ...lifecycleDefaults(),
    };
    const failing = `Failing row contains (${row.id}, ${row.user_id}, ${row.code}, ...).`;
    if (row.user_id === null)
      throw pgError(400, "23502", 'null value in column "user_id" of relation "mixtapes" violates not-null constraint', failing);
    if (row.code === null)
      throw pgError(400, "23502", 'null value in column "code" of relation "mixtapes" violates not-null constraint', failing);
    // RLS: with check ((select auth.uid()) = user_id)
    if (row.user_id !== caller.sub) {
      throw pgError(403, "42501", 'new row violates row-level security policy for table "mixtapes"');
    }
    const check = (ok: boolean, name: string) => {
      if (!ok) throw pgError(400, "23514", `new row for relation "mixtapes" violates check constraint "${name}"`, failing);
    };
    check(typeof row.code === "string" && /^[A-Z0-9]{8}$/.test(row.code), "mixtapes_code_format");
    check(typeof row.note === "string" && [...row.note].length <= 120, "mixtapes_note_length");
    check(Array.isArray(row.tracks), "mixtapes_tracks_array");
    check(!!row.toggles && typeof row.toggles === "object" && !Array.isArray(row.toggles), "mixtapes_toggles_object");
    if (mixtapes.some((m) => m.code === row.code)) {
      throw pgError(
        409,
        "23505",
        'duplicate key value violates unique constraint "mixtapes_code_key"',
        `Key (code)=(${String(row.code)}) already exists.`,
      );
    }
    if (!users.has(String(row.user_id))) {
      throw pgError(
        409,
        "23503",
        'insert or update on table "mixtapes" violates foreign key constraint "mixtapes_user_id_fkey"',
        `Key (user_id)=(${String(row.user_id)}) is not present in table "users".`,
      );
    }
    nextMixtapeId++;
    return row;
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
        // The handle_new_user trigger: the profile row with the username. A taken or
        // malformed username fails the insert, which GoTrue reports as a 500.
        const username = typeof data.username === "string" ? data.username.trim() || null : null;
        if (username !== null && (profiles.some((p) => sameUsername(p, username)) || !/^[A-Za-z0-9_.-]{2,32}$/.test(username))) {
          throw authError(500, "unexpected_failure", "Database error saving new user");
        }
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
        users.set(user.id, user);
        profiles.push({ id: user.id, username, created_at: t, email, username_clash: false });
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
      if (type !== "signup" && type !== "email" && type !== "recovery")
        throw authError(400, "validation_failed", "Verify requires a verification type");
      const otp = otps.get(tokenHash);
      if (!usable(otp, type === "recovery" ? "recovery" : "signup"))
        throw authError(403, "otp_expired", "Email link is invalid or has expired");
      otp.used = true;
      const user = users.get(otp.userId)!;
      // A recovery link confirms an unconfirmed address too (GoTrue's recoverVerify).
      user.email_confirmed_at ??= now();
      user.updated_at = now();
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
      user.email_confirmed_at ??= now();
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
      return send(res, 200, userJson(user));
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
    const resource = r.path.slice("/rest/v1/".length);
    const caller = who(r);
    const prefer = r.headers.prefer ?? "";

    if (resource === "rpc/username_exists") {
      if (r.method !== "POST" && r.method !== "GET")
        throw pgError(405, "PGRST101", "Only GET and POST verbs are allowed for functions");
      const args = (r.method === "POST" ? r.body : r.query) as Record<string, unknown> | undefined;
      if (!args || typeof args.p_username !== "string") {
        throw pgError(
          404,
          "PGRST202",
          "Could not find the function public.username_exists without parameters in the schema cache",
          null,
          null,
        );
      }
      const exists = profiles.some(
        (p) => typeof p.username === "string" && p.username.toLowerCase() === String(args.p_username).toLowerCase(),
      );
      return send(res, 200, exists);
    }

    if (resource === "rpc/claim_order_emails" || resource === "rpc/finish_order_email") {
      if (caller.role !== "service_role") {
        throw pgError(caller.role === "anon" ? 401 : 403, "42501", `permission denied for function ${resource.slice(4)}`);
      }
      const args = (r.body ?? {}) as Record<string, unknown>;
      if (resource === "rpc/finish_order_email") {
        const email = orderEmails.find((e) => e.id === Number(args.email_id));
        if (email) {
          const error = typeof args.error === "string" ? args.error : null;
          Object.assign(email, {
            sent_at: error === null ? now() : null,
            last_error: error?.slice(0, 500) ?? null,
            locked_until: null,
            next_attempt_at:
              error === null
                ? email.next_attempt_at
                : Date.now() + Math.min(5000 * 2 ** Math.min(Number(email.attempts) - 1, 10), 3_600_000),
          });
        }
        return send(res, 204, undefined);
      }
      const batch = Math.min(Math.max(Number(args.batch) || 1, 1), 100);
      const due = orderEmails
        .filter(
          (e) =>
            e.sent_at === null &&
            Number(e.next_attempt_at) <= Date.now() &&
            (e.locked_until === null || Number(e.locked_until) < Date.now()),
        )
        .slice(0, batch);
      const rows = due.map((e) => {
        e.locked_until = Date.now() + 300_000;
        e.attempts = Number(e.attempts) + 1;
        const m = mixtapes.find((x) => x.id === e.order_id)!;
        const p = profiles.find((x) => x.id === m.user_id);
        return {
          id: e.id,
          kind: e.kind,
          recipient: e.recipient,
          attempts: e.attempts,
          code: m.code,
          tracks: m.tracks,
          toggles: m.toggles,
          note: m.note,
          design_id: m.design_id,
          created_at: m.created_at,
          delivery_url: m.delivery_url,
          mixer_message: m.mixer_message,
          username: p?.username ?? null,
          email: p?.email ?? null,
        };
      });
      return send(res, 200, rows);
    }

    if (resource === "profiles") {
      if (caller.role === "anon") throw denied("anon", "profiles");
      // RLS: read own; mixers read all; the service role bypasses RLS.
      const visible = caller.role === "service_role" || isMixer(caller) ? profiles : profiles.filter((p) => p.id === caller.sub);
      if (r.method === "GET") {
        const rows = applySelect(
          applyOrder(applyFilters(visible, r.search), r.query.order ?? null),
          r.query.select ?? null,
          "profiles",
          PROFILE_COLUMNS,
        );
        return send(res, 200, rows);
      }
      if (r.method === "PATCH") {
        const patch = (r.body ?? {}) as Record<string, unknown>;
        for (const k of Object.keys(patch)) if (k !== "username") throw denied("authenticated", "profiles");
        const targets = applyFilters(visible, r.search);
        const username = patch.username;
        if (typeof username === "string" && profiles.some((p) => sameUsername(p, username) && !targets.includes(p))) {
          throw pgError(
            409,
            "23505",
            'duplicate key value violates unique constraint "profiles_username_key"',
            `Key (username)=(${username}) already exists.`,
          );
        }
        for (const t of targets) t.username = username ?? null;
        return prefer.includes("return=representation")
          ? send(
              res,
              200,
              targets.map((t) => ({ ...t })),
            )
          : send(res, 204, undefined);
      }
      throw denied(caller.role, "profiles");
    }

    if (resource === "mixtapes") {
      if (caller.role === "anon") throw denied("anon", "mixtapes");
      // RLS: read own; mixers read and update all; the service role bypasses RLS.
      const mixer = caller.role === "service_role" || isMixer(caller);
      const visible = mixer ? mixtapes : mixtapes.filter((m) => m.user_id === caller.sub);
      if (r.method === "GET") {
        const rows = applySelect(
          applyRange(applyOrder(applyFilters(visible, r.search), r.query.order ?? null), r.query),
          r.query.select ?? null,
          "mixtapes",
          MIXTAPE_COLUMNS,
        );
        return send(res, 200, rows);
      }
      if (r.method === "PATCH") {
        const patch = (r.body ?? {}) as FakeRow;
        const targets = mixer ? applyFilters(visible, r.search) : []; // no update policy for shoppers
        const updated = targets.map((row) => ({ row, next: updateMixtape(row, patch, caller) }));
        for (const { row, next } of updated) {
          const wasSent = row.status === "sent";
          Object.assign(row, next);
          if (!wasSent && row.status === "sent") queueEmails(row, "sent");
        }
        return prefer.includes("return=representation")
          ? send(
              res,
              200,
              applySelect(
                updated.map((u) => u.row),
                r.query.select ?? null,
                "mixtapes",
                MIXTAPE_COLUMNS,
              ),
            )
          : send(res, 204, undefined);
      }
      if (r.method === "POST") {
        const input = Array.isArray(r.body) ? r.body : [r.body];
        // One statement: all rows or none.
        const saveId = nextMixtapeId;
        const created: FakeRow[] = [];
        try {
          for (const row of input) {
            const made = insertMixtape((row ?? {}) as FakeRow, caller);
            created.push(made);
            mixtapes.push(made); // later rows of the same insert see it (unique code)
            queueEmails(made, "received");
            queueEmails(made, "new_order");
          }
        } catch (e) {
          for (const c of created) mixtapes.splice(mixtapes.indexOf(c), 1);
          for (let i = orderEmails.length - 1; i >= 0; i--)
            if (created.some((c) => c.id === orderEmails[i].order_id)) orderEmails.splice(i, 1);
          nextMixtapeId = saveId;
          throw e;
        }
        if (prefer.includes("return=representation")) {
          return send(res, 201, applySelect(created, r.query.select ?? null, "mixtapes", MIXTAPE_COLUMNS));
        }
        return send(res, 201, undefined);
      }
      throw denied(caller.role, "mixtapes");
    }

    throw pgError(404, "PGRST205", `Could not find the table 'public.${resource}' in the schema cache`);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", baseUrl);
      const text = Buffer.concat(chunks).toString("utf8");
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
    mixers,
    orderEmails,
    requests,
    mailbox,
    users,
    profiles,
    mixtapes,
    requestsTo: (prefix, method) => requests.filter((r) => r.path.startsWith(prefix) && (!method || r.method === method)),
    inject(match, status, body, once = true) {
      injections.push({ match, status, body, once });
    },
    expireLinks(email) {
      const user = findUserByEmail(email);
      for (const otp of otps.values()) if (user && otp.userId === user.id) otp.expiresAt = Date.now() - 1;
    },
    seedMixtape(row) {
      const stored = { id: nextMixtapeId++, created_at: monotonicNow(), ...lifecycleDefaults(), ...row };
      mixtapes.push(stored);
      return stored;
    },
    stop,
    start: listen,
    close: stop,
  };
}
