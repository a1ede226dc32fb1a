// The Backend port: the product's calls to its hosted backend (auth, profiles,
// orders), answered in Supabase's shape ({ error: { message, code } }). Services see
// only this; the SQL adapter (PGlite or PostgreSQL) and the Supabase adapter implement it.
import { readMessageRow, type Message, type Side } from "~/domain/conversation";
import type { NewOrder, OrderStatus, PaymentProvider } from "~/domain/orders";

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
  /**
   * Email link: a token hash with its type ("signup"/"email" confirms the address,
   * "recovery" is a password-reset link and confirms it too). Single use. Starts a session.
   */
  verifyOtp(input: { tokenHash: string; type: string }): Promise<{ error: BackendError | null }>;
  /** Email link, PKCE flavour (Supabase only; the SQL adapter answers with an error). */
  exchangeCodeForSession(code: string): Promise<{ error: BackendError | null }>;
  /**
   * Forgot password: emails a recovery link (to redirectTo, with token_hash and
   * type=recovery; valid for 1 hour, single use, an older unused one stops working) when
   * the address has an account. The same answer for any address; the SQL adapter queues
   * the request (authEmails sends it), so the same work, too.
   */
  resetPasswordForEmail(input: { email: string; redirectTo: string }): Promise<{ error: BackendError | null }>;
  /**
   * Resend: a fresh confirmation link for an address that has an unconfirmed account
   * (older links stop working); nothing for any other address, with the same answer.
   */
  resend(input: { type: "signup"; email: string; emailRedirectTo: string }): Promise<{ error: BackendError | null }>;
  /**
   * The signed-in user's new password. Ends every other session of the user and the
   * user's outstanding email links (as GoTrue does); refuses the current password
   * (code same_password).
   */
  updateUser(input: { password: string }): Promise<{ error: BackendError | null }>;
  /**
   * Sign out. Default: revokes this session on the server and clears the cookie.
   * scope "others": ends every other session of the user and keeps this one.
   */
  signOut(options?: { scope?: "others" }): Promise<{ error: BackendError | null }>;
  /**
   * Password-reset windows of the signed-in user (public.recovery_windows, under RLS):
   * open one (its id is the SHA-256 of the browser's token) until a deadline, ask whether
   * one is open, and take one (deleted: its deadline when it was open, else null). The
   * first reset takes the window, so a replay finds nothing.
   */
  openRecoveryWindow(id: string, until: Date): Promise<{ error: BackendError | null }>;
  recoveryWindowOpen(id: string): Promise<boolean>;
  takeRecoveryWindow(id: string): Promise<{ until: Date | null; error: BackendError | null }>;
  /** Username lookup through the security-definer function. */
  usernameExists(username: string): Promise<{ exists: boolean; error: BackendError | null }>;
  /**
   * The server's own lookup of a username's account (never sent to a browser): its
   * email and whether that email is confirmed. Null when there is no such account, or
   * when this backend cannot look (Supabase without its service role key).
   */
  findAccountByUsername(username: string): Promise<{ account: UsernameAccount | null; error: BackendError | null }>;
  /** Display name: profiles select username where id = user id (single or none). */
  getProfile(userId: string): Promise<{ username: string | null; error: BackendError | null }>;
  /** Submit order: mixtapes insert, one row. */
  insertOrder(order: NewOrder): Promise<{ error: BackendError | null }>;
  /**
   * The mixer's queue: orders with their shopper's username and email, unfinished
   * first and oldest first (or newest first). RLS shows a shopper only their own.
   */
  listQueue(query: QueueRead): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;
  /**
   * Changes one order only while it is in the state the change leaves (received →
   * mixing, mixing → sent, received or mixing → cancelled, unpaid → paid, paid → refunded):
   * false when it was not (already updated, not found, or not this user's to change). A
   * shopper may only cancel their own received order.
   */
  updateOrder(code: string, change: OrderChange): Promise<{ updated: boolean; error: BackendError | null }>;
  /** The storefront's view of the shop: open or not, its message, and whether the queue is full. */
  shopStatus(): Promise<{ status: ShopStatus | null; error: BackendError | null }>;
  /** The shop's settings (anyone reads them) and a mixer's change of them (RLS: mixers only). */
  shopSettings(): Promise<{ settings: ShopSettings | null; error: BackendError | null }>;
  saveShopSettings(settings: ShopSettings): Promise<{ saved: boolean; error: BackendError | null }>;
  /** Payments a checkout reported for no known order, newest first (mixers only). */
  unmatchedPayments(): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;
  /** A mixer attaches one of them to an order by its code. */
  attachPayment(
    provider: PaymentProvider,
    eventId: string,
    code: string,
  ): Promise<{ outcome: AttachOutcome | null; error: BackendError | null }>;
  /**
   * List orders: all columns where user_id = user id, newest first (ties: the later id
   * first); optionally one code, and optionally one page of that order (`limit` rows
   * after skipping `offset`).
   */
  listOrders(
    userId: string,
    filter?: { code?: string; page?: { limit: number; offset: number } },
  ): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;

  // ---- The shopper owns the account (issue 26) ----
  /**
   * Change email (GoTrue's updateUser({ email })): the new address waits until its link
   * (to emailRedirectTo's /account/email, 1 hour, single use) is opened; the old one
   * keeps working and is told. Supabase answers email_exists for an address of another
   * account; the SQL adapter answers that one like any other.
   */
  changeEmail(input: { email: string; emailRedirectTo: string }): Promise<{ error: BackendError | null }>;
  /** The address the signed-in user's email change waits for, or null. */
  pendingEmail(): Promise<{ email: string | null; error: BackendError | null }>;
  /**
   * The email change link: single use. done: the address changed (and this browser is
   * signed in); false when Supabase's secure email change still waits for the other link.
   */
  confirmEmailChange(tokenHash: string): Promise<{ done: boolean; error: BackendError | null }>;
  /** Ends every other session of the signed-in user: how many, where the backend knows (null on Supabase). */
  signOutOthers(): Promise<{ ended: number | null; error: BackendError | null }>;
  /**
   * Deletes the signed-in user's account in one transaction (the database's
   * erase_account trigger keeps the anonymised orders), signs this browser out and mails
   * the address a last email. Code not_configured: Supabase without its service role key.
   */
  deleteUser(): Promise<{ error: BackendError | null }>;
  /** The signed-in user's own rows, read as that user (RLS), for "Download my data". */
  exportData(): Promise<{ data: AccountRows | null; error: BackendError | null }>;

  // ---- An order's conversation, and the shop's insights (issue 25) ----
  /** The order's messages (id, from_mixer, body, created_at), oldest first; RLS: its shopper and the mixers. */
  listMessages(orderId: string): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;
  /**
   * Stores a message written by the caller: the order's shopper (fromMixer false) or a
   * mixer (fromMixer true), while the conversation is open. Anyone else, or a closed
   * conversation, is refused by RLS (42501) and nothing is stored. Its id once stored.
   */
  postMessage(message: {
    orderId: string;
    fromMixer: boolean;
    body: string;
  }): Promise<{ id: string | null; error: BackendError | null }>;
  /** Marks the order's conversation read for one side; false when the caller is not on that side of it. */
  markOrderRead(code: string, side: Side): Promise<{ marked: boolean; error: BackendError | null }>;
  /** Each order with unread messages for this side (code, unread, since: the oldest's time); RLS decides which orders. */
  unreadMessages(side: Side): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;
  /** The shop's insights, one aggregate (public.shop_insights); mixers only, anyone else gets 42501. */
  insights(window: InsightsWindow): Promise<{ insights: Record<string, unknown> | null; error: BackendError | null }>;
}

