import { DISPUTE_COPY } from "~/domain/copy-console";
import {
  conversationOpen,
  orderTimeline,
  readMessageBody,
  readMessageRow,
  readUnreadRow,
  type Message,
  type Side,
  type TimelineEntry,
  type Unread,
} from "~/domain/conversation";
import { COPY } from "~/domain/copy";
import { CONVERSATION_COPY } from "~/domain/copy-orders";
import { isOrderCode } from "~/domain/order-code";
import { DUE_DAYS, readOrderRow, type Order, type QueuedOrder } from "~/domain/orders";
import { TOO_MANY_MESSAGES, type BackendError, type BackendRequest, type User } from "../backend/port.server";
import { getLog } from "../platform/log.server";
import { readQueueRow } from "./mixer.server";

function failed(what: string, error: BackendError): never {
  getLog().error({ code: error.code, err: error.message }, `${what} failed`);
  throw new Response(null, { status: 500 });
}

export async function shopperOrder(api: BackendRequest, user: User, code: string | undefined): Promise<Order | null> {
  if (!isOrderCode(code)) return null;
  const { rows, error } = await api.listOrders(user.id, { code });
  if (error) failed("order page: load", error);
  return rows[0] ? readOrderRow(rows[0]) : null;
}

export async function mixerOrder(api: BackendRequest, code: string | undefined): Promise<QueuedOrder | null> {
  if (!isOrderCode(code)) return null;
  // The search forgives look-alikes: a code stored before the alphabet may read as this one.
  const { rows, error } = await api.listQueue({
    status: null,
    unpaid: false,
    late: false,
    code,
    newestFirst: false,
    dueDays: DUE_DAYS,
    limit: 5,
    after: null,
    backward: false,
  });
  if (error) failed("mixer order page: load", error);
  const row = rows.find((r) => r.code === code);
  return row ? readQueueRow(row) : null;
}

export type Conversation = { timeline: TimelineEntry[]; open: boolean };

/**
 * An order page's order and conversation, asked at once so they share the request's one trip
 * (the messages are read by the order's code); null when the order is not the caller's.
 */
export async function openOrder<O extends Order>(
  api: BackendRequest,
  code: string | undefined,
  side: Side,
  fetchOrder: (code: string) => Promise<O | null>,
): Promise<({ order: O } & Conversation) | null> {
  if (!isOrderCode(code)) return null;
  const [order, listed] = await Promise.all([fetchOrder(code), api.listMessages(code)]);
  if (!order) return null;
  if (listed.error) failed("conversation: load", listed.error);
  const messages = listed.rows.map(readMessageRow).filter((m): m is Message => m !== null);
  const words =
    side === "mixer" ? (reason: string | null, status: string | null) => DISPUTE_COPY.words(reason, status) : undefined;
  return { order, timeline: orderTimeline(order, messages, side, words), open: conversationOpen(order) };
}

/**
 * Opening an order's page marks its conversation read for this side. The page's middleware
 * starts it before any loader, so it is the first call of the request's one transaction and every
 * read after it (the header's unread count, the mixer's inbox) leaves these messages out. Its
 * answer is not waited for; a failure is logged (an outage fails the loaders' own calls: 503).
 */
export function markReadOnOpen(api: BackendRequest, code: string | undefined, side: Side): void {
  if (!isOrderCode(code)) return;
  api.markOrderRead(code, side).then(
    (marked) => {
      if (marked.error) getLog().error({ code: marked.error.code, err: marked.error.message }, "conversation: mark read failed");
    },
    () => {},
  );
}

export type SendOutcome = { ok: true; id: string } | { ok: false; status: number; message: string };

/**
 * A message about the order, written by its code beside the order's own read (one trip); null
 * when the order is not the caller's. The policies refuse a closed conversation.
 */
export async function sendMessage<O extends Order>(
  api: BackendRequest,
  code: string | undefined,
  side: Side,
  raw: string | null,
  fetchOrder: (code: string) => Promise<O | null>,
): Promise<{ order: O; outcome: SendOutcome } | null> {
  if (!isOrderCode(code)) return null;
  const read = readMessageBody(raw);
  if ("error" in read) {
    const order = await fetchOrder(code);
    return order && { order, outcome: { ok: false, status: 400, message: read.error } };
  }
  const [order, { id, error }] = await Promise.all([
    fetchOrder(code),
    api.postMessage({ code, fromMixer: side === "mixer", body: read.body }),
  ]);
  if (!order) return null;
  if (error || id === null) {
    if (error?.code === "42501" || !conversationOpen(order))
      return { order, outcome: { ok: false, status: 409, message: CONVERSATION_COPY.closed } };
    if (error?.code === "23514")
      return { order, outcome: { ok: false, status: 400, message: CONVERSATION_COPY.controlCharacters } };
    if (error?.code === TOO_MANY_MESSAGES)
      return { order, outcome: { ok: false, status: 429, message: CONVERSATION_COPY.tooMany } };
    getLog().error({ code: error?.code, err: error?.message }, "message: insert failed");
    return { order, outcome: { ok: false, status: 400, message: COPY.errors.badRequest } };
  }
  void api.queued.orderEmails.wake();
  return { order, outcome: { ok: true, id } };
}

async function unread(api: BackendRequest, side: Side): Promise<Unread[]> {
  const { rows, error } = await api.unreadMessages(side);
  if (error) getLog().error({ code: error.code, err: error.message }, "unread messages: load failed"); // counts show as none
  return rows.map(readUnreadRow).filter((u): u is Unread => u !== null);
}

export type Inbox = { total: number; first: string | null; byCode: Record<string, number> };

export async function mixerInbox(api: BackendRequest): Promise<Inbox> {
  const rows = (await unread(api, "mixer")).sort((a, b) => a.since.localeCompare(b.since));
  return {
    total: rows.reduce((sum, r) => sum + r.unread, 0),
    first: rows[0]?.code ?? null,
    byCode: Object.fromEntries(rows.map((r) => [r.code, r.unread])),
  };
}

const repliesOfRequest = new WeakMap<BackendRequest, Promise<Map<string, number>>>();

/** The mixer's messages the shopper has not seen yet, by order code: read once a request (the header and a page both ask). */
export function unseenReplies(api: BackendRequest): Promise<Map<string, number>> {
  let replies = repliesOfRequest.get(api);
  if (!replies) {
    replies = unread(api, "shopper").then((rows) => new Map(rows.map((r) => [r.code, r.unread])));
    repliesOfRequest.set(api, replies);
  }
  return replies;
}
