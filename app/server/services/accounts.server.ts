// Account flows with the product's rules and copy, over any Backend adapter.
import { AUTH_COPY, ACCOUNT_COPY } from "~/domain/copy-auth";
import { displayName } from "~/domain/display-name";
import { EMAIL_RE } from "~/domain/schemas";
import { passwordProblem, randomToken, sha256 } from "../backend/passwords.server";
import type { BackendRequest, User } from "../backend/port.server";
import { RECOVERY_WINDOW_SECONDS } from "../platform/cookies.server";
import { getLog } from "../platform/log.server";

/** unconfirmed: the password was right but the email is not confirmed yet (the page offers to resend the link). */
export type AuthOutcome = { ok: true } | { ok: false; message: string; unconfirmed?: true };
/** retryAfter: the account's budget of guesses is spent (a username login). */
export type LoginOutcome = AuthOutcome | { ok: false; retryAfter: number };

const NOT_CONFIRMED = "email_not_confirmed";

/**
 * A username (any case) signs in as its account's email does (looked up on the server,
 * never shown), after `limitAccount(email)`: one budget of guesses per account. Where the
 * email cannot be looked up (Supabase without its service role key): the spec's message.
 */
export async function logIn(
  api: BackendRequest,
  identifier: string,
  password: string,
  limitAccount?: (email: string) => Promise<number | null>,
): Promise<LoginOutcome> {
  let email = identifier;
  if (!EMAIL_RE.test(identifier)) {
    const found = await accountOfUsername(api, identifier);
    if ("message" in found) return { ok: false, message: found.message };
    email = found.email;
    const wait = limitAccount ? await limitAccount(email) : null;
    if (wait !== null) return { ok: false, retryAfter: wait };
  }
  const { error } = await api.signInWithPassword({ email, password });
  if (!error) return { ok: true };
  return error.code === NOT_CONFIRMED
    ? { ok: false, message: error.message, unconfirmed: true }
    : { ok: false, message: error.message };
}

async function accountOfUsername(api: BackendRequest, username: string): Promise<{ email: string } | { message: string }> {
  const { exists, error } = await api.usernameExists(username);
  if (error) return { message: error.message };
  if (!exists) return { message: AUTH_COPY.usernameNotFound };
  const found = await api.findAccountByUsername(username);
  if (found.error) {
    getLog().error({ err: found.error.message }, "username account look-up failed");
    return { message: found.error.message };
  }
  return found.account ? { email: found.account.email } : { message: AUTH_COPY.usernameLogin };
}

export type SignUpOutcome = { ok: true; userId: string | null } | { ok: false; message: string };

/**
 * Sign-up stores the username with the account; a taken one creates no account. A
 * common password, or one equal to the username or email, is refused first, before
 * the backend is asked anything (the schema has already required 8+ characters).
 */
export async function signUp(
  api: BackendRequest,
  input: { username: string; email: string; password: string; origin: string },
): Promise<SignUpOutcome> {
  const weak = passwordProblem(input.password, { username: input.username, email: input.email });
  if (weak) return { ok: false, message: weak };
  const taken = await api.usernameExists(input.username);
  if (!taken.error && taken.exists) return { ok: false, message: AUTH_COPY.usernameTaken };
  const { userId, error } = await api.signUp({
    email: input.email,
    password: input.password,
    username: input.username,
    emailRedirectTo: input.origin,
  });
  if (error) {
    if (error.step === "username" || error.code === "23505") {
      return {
        ok: false,
        message: error.code === "23505" ? AUTH_COPY.usernameTaken : AUTH_COPY.couldNotSetUsername + error.message,
      };
    }
    return { ok: false, message: error.message };
  }
  return { ok: true, userId };
}

// ---- Recovery ------------------------------------------------------------------------
// The routes run sendPasswordReset and resendConfirmation after answering
// (platform/after-answer.server.ts): whether an address has an account must show
// neither in the answer nor in its time. They throw on failure, for the log.

/** Forgot password: a recovery link to /auth/reset on this site, when the address has an account. */
export async function sendPasswordReset(api: BackendRequest, email: string, origin: string): Promise<void> {
  const { error } = await api.resetPasswordForEmail({ email, redirectTo: new URL("/auth/reset", origin).toString() });
  if (error) throw new Error(error.message);
}

/**
 * Resend confirmation: a fresh link to the address, or to the email of a username's
 * account (looked up on the server, never shown); nothing when there is no unconfirmed
 * account.
 */
export async function resendConfirmation(api: BackendRequest, identifier: string, origin: string): Promise<void> {
  let email = identifier;
  if (!EMAIL_RE.test(identifier)) {
    const { account, error } = await api.findAccountByUsername(identifier);
    if (error) throw new Error(error.message);
    if (!account || account.confirmed) return;
    email = account.email;
  }
  const { error } = await api.resend({ type: "signup", email, emailRedirectTo: origin });
  if (error) throw new Error(error.message);
}

