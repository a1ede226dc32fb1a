// Account flows with the product's rules and copy, over any Backend adapter.
import { COPY } from "~/domain/copy";
import { displayName } from "~/domain/display-name";
import { EMAIL_RE } from "~/domain/schemas";
import { passwordProblem } from "../backend/passwords.server";
import type { BackendRequest, User } from "../backend/port.server";
import { getLog } from "../platform/log.server";

export type AuthOutcome = { ok: true } | { ok: false; message: string };

/**
 * An identifier that is not an email is a username. Not found: "Username not found.";
 * found: it still fails with the username-login message (only email login works).
 */
export async function logIn(api: BackendRequest, identifier: string, password: string): Promise<AuthOutcome> {
  if (!EMAIL_RE.test(identifier)) {
    const { exists, error } = await api.usernameExists(identifier);
    if (error) return { ok: false, message: error.message };
    return { ok: false, message: exists ? COPY.auth.usernameLogin : COPY.auth.usernameNotFound };
  }
  const { error } = await api.signInWithPassword({ email: identifier, password });
  return error ? { ok: false, message: error.message } : { ok: true };
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
  if (!taken.error && taken.exists) return { ok: false, message: COPY.auth.usernameTaken };
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
        message: error.code === "23505" ? COPY.auth.usernameTaken : COPY.auth.couldNotSetUsername + error.message,
      };
    }
    return { ok: false, message: error.message };
  }
  return { ok: true, userId };
}

/** The email link: a token hash (or Supabase's PKCE code) starts a session; true when it did. */
export async function confirmEmail(api: BackendRequest, params: URLSearchParams): Promise<boolean> {
  const tokenHash = params.get("token_hash");
  const code = params.get("code");
  if (tokenHash && tokenHash.length <= 200)
    return !(await api.verifyOtp({ tokenHash, type: params.get("type") ?? "signup" })).error;
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
