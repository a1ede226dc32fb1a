// The Backend port, answered in Supabase's shape; the SQL and Supabase adapters implement it.
import type { Side } from "~/domain/conversation";
import type { LedgerFilter } from "~/domain/ledger";
import type { DbStats } from "../platform/db-stats.server";
import type { MoneyKind } from "~/domain/money";
import type { OrderStatus } from "~/domain/order-status";
import type { QueueCursor } from "~/domain/queue";
import type { NewOrder, PaidVia, PaymentProvider } from "~/domain/orders";
import type { ShopWords } from "~/domain/shop-words";
import type { QueuedEmail } from "./queued-email.server";

export type User = { id: string; email: string | null };
export type BackendError = {
  message: string;
  code?: string;
  status?: number;
  step?: "username";
};

export interface BackendRequest {
  /** Set-Cookie and other headers that every response to this request must carry. */
  readonly headers: Headers;
  /** Its backend's: a call that queued work for a worker of this process wakes it. */
  readonly queued: QueuedWork;
  getUser(): Promise<User | null>;
  signInWithPassword(input: { email: string; password: string }): Promise<{ error: BackendError | null }>;
  /** Sends the confirmation email; userId is null when the backend does not reveal it. */
  signUp(input: {
    email: string;
    password: string;
    username: string;
    emailRedirectTo: string;
  }): Promise<{ userId: string | null; error: BackendError | null }>;
  /** "signup"/"email" confirm the address; "recovery" is a reset link and confirms it too. Single use. */
  verifyOtp(input: { tokenHash: string; type: string }): Promise<{ error: BackendError | null }>;
  /** PKCE flavour: Supabase only; the SQL adapter answers with an error. */
  exchangeCodeForSession(code: string): Promise<{ error: BackendError | null }>;
  /** The same answer for any address (and the same work: the SQL adapter queues it) so accounts cannot be probed. */
  resetPasswordForEmail(input: { email: string; redirectTo: string }): Promise<{ error: BackendError | null }>;
  /** Older links stop working; any other address gets the same answer. */
  resend(input: { type: "signup"; email: string; emailRedirectTo: string }): Promise<{ error: BackendError | null }>;
  /** Ends the user's other sessions and outstanding email links, as GoTrue does; refuses the current password. */
  updateUser(input: { password: string }): Promise<{ error: BackendError | null }>;
  signOut(options?: { scope?: "others" }): Promise<{ error: BackendError | null }>;
  /** The window's id is the SHA-256 of the browser's token; the first reset takes it, so a replay finds nothing. */
  openRecoveryWindow(id: string, until: Date): Promise<{ error: BackendError | null }>;
  recoveryWindowOpen(id: string): Promise<boolean>;
  takeRecoveryWindow(id: string): Promise<{ until: Date | null; error: BackendError | null }>;
  usernameExists(username: string): Promise<{ exists: boolean; error: BackendError | null }>;
  /** Server-side only, never sent to a browser; null when Supabase has no service role key. */
  findAccountByUsername(username: string): Promise<{ account: UsernameAccount | null; error: BackendError | null }>;
  getProfile(userId: string): Promise<{ username: string | null; error: BackendError | null }>;
  insertOrder(order: NewOrder): Promise<{ error: BackendError | null }>;
  /** A page of the queue (public.queue_page), each row with its money, tape and cursor; RLS shows a shopper only their own orders. */
  listQueue(query: QueueRead): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;
  /** Changes the order only from the state the change leaves, so a replayed or concurrent change is a no-op. */
  updateOrder(code: string, change: OrderChange): Promise<{ updated: boolean; error: BackendError | null }>;
  shopStatus(): Promise<{ status: ShopStatus | null; error: BackendError | null }>;
  /** RLS: only mixers may save. */
  shopSettings(): Promise<{ settings: ShopSettings | null; error: BackendError | null }>;
  saveShopSettings(settings: ShopSettings): Promise<{ saved: boolean; error: BackendError | null }>;
  /** The ledger's rows, newest first (RLS: mixers read every row, a shopper only their orders'). */
  ledger(query: LedgerRead): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;
  /** Mixers only: "Mark Paid" or "Mark Refunded" by hand, once per form token. */
  markMoney(code: string, mark: MoneyMark): Promise<{ outcome: MarkOutcome | null; error: BackendError | null }>;
  /** Mixers only: a mark by hand undone, while it is the order's newest row and within its window (RLS). */
  undoMoneyMark(code: string, eventId: string): Promise<{ undone: boolean; error: BackendError | null }>;
  /** Mixers only: a payment beyond the first stops being due back. */
  keepPayment(provider: PaidVia, eventId: string): Promise<{ kept: boolean; error: BackendError | null }>;
  attachPayment(
    provider: PaymentProvider,
    eventId: string,
    code: string,
  ): Promise<{ outcome: AttachOutcome | null; error: BackendError | null }>;
  /** The user's orders, newest first, each with its money, tape and cursor (public.my_orders): all, one code, or a page. */
  listOrders(
    userId: string,
    filter?: { code: string } | { page: OrdersRead },
  ): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;

