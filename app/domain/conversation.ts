// An order's conversation: its messages, the rule for what may be sent, when it closes,
// and the timeline that shows the order's changes and its messages in one list.
import { COPY } from "./copy";
import type { Order } from "./orders";
import { textLength } from "./text";

/** A message holds 1 to 1,000 characters (code points, as the database counts). */
export const MESSAGE_MAX = 1000;
/** Messages may be sent until this many days after an order is sent or cancelled. */
export const CONVERSATION_DAYS = 30;

/** Which page a conversation is read from: the shopper's or the console's. */
export type Side = "shopper" | "mixer";

export type Message = { id: string; fromMixer: boolean; body: string; created_at: string };

/** The form field of a message, and the intent it is posted with. */
export const MESSAGE_INTENT = "message";
export const MESSAGE_FIELD = "body";

/** What a message form's action answers: sent, or refused with the text to put back; `unsent`: it never reached the server. */
export type MessageResult = { ok: true } | { ok: false; error: string; body: string; unsent?: true };

/** True for a message that never reached the server: reloading the page now would fail too. */
export const isUnsent = (result: unknown) =>
  !!result && typeof result === "object" && (result as { unsent?: unknown }).unsent === true;

/** True for a control character the database refuses: any but the newline (C0, DEL and C1). */
const isRefusedControl = (code: number) => (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);

/** The message as typed, ready to store (newlines as \n, trimmed), or the reason it cannot be sent. */
export function readMessageBody(raw: string | null | undefined): { body: string } | { error: string } {
  // Far over the limit is a malformed request, not a typing slip; the same answer either way.
  if (typeof raw !== "string" || raw.length > MESSAGE_MAX * 8) return { error: COPY.conversation.tooLong(MESSAGE_MAX) };
  const body = raw.replace(/\r\n?/g, "\n").trim();
  if (body === "") return { error: COPY.conversation.empty };
  if (textLength(body) > MESSAGE_MAX) return { error: COPY.conversation.tooLong(MESSAGE_MAX) };
  for (let i = 0; i < body.length; i++) {
    if (isRefusedControl(body.charCodeAt(i))) return { error: COPY.conversation.controlCharacters };
  }
  return { body };
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Open until CONVERSATION_DAYS after the order was sent or cancelled (the policy
 * order_conversation_open of supabase/migrations says the same).
 */
export function conversationOpen(
  order: Pick<Order, "status" | "sent_at" | "cancelled_at" | "created_at">,
  now = new Date(),
): boolean {
  if (order.status !== "sent" && order.status !== "cancelled") return true;
  const ended = order.sent_at ?? order.cancelled_at ?? order.created_at;
  return new Date(ended).getTime() > now.getTime() - CONVERSATION_DAYS * DAY_MS;
}

/** Reads a stored message row tolerantly; null without an id or a body. */
export function readMessageRow(row: Record<string, unknown>): Message | null {
  const { id, from_mixer, body, created_at } = row;
  if ((typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint") || typeof body !== "string") return null;
  const at = created_at instanceof Date ? created_at : typeof created_at === "string" ? new Date(created_at) : null;
  if (!at || Number.isNaN(at.getTime())) return null;
  return { id: String(id), fromMixer: from_mixer === true, body, created_at: at.toISOString() };
}

export type OrderEvent = "placed" | "mixing" | "paid" | "sent" | "cancelled" | "refunded";

export type TimelineEntry =
  | { kind: "event"; event: OrderEvent; at: string }
  | { kind: "message"; id: string; fromMixer: boolean; body: string; at: string };

/**
 * Placed, mixing, paid, sent, cancelled and refunded, each with its time, and every
 * message, oldest first (a change and a message at the same instant: the change first).
 */
export function orderTimeline(
  order: Pick<Order, "created_at" | "mixing_at" | "paid_at" | "sent_at" | "cancelled_at" | "refunded_at">,
  messages: readonly Message[],
): TimelineEntry[] {
  const events: [OrderEvent, string | null][] = [
    ["placed", order.created_at],
    ["mixing", order.mixing_at],
    ["paid", order.paid_at],
    ["sent", order.sent_at],
    ["cancelled", order.cancelled_at],
    ["refunded", order.refunded_at],
  ];
  const entries: TimelineEntry[] = [
    ...events.flatMap(([event, at]) => (at ? [{ kind: "event" as const, event, at }] : [])),
    ...messages.map((m) => ({ kind: "message" as const, id: m.id, fromMixer: m.fromMixer, body: m.body, at: m.created_at })),
  ];
  // Array.prototype.sort is stable: equal times keep the order above.
  return entries.sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
}

/** The unread messages of one side, per order code, as the backend counts them. */
export type Unread = { code: string; unread: number; since: string };

export function readUnreadRow(row: Record<string, unknown>): Unread | null {
  const { code, unread, since } = row;
  const n = Number(unread);
  const at = since instanceof Date ? since : typeof since === "string" ? new Date(since) : null;
  if (typeof code !== "string" || !Number.isSafeInteger(n) || n <= 0 || !at || Number.isNaN(at.getTime())) return null;
  return { code, unread: n, since: at.toISOString() };
}
