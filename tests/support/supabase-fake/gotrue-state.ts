// The state of the fake GoTrue (tests/support/supabase-fake/gotrue.ts), in memory: users, sessions,
// refresh tokens, email links (one_time_tokens), PKCE flows and a mailbox. Every account is also a
// row of auth.users in the database, as on Supabase: a confirmation sets its email_confirmed_at.
// Email links: one token per user and type (a new one replaces the older), single use, expiring
// after otp_expiry (3600 s, Supabase's default). Sessions' access tokens are JWTs with sub, role,
// exp and session_id, like GoTrue's.
import crypto from "node:crypto";
import type { SqlDriver } from "~/server/backend/sql/db.server";

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

/** GoTrue's otp_expiry (Supabase's default, and supabase/config.toml's). */
const OTP_EXPIRY_SECONDS = 3600;

const sha224hex = (s: string) => crypto.createHash("sha224").update(s).digest("hex");

export type GotrueState = ReturnType<typeof createGotrueState>;

/** Auth's accounts, sessions, links and mailbox, and what GoTrue does with them. */
export function createGotrueState(options: {
  db: SqlDriver;
  sign: (payload: object) => string;
  accessTokenSeconds: number;
  /** The fake's own origin, once it listens. */
  url: () => string;
}) {
  const { db, sign } = options;
  const ACCESS_TOKEN_SECONDS = options.accessTokenSeconds;
  const now = () => new Date().toISOString();
  const mailbox: FakeMail[] = [];
  const users = new Map<string, FakeUser>();
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
    const confirmationUrl = new URL(`${options.url()}/auth/v1/verify`);
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
      const confirmationUrl = new URL(`${options.url()}/auth/v1/verify`);
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
      iss: `${options.url()}/auth/v1`,
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

  /** A confirmed address, in Auth and in auth.users. */
  const confirm = async (user: FakeUser) => {
    if (user.email_confirmed_at) return;
    const t = now();
    await db.query(`update auth.users set email_confirmed_at = $2, updated_at = $2 where id = $1`, [user.id, t]);
    user.email_confirmed_at = t;
    user.updated_at = t;
  };
  /** Makes every outstanding email link of this address expired (as if otp_expiry had passed). */
  const expireLinks = (email: string) => {
    const user = findUserByEmail(email);
    for (const otp of otps.values()) if (user && otp.userId === user.id) otp.expiresAt = Date.now() - 1;
  };

  return {
    now,
    mailbox,
    users,
    sessions,
    refreshTokens,
    otps,
    flows,
    findUserByEmail,
    usable,
    sendLink,
    sendEmailChangeLinks,
    userJson,
    issueSession,
    sessionJson,
    confirm,
    expireLinks,
  };
}