  /** The old address keeps working until the new one's link is opened; the SQL adapter hides email_exists. */
  changeEmail(input: { email: string; emailRedirectTo: string }): Promise<{ error: BackendError | null }>;
  pendingEmail(): Promise<{ email: string | null; error: BackendError | null }>;
  /** done is false while Supabase's secure email change waits for the other link. */
  confirmEmailChange(tokenHash: string): Promise<{ done: boolean; error: BackendError | null }>;
  /** ended is null on Supabase, which does not say. */
  signOutOthers(): Promise<{ ended: number | null; error: BackendError | null }>;
  /** One transaction; the erase_account trigger keeps the anonymised orders. */
  deleteUser(): Promise<{ error: BackendError | null }>;
  /** Read as the user, under RLS. */
  exportData(): Promise<{ data: AccountRows | null; error: BackendError | null }>;

  /** The order's messages, by its code (RLS: its shopper and the mixers). */
  listMessages(code: string): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;
  /** By the order's code. RLS refuses a closed conversation (42501); id null when the order is not the caller's; nothing is stored. */
  postMessage(message: {
    code: string;
    fromMixer: boolean;
    body: string;
  }): Promise<{ id: string | null; error: BackendError | null }>;
  markOrderRead(code: string, side: Side): Promise<{ marked: boolean; error: BackendError | null }>;
  unreadMessages(side: Side): Promise<{ rows: Record<string, unknown>[]; error: BackendError | null }>;
  /** Mixers only; anyone else gets 42501. */
  insights(window: InsightsWindow): Promise<{ insights: Record<string, unknown> | null; error: BackendError | null }>;

  /** Mixers only: the order's tape, or a new version of a sent or downloaded one; replacedKey is the file a replacement freed. */
  saveTape(
    code: string,
    tape: NewTape,
  ): Promise<{ outcome: SaveTapeOutcome | null; replacedKey: string | null; error: BackendError | null }>;
  /**
   * Where the order's tape is, for the file route of `as`: its shopper (their own order, once it
   * is sent: the draft rule) or a mixer; null when there is nothing for this caller to fetch.
   */
  tapeFile(code: string, as: "shopper" | "mixer"): Promise<{ file: TapeFile | null; error: BackendError | null }>;
  /** Bytes of the sent tape from byte `from` reached its shopper: any byte makes it downloaded, each read from byte 0 one more download. */
  countTapeDownload(code: string, from: number): Promise<{ counted: boolean; error: BackendError | null }>;
  /** How many orders each queue filter holds (of those whose code starts with `code`); the policies decide what is counted. */
  queueCounts(query: QueueCountsRead): Promise<{ counts: Record<string, unknown> | null; error: BackendError | null }>;

