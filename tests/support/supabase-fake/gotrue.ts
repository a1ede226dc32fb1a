// The fake GoTrue (Auth, /auth/v1) of the Supabase fake: its routes over the state of
// tests/support/supabase-fake/gotrue-state.ts. A sign-up inserts the row of auth.users (the
// handle_new_user trigger makes the profile; a failing trigger answers 500 "Database error
// saving new user" and creates no user).
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
// - Email change (PUT /user with an email) as GoTrue's secure email change
//   (double_confirm_changes, supabase/config.toml): an address of another account gets 422
//   email_exists; otherwise a link to each address (the SSR template's
//   {{ .SiteURL }}/account/email?token_hash=...&type=email_change), both needed: the first
//   verified answers 200 { msg, code } and no session, the second changes the address (in
//   auth.users too) and answers a session. Until then the old address logs in.
// - DELETE /admin/users/{id} (service role) deletes the row of auth.users, so the
//   database's triggers run in that statement (a failure: 500 "Database error deleting
//   user", nothing deleted), then the user's sessions and links.
import crypto from "node:crypto";
import type http from "node:http";
import type { SqlDriver } from "~/server/backend/sql/db.server";
import { authError, send, type RecordedRequest, type Verify } from "./common";
import type { GotrueState } from "./gotrue-state";

/** The handler of /auth/v1/* over this state. */
export function createGotrue(state: GotrueState, verify: Verify, db: SqlDriver) {
  const { now, users, sessions, refreshTokens, otps, flows, findUserByEmail, usable, sendLink, sendEmailChangeLinks } = state;
  const { userJson, issueSession, sessionJson, confirm } = state;
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

    /** The token's user, whose session is still live: what GET and PUT /user act on. */
    const sessionUser = () => {
      if (payload.role !== "authenticated") throw authError(403, "bad_jwt", "invalid claim: missing sub claim");
      const user = users.get(String(payload.sub));
      if (!user) throw authError(403, "user_not_found", "User from sub claim in JWT does not exist");
      if (!session || session.revoked)
        throw authError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
      return { user, session };
    };

    if (route === "GET /user") return send(res, 200, userJson(sessionUser().user));
    if (route === "PUT /user") {
      const { user, session } = sessionUser();
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

  return auth;
}
