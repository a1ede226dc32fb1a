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
import { readOrderRow, type Order, type QueuedOrder } from "~/domain/orders";
import { TOO_MANY_MESSAGES, type BackendError, type BackendRequest, type User } from "../backend/port.server";
import { getLog } from "../platform/log.server";
import { readQueueRow } from "./mixer.server";
import { nudgeOrderEmails } from "./order-emails.server";

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
  const { rows, error } = await api.listQueue({
    status: null,
    unpaid: false,
    late: false,
    code, // eight characters: the prefix search matches this code only
    newestFirst: false,
    limit: 1,
    offset: 0,
  });
  if (error) failed("mixer order page: load", error);
  const order = rows[0] ? readQueueRow(rows[0]) : null;
  return order?.code === code ? order : null;
}

export type Conversation = { timeline: TimelineEntry[]; open: boolean };

export async function openConversation(api: BackendRequest, order: Order, side: Side): Promise<Conversation> {
  const { rows, error } = await api.listMessages(order.id);
  if (error) failed("conversation: load", error);
  const marked = await api.markOrderRead(order.code, side);
  if (marked.error) getLog().error({ code: marked.error.code, err: marked.error.message }, "conversation: mark read failed");
  const messages = rows.map(readMessageRow).filter((m): m is Message => m !== null);
  return { timeline: orderTimeline(order, messages, side), open: conversationOpen(order) };
}

export type SendOutcome = { ok: true; id: string } | { ok: false; status: number; message: string };

export async function sendMessage(api: BackendRequest, order: Order, side: Side, raw: string | null): Promise<SendOutcome> {
  const read = readMessageBody(raw);
  if ("error" in read) return { ok: false, status: 400, message: read.error };
  if (!conversationOpen(order)) return { ok: false, status: 409, message: CONVERSATION_COPY.closed };
  const { id, error } = await api.postMessage({ orderId: order.id, fromMixer: side === "mixer", body: read.body });
  if (error || id === null) {
    // The order was readable a moment ago: a refusal now is the conversation closing.
    if (error?.code === "42501") return { ok: false, status: 409, message: CONVERSATION_COPY.closed };
    if (error?.code === "23514") return { ok: false, status: 400, message: CONVERSATION_COPY.controlCharacters };
    if (error?.code === TOO_MANY_MESSAGES) return { ok: false, status: 429, message: CONVERSATION_COPY.tooMany };
    getLog().error({ code: error?.code, err: error?.message }, "message: insert failed");
    return { ok: false, status: 400, message: COPY.errors.badRequest };
  }
  nudgeOrderEmails();
  return { ok: true, id };
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

/** The shopper opens an order's page: its replies are read (before any loader, so the header's count leaves them out). */
export async function markRepliesRead(api: BackendRequest, code: string | undefined): Promise<void> {
  if (!isOrderCode(code)) return;
  const marked = await api.markOrderRead(code, "shopper");
  if (marked.error) getLog().error({ code: marked.error.code, err: marked.error.message }, "conversation: mark read failed");
}

/** The mixer's messages the shopper has not seen yet, by order code. */
export async function unseenReplies(api: BackendRequest): Promise<Map<string, number>> {
  return new Map((await unread(api, "shopper")).map((r) => [r.code, r.unread]));
}