  /** The songs, designs, cover backgrounds (retired ones too) and the saved words, in one call (public.shop_catalogue); anyone reads them. */
  catalogue(): Promise<{ catalogue: Record<string, unknown> | null; error: BackendError | null }>;
  /** Mixers only (42501 otherwise); "changed" when the row's version is no longer the one given: nothing is written. */
  saveSong(song: SongSave): CatalogueAnswer;
  addSong(song: NewSong): Promise<{ id: string | null; error: BackendError | null }>;
  /** "last": the shop's only song on sale is never retired. */
  setSongActive(id: string, version: number, active: boolean): CatalogueAnswer;
  saveDesign(design: DesignSave): CatalogueAnswer;
  addDesign(design: NewDesign): Promise<{ id: string | null; error: BackendError | null }>;
  setDesignActive(id: string, version: number, active: boolean): CatalogueAnswer;
  saveCoverBackground(slot: number, version: number, image: string): CatalogueAnswer;
  /** One place up (-1) or down (+1) in the mixer's order; false at the end of the list. */
  moveInCatalogue(kind: "song" | "design", id: string, by: -1 | 1): Promise<{ moved: boolean; error: BackendError | null }>;
  saveShopWords(words: SavedShopWords): Promise<{ saved: boolean; error: BackendError | null }>;
}

export type CatalogueOutcome = "saved" | "changed" | "missing" | "last";
export type CatalogueAnswer = Promise<{ outcome: CatalogueOutcome | null; error: BackendError | null }>;
/** thumbnail, previewUrl, image: null keeps the file the row has. */
export type SongSave = { id: string; version: number; title: string; thumbnail: string | null; previewUrl: string | null };
export type NewSong = { title: string; thumbnail: string; previewUrl: string };
export type DesignSave = { id: string; version: number; name: string; image: string | null; colour: string | null };
export type NewDesign = { name: string; image: string; colour: string };
export type SavedShopWords = ShopWords;

/** `notice`: the mixer's message to the shopper, posted with a new version of a tape they have (or were sent). */
export type NewTape = {
  key: string;
  fileName: string;
  contentType: string;
  size: number;
  durationSeconds: number;
  notice: string;
};
export type SaveTapeOutcome = "saved" | "replaced" | "new_version" | "no_order" | "closed";
/** Server-side only: where the store keeps a tape (no page ever gets the key). */
export type TapeFile = { key: string; codename: string | null; deleted: boolean };

/**
 * The port's calls by concern. Each adapter builds each slice in the file of that name, the same in
 * backend/sql/ and backend/supabase/ (auth.server.ts, recovery.server.ts, …); its index.server.ts joins them (joinCalls).
 */
export type AuthCalls = Pick<
  BackendRequest,
  | "getUser"
  | "signInWithPassword"
  | "signUp"
  | "verifyOtp"
  | "exchangeCodeForSession"
  | "updateUser"
  | "signOut"
  | "usernameExists"
  | "findAccountByUsername"
>;
export type RecoveryCalls = Pick<
  BackendRequest,
  "resetPasswordForEmail" | "resend" | "openRecoveryWindow" | "recoveryWindowOpen" | "takeRecoveryWindow"
>;
export type AccountCalls = Pick<
  BackendRequest,
  "getProfile" | "changeEmail" | "pendingEmail" | "confirmEmailChange" | "signOutOthers" | "deleteUser" | "exportData"
>;
export type OrderCalls = Pick<BackendRequest, "insertOrder" | "listOrders" | "listQueue" | "updateOrder">;
export type MoneyCalls = Pick<BackendRequest, "ledger" | "markMoney" | "undoMoneyMark" | "keepPayment" | "attachPayment">;
export type ConversationCalls = Pick<BackendRequest, "listMessages" | "postMessage" | "markOrderRead" | "unreadMessages">;
export type TapeCalls = Pick<BackendRequest, "saveTape" | "tapeFile" | "countTapeDownload">;
export type ShopCalls = Pick<BackendRequest, "shopStatus" | "shopSettings" | "saveShopSettings" | "insights" | "queueCounts">;
export type CatalogueCalls = Pick<
  BackendRequest,
  | "catalogue"
  | "saveSong"
  | "addSong"
  | "setSongActive"
  | "saveDesign"
  | "addDesign"
  | "setDesignActive"
  | "saveCoverBackground"
  | "moveInCatalogue"
  | "saveShopWords"
>;

/** An adapter's builders, each named as its file (auth in auth.server.ts); C is what they are built from, once a request. */
export type ConcernCalls<C> = {
  auth(ctx: C): AuthCalls;
  recovery(ctx: C): RecoveryCalls;
  account(ctx: C): AccountCalls;
  orders(ctx: C): OrderCalls;
  money(ctx: C): MoneyCalls;
  conversation(ctx: C): ConversationCalls;
  shop(ctx: C): ShopCalls;
  tapes(ctx: C): TapeCalls;
  catalogue(ctx: C): CatalogueCalls;
};

