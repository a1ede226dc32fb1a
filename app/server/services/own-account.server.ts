// The current password is checked by signing in again; the route limits those guesses like logins.
import { buildAccountExport, exportFileName } from "~/domain/account-export";
import { ACCOUNT_COPY, OWN_ACCOUNT_COPY } from "~/domain/copy-auth";
import { NOT_CONFIGURED, type BackendRequest, type User } from "../backend/port.server";
import { getConfig } from "../platform/config.server";
import { getLog } from "../platform/log.server";
import { readShop } from "./catalogue.server";

export type Outcome = { ok: true } | { ok: false; message: string };

async function passwordProblem(api: BackendRequest, user: User, password: string): Promise<string | null> {
  if (!user.email) return ACCOUNT_COPY.wrongCurrentPassword;
  const { error } = await api.signInWithPassword({ email: user.email, password });
  if (!error) return null;
  return error.code === "invalid_credentials" ? ACCOUNT_COPY.wrongCurrentPassword : error.message;
}

/** The account page: the username and an email change waiting for its link (a failed read shows none). */
export async function accountDetails(api: BackendRequest, user: User) {
  const [{ username, error }, pending] = await Promise.all([api.getProfile(user.id), api.pendingEmail()]);
  if (error) getLog().error({ code: error.code, err: error.message }, "account: profile read failed");
  return { username, pendingEmail: pending.email };
}

export async function exportAccount(api: BackendRequest, user: User): Promise<{ fileName: string; body: string } | null> {
  const [{ data, error }, { words }] = await Promise.all([api.exportData(), readShop(api)]);
  if (!data) {
    getLog().error({ code: error?.code, err: error?.message }, "account export failed");
    return null;
  }
  const doc = buildAccountExport({ email: user.email, ...data }, words.mixerName);
  return { fileName: exportFileName(data.profile?.username ?? null, user.id), body: `${JSON.stringify(doc, null, 2)}\n` };
}

/** An address that belongs to another account gets the same answer. */
export async function requestEmailChange(
  api: BackendRequest,
  user: User,
  input: { newEmail: string; currentPassword: string },
  origin: string,
): Promise<Outcome> {
  if (user.email && input.newEmail.toLowerCase() === user.email.toLowerCase())
    return { ok: false, message: OWN_ACCOUNT_COPY.sameEmail };
  const wrong = await passwordProblem(api, user, input.currentPassword);
  if (wrong) return { ok: false, message: wrong };
  const { error } = await api.changeEmail({
    email: input.newEmail,
    emailRedirectTo: new URL("/account/email", origin).toString(),
  });
  // Supabase refuses another account's address with email_exists: that answer must not differ.
  if (error && error.code !== "email_exists") {
    getLog().warn({ code: error.code, err: error.message }, "email change refused");
    return { ok: false, message: error.message };
  }
  return { ok: true };
}

/** halfway: Supabase's secure change waits for the other address's link. */
export async function confirmEmailChange(api: BackendRequest, params: URLSearchParams): Promise<"done" | "halfway" | "invalid"> {
  const tokenHash = params.get("token_hash");
  if (!tokenHash || tokenHash.length > 200 || params.get("type") !== "email_change") return "invalid";
  const { done, error } = await api.confirmEmailChange(tokenHash);
  if (error) return "invalid";
  return done ? "done" : "halfway";
}

export async function signOutEverywhereElse(api: BackendRequest): Promise<{ ok: boolean; message: string }> {
  const { ended, error } = await api.signOutOthers();
  if (error) return { ok: false, message: error.message };
  return { ok: true, message: OWN_ACCOUNT_COPY.otherSessionsEnded(ended) };
}

export function accountDeletionConfigured(config = getConfig()): boolean {
  return config.backendKind !== "supabase" || Boolean(config.SUPABASE_SERVICE_ROLE_KEY);
}

export async function deleteAccount(api: BackendRequest, user: User, currentPassword: string): Promise<Outcome> {
  const wrong = await passwordProblem(api, user, currentPassword);
  if (wrong) return { ok: false, message: wrong };
  const { error } = await api.deleteUser();
  if (!error) {
    // The account's tapes were queued in the delete's transaction: their files go now, or the worker retries.
    await api.queued.tapeFiles.wake();
    return { ok: true };
  }
  if (error.code === NOT_CONFIGURED) return { ok: false, message: OWN_ACCOUNT_COPY.deleteNotConfigured };
  getLog().error({ code: error.code, err: error.message }, "account deletion failed");
  return { ok: false, message: error.message };
}
