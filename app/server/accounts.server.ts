// Account flows with the spec's rules and copy, over any Backend adapter.
import { COPY } from "~/domain/copy";
import { EMAIL_RE } from "~/domain/schemas";
import type { BackendRequest } from "./backend.server";
import { passwordProblem } from "./passwords.server";

export type AuthOutcome = { ok: true } | { ok: false; message: string };

/**
 * Spec section 5: an identifier that is not an email is a username. Not found:
 * "Username not found."; found: it still fails with the username-login message.
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
      return { ok: false, message: error.code === "23505" ? COPY.auth.usernameTaken : COPY.auth.couldNotSetUsername + error.message };
    }
    return { ok: false, message: error.message };
  }
  return { ok: true, userId };
}