/** One request's calls, joined from the adapter's concerns. */
export function joinCalls<C>(headers: Headers, queued: QueuedWork, ctx: C, concerns: ConcernCalls<C>): BackendRequest {
  return {
    headers,
    queued,
    ...concerns.auth(ctx),
    ...concerns.recovery(ctx),
    ...concerns.account(ctx),
    ...concerns.orders(ctx),
    ...concerns.money(ctx),
    ...concerns.conversation(ctx),
    ...concerns.shop(ctx),
    ...concerns.tapes(ctx),
    ...concerns.catalogue(ctx),
  };
}

export type AccountRows = {
  profile: { username: string | null; created_at: unknown } | null;
  orders: Record<string, unknown>[];
  messages: Record<string, unknown>[];
  emails: Record<string, unknown>[];
};

/** A deletion this server cannot do (Supabase without SUPABASE_SERVICE_ROLE_KEY). */
export const NOT_CONFIGURED = "not_configured";

export type InsightsWindow = { weeks: number; dueDays: number; turnaroundDays: number };

export type UsernameAccount = { email: string; confirmed: boolean };

export type ShopSettings = { open: boolean; closedMessage: string; maxOpenOrders: number | null };
export type ShopStatus = { open: boolean; closedMessage: string; full: boolean };
export type AttachOutcome = "attached" | "no_order" | "gone";

/** Amount in minor units (domain/currency.ts); the reference names the provider's payment (a refund's and a dispute's too). */
export type PaymentEvent = {
  provider: PaymentProvider;
  eventId: string;
  kind: MoneyKind;
  code: string | null;
  amount: number | null;
  currency: string | null;
  reference: string | null;
  /** The payment's other names in this event: a Stripe charge names its payment intent and itself. */
  aliases?: string[];
  /** The amount is the refunded total so far (Stripe's charge.refunded, Lemon Squeezy's order_refunded). */
  runningTotal?: boolean;
  /** Test mode (Stripe's livemode false, Lemon Squeezy's test_mode): test money, never in the live totals. */
  test?: boolean;
  /** dueBy: the deadline for the shop's evidence (ISO), when the provider sent one (Stripe's evidence_details.due_by). */
  dispute?: { id: string | null; status: string | null; reason: string | null; dueBy?: string | null };
};
/** "test": a test-mode event, recorded as test money; "recorded": a payment of nothing, which pays for nothing. */
export type PaymentOutcome = "duplicate" | "paid" | "paid_again" | "refunded" | "disputed" | "unmatched" | "test" | "recorded";

export type MoneyMark = { kind: "payment" | "refund"; amount: number; currency: string; token: string };
export type MarkOutcome = "paid" | "refunded" | "duplicate" | "no_order" | "over";

export type LedgerRead = { provider: PaidVia | null; filter: LedgerFilter; limit: number; offset: number };

/** SQLSTATEs raised by mixtapes_admit, and by limit_order_messages. */
export const SHOP_CLOSED = "MXCLS";
export const SHOP_FULL = "MXFUL";
export const TOO_MANY_MESSAGES = "MXMSG";

export type QueueCountsRead = { code: string | null; dueDays: number };

export type QueueRead = {
  status: OrderStatus | null;
  unpaid: boolean;
  /** The orders whose code starts with it, the look-alikes O/0 and I/L/1 forgiven (public.order_code_key). */
  code: string | null;
  newestFirst: boolean;
  late: boolean;
  /** Late: open longer than this. */
  dueDays: number;
  limit: number;
  /** The orders after this place in the list (null: from the first); backward: the `limit` before it, in the list's order. */
  after: QueueCursor | null;
  backward: boolean;
};

/** A page of a shopper's orders, newest first: `limit` from the newest, or after a place (older); backward: the `limit` before it (newer), still newest first. */
export type OrdersRead = { limit: number; after: QueueCursor | null; backward: boolean };

