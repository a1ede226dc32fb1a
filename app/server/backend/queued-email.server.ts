// A row of the email queue (claim_order_emails), as the email worker reads it: every field checked,
// since the row is JSON assembled by SQL.
import { readMessageRow, type Message } from "~/domain/conversation";

export type QueuedEmail = {
  id: string;
  kind: "received" | "new_order" | "sent" | "paid" | "refunded" | "cancelled" | "message";
  recipient: string;
  attempts: number;
  order: Record<string, unknown>;
  shopper: { username: string | null; email: string | null };
  /** A message email's messages, gathered over its window, oldest first. */
  messages: Message[];
  /** The ledger row a payment or refund email is about; a payment that joined an order already paid says so. */
  entry: { amount: number | null; currency: string | null; runningTotal: boolean; orderWasPaid: boolean } | null;
  /** It spends its shopper's email budget with this mixer: the last about their orders for a while. */
  closesBudget: boolean;
};

const jsonOf = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);

export function readQueuedEmail(row: Record<string, unknown>): QueuedEmail {
  const { id, kind, recipient, attempts, username, email } = row;
  const order = jsonOf(row.order_row);
  const messages = jsonOf(row.messages);
  const entry = jsonOf(row.entry) as Record<string, unknown> | null;
  return {
    id: String(id),
    kind: kind as QueuedEmail["kind"],
    recipient: String(recipient),
    attempts: Number(attempts),
    order: order && typeof order === "object" ? (order as Record<string, unknown>) : {},
    shopper: { username: typeof username === "string" ? username : null, email: typeof email === "string" ? email : null },
    messages: (Array.isArray(messages) ? messages : []).flatMap((m) => readMessageRow(m) ?? []),
    entry:
      entry && typeof entry === "object"
        ? {
            amount: typeof entry.amount === "number" ? entry.amount : null,
            currency: typeof entry.currency === "string" ? entry.currency : null,
            runningTotal: entry.running_total === true,
            orderWasPaid: entry.order_was_paid === true,
          }
        : null,
    closesBudget: row.closes_budget === true,
  };
}
