import { AUTH_COPY, ACCOUNT_COPY } from "~/domain/copy-auth";
import { displayName } from "~/domain/display-name";
import { EMAIL_RE } from "~/domain/schemas";
import { passwordProblem, randomToken, sha256 } from "../backend/passwords.server";
import type { BackendRequest, User } from "../backend/port.server";
import { RECOVERY_WINDOW_SECONDS } from "../platform/cookies.server";
import { getLog } from "../platform/log.server";

export type AuthOutcome = { ok: true } | { ok: false; message: string; unconfirmed?: true };
export type LoginOutcome = AuthOutcome | { ok: false; retryAfter: number };

const NOT_CONFIRMED = "email_not_confirmed";

/** One budget of guesses per account, so a username cannot dodge the per-account limit. */
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

/** Weak passwords are refused before the backend is asked anything. */
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

// The routes run these after answering: whether an address has an account must not show, even in timing.

export async function sendPasswordReset(api: BackendRequest, email: string, origin: string): Promise<void> {
  const { error } = await api.resetPasswordForEmail({ email, redirectTo: new URL("/auth/reset", origin).toString() });
  if (error) throw new Error(error.message);
}

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

export const inRecoveryWindow = (api: BackendRequest, token: string | null) =>
  token ? api.recoveryWindowOpen(sha256(token)) : Promise.resolve(false);

async function newPasswordProblem(api: BackendRequest, user: User, password: string): Promise<string | null> {
  const { username } = await api.getProfile(user.id);
  return passwordProblem(password, { username: username ?? undefined, email: user.email ?? undefined });
}

/** GoTrue has done it already (the SQL adapter too), so a failure is only logged. */
async function endOtherSessions(api: BackendRequest) {
  const { error } = await api.signOut({ scope: "others" });
  if (error) getLog().warn({ err: error.message }, "ending the other sessions failed");
}

/** Taking the window first makes it single use; a refused password gives it back. */
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

/** Signing in again checks the current password and gives this browser a new session. */
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

export async function userDisplayName(api: BackendRequest, user: User): Promise<string> {
  const { username, error } = await api.getProfile(user.id);
  if (error) {
    getLog().error({ err: error.message }, "profile read failed");
    return displayName({ state: "error" });
  }
  return displayName({ state: "ready", username, email: user.email });
}

/** Ends this browser's session on the server (the backend's cookies are cleared in the answer). */
export async function logOut(api: BackendRequest): Promise<void> {
  const { error } = await api.signOut();
  if (error) getLog().warn({ code: error.code, err: error.message }, "logout: the session was not ended on the server");
}
