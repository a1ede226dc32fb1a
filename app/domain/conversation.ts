import { CONVERSATION_COPY } from "./copy-orders";
import { formatMoney, type OrderMoney } from "./money";
import type { OrderStatus } from "./order-status";
import { textLength } from "./text";

/** The facts of an order these rules read: orders.ts's Order has them (it reads tapes, which read this). */
type Order = {
  status: OrderStatus;
  created_at: string;
  mixing_at: string | null;
  sent_at: string | null;
  cancelled_at: string | null;
  money: OrderMoney;
};

/** Counted in code points, as the database counts. */
export const MESSAGE_MAX = 1000;
export const CONVERSATION_DAYS = 30;

export type Side = "shopper" | "mixer";

export type Message = { id: string; fromMixer: boolean; body: string; created_at: string };

export const MESSAGE_INTENT = "message";
export const MESSAGE_FIELD = "body";

export type MessageResult = { ok: true } | { ok: false; error: string; body: string; unsent?: true };

/** The database refuses every control character but the newline. */
const isRefusedControl = (code: number) => (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);

export function readMessageBody(raw: string | null | undefined): { body: string } | { error: string } {
  // Far over the limit is a malformed request, not a typing slip; the same answer either way.
  if (typeof raw !== "string" || raw.length > MESSAGE_MAX * 8) return { error: CONVERSATION_COPY.tooLong(MESSAGE_MAX) };
  const body = raw.replace(/\r\n?/g, "\n").trim();
  if (body === "") return { error: CONVERSATION_COPY.empty };
  if (textLength(body) > MESSAGE_MAX) return { error: CONVERSATION_COPY.tooLong(MESSAGE_MAX) };
  for (let i = 0; i < body.length; i++) {
    if (isRefusedControl(body.charCodeAt(i))) return { error: CONVERSATION_COPY.controlCharacters };
  }
  return { body };
}

const DAY_MS = 24 * 3600 * 1000;

/** The policy order_conversation_open in supabase/migrations says the same. */
export function conversationOpen(
  order: Pick<Order, "status" | "sent_at" | "cancelled_at" | "created_at">,
  now = new Date(),
): boolean {
  if (order.status !== "sent" && order.status !== "cancelled") return true;
  const ended = order.sent_at ?? order.cancelled_at ?? order.created_at;
  return new Date(ended).getTime() > now.getTime() - CONVERSATION_DAYS * DAY_MS;
}

export function readMessageRow(row: Record<string, unknown>): Message | null {
  const { id, from_mixer, body, created_at } = row;
  if ((typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint") || typeof body !== "string") return null;
  const at = created_at instanceof Date ? created_at : typeof created_at === "string" ? new Date(created_at) : null;
  if (!at || Number.isNaN(at.getTime())) return null;
  return { id: String(id), fromMixer: from_mixer === true, body, created_at: at.toISOString() };
}

export type OrderEvent = "placed" | "mixing" | "paid" | "sent" | "cancelled" | "refunded" | "disputed";

export type TimelineEntry =
  | {
      kind: "event";
      event: OrderEvent;
      at: string;
      /** A payment's, refund's or dispute's amount ("$12.00"), and a dispute's status and reason. */
      amount?: string | null;
      detail?: string | null;
    }
  | { kind: "message"; id: string; fromMixer: boolean; body: string; at: string };

const MOVEMENT_EVENTS = { payment: "paid", refund: "refunded", dispute: "disputed" } as const;

/** The order's changes, its money as the ledger moved it (disputes for the mixer only), and its messages, oldest first. */
export function orderTimeline(
  order: Pick<Order, "created_at" | "mixing_at" | "sent_at" | "cancelled_at" | "money">,
  messages: readonly Message[],
  side: Side = "shopper",
  /** A dispute's reason and status in words (the console's copy); raw without it. */
  disputeWords: (reason: string | null, status: string | null) => (string | null)[] = (reason, status) => [reason, status],
): TimelineEntry[] {
  const changes: [OrderEvent, string | null][] = [
    ["placed", order.created_at],
    ["mixing", order.mixing_at],
    ["sent", order.sent_at],
    ["cancelled", order.cancelled_at],
  ];
  const money = order.money.movements
    .filter((m) => side === "mixer" || m.kind !== "dispute")
    .map((m) => ({
      kind: "event" as const,
      event: MOVEMENT_EVENTS[m.kind],
      at: m.at,
      amount: formatMoney(m.amount, m.currency),
      detail:
        [
          ...(m.kind === "dispute" ? disputeWords(m.reason, m.status) : []),
          m.test && CONVERSATION_COPY.movement.test,
          m.extra && CONVERSATION_COPY.movement.extra,
          side === "mixer" && m.flagged && CONVERSATION_COPY.movement.flagged,
        ]
          .filter(Boolean)
          .join(", ") || null,
    }));
  const entries: TimelineEntry[] = [
    ...changes.flatMap(([event, at]) => (at ? [{ kind: "event" as const, event, at }] : [])),
    ...money,
    ...messages.map((m) => ({ kind: "message" as const, id: m.id, fromMixer: m.fromMixer, body: m.body, at: m.created_at })),
  ];
  // Array.prototype.sort is stable: a change and a message at the same instant keep the change first.
  return entries.sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
}

export type Unread = { code: string; unread: number; since: string };

export function readUnreadRow(row: Record<string, unknown>): Unread | null {
  const { code, unread, since } = row;
  const n = Number(unread);
  const at = since instanceof Date ? since : typeof since === "string" ? new Date(since) : null;
  if (typeof code !== "string" || !Number.isSafeInteger(n) || n <= 0 || !at || Number.isNaN(at.getTime())) return null;
  return { code, unread: n, since: at.toISOString() };
}