export type OrderChange =
  | { to: "mixing" }
  | { to: "sent"; deliveryUrl: string | null; message: string | null }
  | { to: "cancelled"; from: "received" | "mixing"; reason: string | null };

/** The `when` columns make a replayed or concurrent change find nothing to update. */
export function changeColumns(change: OrderChange): { set: Record<string, unknown>; when: Record<string, unknown> } {
  if (change.to === "mixing") return { set: { status: "mixing" }, when: { status: "received" } };
  if (change.to === "sent")
    return {
      set: { status: "sent", delivery_url: change.deliveryUrl, mixer_message: change.message },
      when: { status: "mixing" },
    };
  return { set: { status: "cancelled", cancel_reason: change.reason }, when: { status: change.from } };
}

export { readQueuedEmail, type QueuedEmail } from "./queued-email.server";

export interface PaymentLedger {
  record(event: PaymentEvent): Promise<PaymentOutcome>;
}

/** Files to delete from the tape store (replaced, expired, an erased account's), retried until they are gone. */
export interface TapeJobs {
  /** Queues the files of tapes kept their days after the order was sent; how many. */
  expire(keepDays: number): Promise<number>;
  queueDeletion(key: string): Promise<void>;
  claimDeletions(batch: number): Promise<{ key: string; attempts: number }[]>;
  finishDeletion(key: string, error: string | null): Promise<void>;
}

export interface EmailQueue {
  claim(batch: number): Promise<QueuedEmail[]>;
  finish(id: string, error: string | null): Promise<void>;
}

export type BackendKind = "embedded" | "postgres" | "supabase";

/** A worker of this process woken when a request queued its work (it polls anyway); wake() settles once it has run. */
export type Wakeup = { wake(): Promise<void>; onWake(run: () => unknown): void };
/** Work queued in the database for this process's workers; server/root.ts connects each to its worker. */
export type QueuedWork = { readonly orderEmails: Wakeup; readonly tapeFiles: Wakeup };

function wakeup(): Wakeup {
  const runs: (() => unknown)[] = [];
  return { onWake: (run) => void runs.push(run), wake: async () => void (await Promise.all(runs.map((run) => run()))) };
}
/** One per backend: each adapter makes its own, and hands it to every request. */
export const queuedWork = (): QueuedWork => ({ orderEmails: wakeup(), tapeFiles: wakeup() });

/** A table of the database that this app's processes share, as its owner (rate-limiter-flexible's Postgres store). */
export type CountsTable = { query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };

export interface Backend {
  readonly kind: BackendKind;
  /** stats: the request's database counts (the SQL adapter adds to them; db-stats.server.ts). */
  forRequest(request: Request, stats?: DbStats): BackendRequest;
  /** Null where this server cannot read it (Supabase without its service role key). */
  readonly emails: EmailQueue | null;
  /** Null where the auth service sends its own (Supabase). */
  readonly authEmails: { send(): Promise<void> } | null;
  /** Null where this server cannot write them (Supabase without its service role key). */
  readonly payments: PaymentLedger | null;
  /** The tape store's chores, as the table's owner; null where this server cannot (Supabase without its service role key). */
  readonly tapes: TapeJobs | null;
  readonly queued: QueuedWork;
  /** Where the rate limits count: mixtape_meta.rate_limits on PostgreSQL; null: in memory (PGlite is one process's, Supabase no connection of ours). */
  readonly rateLimitCounts: CountsTable | null;
  /** The SQL modes only; Supabase keeps its own list. */
  syncMixers(emails: readonly string[]): Promise<void>;
  /**
   * True when this is the only app process on the database, held until close (PGlite: its data-dir
   * lock already says so); false when another holds it; null when the backend cannot tell (Supabase).
   */
  claimSoleProcess(): Promise<boolean | null>;
  health(): Promise<boolean>;
  /** Migrations this build knows and the database has not applied; null where the app does not apply them (Supabase). */
  pendingMigrations(): Promise<string[] | null>;
  close(): Promise<void>;
}

/** The request answers 503. */
export class BackendUnavailableError extends Error {
  constructor(cause: unknown) {
    super("The database is unavailable.", { cause });
    this.name = "BackendUnavailableError";
  }
}