/**
 * The reset link: its recovery token hash (or Supabase's PKCE code) starts a session and
 * opens a window of RECOVERY_WINDOW_SECONDS to choose a new password. The user and the
 * window's token (for this browser's cookie), or null.
 */
export async function openRecoveryLink(
  api: BackendRequest,
  params: URLSearchParams,
): Promise<{ user: User; token: string } | null> {
  const tokenHash = params.get("token_hash");
  const code = params.get("code");
  let opened = false;
  if (tokenHash && tokenHash.length <= 200 && params.get("type") === "recovery")
    opened = !(await api.verifyOtp({ tokenHash, type: "recovery" })).error;
  else if (!tokenHash && code && code.length <= 200) opened = !(await api.exchangeCodeForSession(code)).error;
  const user = opened ? await api.getUser() : null;
  if (!user) return null;
  const token = randomToken();
  const { error } = await api.openRecoveryWindow(sha256(token), new Date(Date.now() + RECOVERY_WINDOW_SECONDS * 1000));
  if (error) {
    getLog().error({ code: error.code, err: error.message }, "recovery window not stored");
    return null;
  }
  return { user, token };
}

/** True while the window of this token is open (not used, not expired). */
export const inRecoveryWindow = (api: BackendRequest, token: string | null) =>
  token ? api.recoveryWindowOpen(sha256(token)) : Promise.resolve(false);

/** The rules of a password being chosen, beyond the schema's length: the message, or null. */
async function newPasswordProblem(api: BackendRequest, user: User, password: string): Promise<string | null> {
  const { username } = await api.getProfile(user.id);
  return passwordProblem(password, { username: username ?? undefined, email: user.email ?? undefined });
}

/** Every other session of the user ends (GoTrue has done it already; the SQL adapter too): a failure is only logged. */
async function endOtherSessions(api: BackendRequest) {
  const { error } = await api.signOut({ scope: "others" });
  if (error) getLog().warn({ err: error.message }, "ending the other sessions failed");
}

/**
 * A new password through the reset window of this token: the sign-up rules, then the
 * window is taken (used once: a replay finds it gone), the password set (a refusal gives
 * the window back), and every other session of the user ends. `closed`: no open window.
 */
export async function setNewPassword(
  api: BackendRequest,
  user: User,
  password: string,
  token: string | null,
): Promise<AuthOutcome | { ok: false; closed: true }> {
  const weak = await newPasswordProblem(api, user, password);
  if (weak) return { ok: false, message: weak };
  if (!token) return { ok: false, closed: true };
  const id = sha256(token);
  const taken = await api.takeRecoveryWindow(id);
  if (!taken.until) return { ok: false, closed: true };
  const { error } = await api.updateUser({ password });
  if (error) {
    await api.openRecoveryWindow(id, taken.until);
    return { ok: false, message: error.message };
  }
  await endOtherSessions(api);
  return { ok: true };
}

/**
 * Change password while signed in: the current password must be right (checked by
 * signing in again, which also gives this browser a new session), the new one follows
 * the sign-up rules; then every other session of the user ends.
 */
export async function changePassword(
  api: BackendRequest,
  user: User,
  input: { currentPassword: string; newPassword: string },
): Promise<AuthOutcome> {
  const weak = await newPasswordProblem(api, user, input.newPassword);
  if (weak) return { ok: false, message: weak };
  if (!user.email) return { ok: false, message: ACCOUNT_COPY.wrongCurrentPassword };
  const check = await api.signInWithPassword({ email: user.email, password: input.currentPassword });
  if (check.error)
    return {
      ok: false,
      message: check.error.code === "invalid_credentials" ? ACCOUNT_COPY.wrongCurrentPassword : check.error.message,
    };
  const { error } = await api.updateUser({ password: input.newPassword });
  if (error) return { ok: false, message: error.message };
  await endOtherSessions(api);
  return { ok: true };
}

/** The email link: a token hash (or Supabase's PKCE code) starts a session; true when it did. */
export async function confirmEmail(api: BackendRequest, params: URLSearchParams): Promise<boolean> {
  const tokenHash = params.get("token_hash");
  const code = params.get("code");
  const type = params.get("type") ?? "signup";
  // A recovery link works on /auth/reset only.
  if (tokenHash && tokenHash.length <= 200 && (type === "signup" || type === "email"))
    return !(await api.verifyOtp({ tokenHash, type })).error;
  if (code && code.length <= 200) return !(await api.exchangeCodeForSession(code)).error;
  return false;
}

/** The name in the header: the username, else the email's local part; "(profile error)" when unreadable. */
export async function userDisplayName(api: BackendRequest, user: User): Promise<string> {
  const { username, error } = await api.getProfile(user.id);
  if (error) {
    getLog().error({ err: error.message }, "profile read failed");
    return displayName({ state: "error" });
  }
  return displayName({ state: "ready", username, email: user.email });
}