/** What "Download my data" reads: the profile, every order (each row whole), its messages, the order emails to the address. */
export type AccountRows = {
  profile: { username: string | null; created_at: unknown } | null;
  orders: Record<string, unknown>[];
  messages: Record<string, unknown>[];
  emails: Record<string, unknown>[];
};

/** The error code of a deletion this server cannot do (Supabase without SUPABASE_SERVICE_ROLE_KEY). */
export const NOT_CONFIGURED = "not_configured";

/** The insights' periods: weeks of orders and revenue, the due days, and the turnaround's days. */
export type InsightsWindow = { weeks: number; dueDays: number; turnaroundDays: number };

export type UsernameAccount = { email: string; confirmed: boolean };

export type ShopSettings = { open: boolean; closedMessage: string; maxOpenOrders: number | null };
export type ShopStatus = { open: boolean; closedMessage: string; full: boolean };
export type AttachOutcome = "attached" | "no_order" | "already_paid" | "gone";

/** One checkout event, as a verified webhook reported it (amount in minor units). */
export type PaymentEvent = {
  provider: PaymentProvider;
  eventId: string;
  kind: "payment" | "refund";
  code: string | null;
  amount: number | null;
  currency: string | null;
  reference: string | null;
};
export type PaymentOutcome = "duplicate" | "paid" | "already_paid" | "unmatched" | "refunded" | "already_refunded";

