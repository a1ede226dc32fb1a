// The Backend port: the product's calls to its hosted backend (auth, profiles,
// orders), answered in Supabase's shape ({ error: { message, code } }). Services see
// only this; the SQL adapter (PGlite or PostgreSQL) and the Supabase adapter implement it.
import type { NewOrder } from "~/domain/orders";

export type User = { id: string; email: string | null };
export type BackendError = {
  message: string;
  code?: string;
  status?: number;
  /** "username" when the failure came from storing the username. */
  step?: "username";
};

export interface BackendRequest {
  /** Set-Cookie and other headers that every response to this request must carry. */
  readonly headers: Headers;
  /** Session: the signed-in user, or null. */
  getUser(): Promise<User | null>;
  /** Sign in: password sign-in with email and password. Starts a new session. */
  signInWithPassword(input: { email: string; password: string }): Promise<{ error: BackendError | null }>;
  /**
   * Sign up: email, password, the username in the metadata, and the email redirect
   * (the site's own origin). Sends the confirmation email. userId is null when the
   * backend does not reveal it.
   */
  signUp(input: {
    email: string;
    password: string;
    username: string;
    emailRedirectTo: string;
  }): Promise<{ userId: string | null; error: BackendError | null }>;
  /** Email link: a token hash with its type. Starts a session. */
  verifyOtp(input: { tokenHash: string; type: string }): Promise<{ error: BackendError | null }>;
  /** Email link, PKCE flavour (Supabase only; the SQL adapter answers with an error). */
  exchangeCodeForSession(code: string): Promise<{ error: BackendError | null }>;
  /** Sign out: revokes the session on the server and clears the cookie. */
  signOut(): Promise<void>;
  /** Username lookup through the security-definer function. */
  usernameExists(username: string): Promise<{ exists: boolean; error: BackendError | null }>;
  /** Display name: profiles select username where id = user id (single or none). */
  getProfile(userId: string): Promise<{ username: string | null; error: BackendError | null }>;
  /** Submit order: mixtapes insert, one row. */
  insertOrder(order: NewOrder): Promise<{ error: BackendError | null }>;
  /** List orders: all columns where user_id = user id, newest first; optionally one code. */
  listOrders(
    userId: string,
    filter?: { code?: string },
  ): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;
}

export type BackendKind = "embedded" | "postgres" | "supabase";

export interface Backend {
  readonly kind: BackendKind;
  forRequest(request: Request): BackendRequest;
  /** True when the database answers. */
  health(): Promise<boolean>;
  close(): Promise<void>;
}

/** Thrown by an adapter when its database cannot be reached; the request answers 503. */
export class BackendUnavailableError extends Error {
  constructor(cause: unknown) {
    super("The database is unavailable.", { cause });
    this.name = "BackendUnavailableError";
  }
}