/** The SQLSTATEs of the shop's refusal of a new order (mixtapes_admit). */
export const SHOP_CLOSED = "MXCLS";
export const SHOP_FULL = "MXFUL";

export type QueueRead = {
  status: OrderStatus | null;
  unpaid: boolean;
  /** The beginning of an order code (A–Z, 0–9). */
  code: string | null;
  newestFirst: boolean;
  /** Open orders past their due date only, oldest first. */
  late: boolean;
  limit: number;
  offset: number;
};

export type OrderChange =
  | { to: "mixing" }
  | { to: "sent"; deliveryUrl: string | null; message: string | null }
  | { to: "cancelled"; from: "received" | "mixing"; reason: string | null }
  | { paid: true }
  | { refunded: true };

/**
 * An order change as columns: what it sets, and the values the row must still hold (the
 * state the change leaves), so a replayed or concurrent change finds nothing to update.
 */
export function changeColumns(change: OrderChange): { set: Record<string, unknown>; when: Record<string, unknown> } {
  if ("paid" in change) return { set: { paid: true }, when: { paid: false } };
  if ("refunded" in change) return { set: { refunded: true }, when: { paid: true, refunded: false } };
  if (change.to === "mixing") return { set: { status: "mixing" }, when: { status: "received" } };
  if (change.to === "sent")
    return {
      set: { status: "sent", delivery_url: change.deliveryUrl, mixer_message: change.message },
      when: { status: "mixing" },
    };
  return { set: { status: "cancelled", cancel_reason: change.reason }, when: { status: change.from } };
}

/** One queued order email, with what it needs to be written. */
export type QueuedEmail = {
  id: string;
  kind: "received" | "new_order" | "sent" | "paid" | "refunded" | "cancelled" | "message";
  recipient: string;
  attempts: number;
  order: Record<string, unknown>;
  shopper: { username: string | null; email: string | null };
  /** The message a "message" email is about; null for the others. */
  message: Message | null;
};

/** A row of public.claim_order_emails(), as both adapters receive it. */
export function readQueuedEmail(row: Record<string, unknown>): QueuedEmail {
  const { id, kind, recipient, attempts, username, email, order_row, message } = row;
  const order = typeof order_row === "string" ? JSON.parse(order_row) : order_row;
  const about = typeof message === "string" ? JSON.parse(message) : message;
  return {
    id: String(id),
    kind: kind as QueuedEmail["kind"],
    recipient: String(recipient),
    attempts: Number(attempts),
    order: order && typeof order === "object" ? (order as Record<string, unknown>) : {},
    shopper: { username: typeof username === "string" ? username : null, email: typeof email === "string" ? email : null },
    message: about && typeof about === "object" ? readMessageRow(about as Record<string, unknown>) : null,
  };
}

/** The webhooks' side: one provider event recorded with the order change it causes, once. */
export interface PaymentLedger {
  record(event: PaymentEvent): Promise<PaymentOutcome>;
}

/** The worker's side of the order emails queue (claims are leased; finish records the outcome). */
export interface EmailQueue {
  claim(batch: number): Promise<QueuedEmail[]>;
  finish(id: string, error: string | null): Promise<void>;
}

export type BackendKind = "embedded" | "postgres" | "supabase";

export interface Backend {
  readonly kind: BackendKind;
  forRequest(request: Request): BackendRequest;
  /** The order emails queue; null where this server cannot read it (Supabase without its service role key). */
  readonly emails: EmailQueue | null;
  /**
   * Sends the due reset and confirmation emails that resetPasswordForEmail and resend
   * queued (the SQL modes); null where the auth service sends its own (Supabase).
   */
  readonly authEmails: { send(): Promise<void> } | null;
  /** The checkout's payment events; null where this server cannot write them (Supabase without its service role key). */
  readonly payments: PaymentLedger | null;
  /** Makes the database's mixer list equal to these addresses (the SQL modes; Supabase keeps its own). */
  syncMixers(emails: readonly string[]): Promise<void>;
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
