// GDPR Art. 15 and 20: every field is picked by name, so another person's id or a new column never slips in.
import { optionLabels } from "./deck";
import { orderEmailSubject, ORDER_EMAIL_KINDS, type OrderEmailKind } from "./email-subjects";
import { formatMoney } from "./money";
import { readOrderRow } from "./orders";
import { tapeFileName } from "./tape";

export type AccountRowsInput = {
  email: string | null;
  profile: { username: string | null; created_at: unknown } | null;
  orders: Record<string, unknown>[];
  messages: Record<string, unknown>[];
  emails: Record<string, unknown>[];
};

const time = (value: unknown): string | null => {
  const date = value instanceof Date ? value : typeof value === "string" ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
};
const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** The file's name: mixtape-data-{username}.json (an account without a username: its user id's start). */
export function exportFileName(username: string | null, userId: string): string {
  const name = username && /^[A-Za-z0-9_.-]+$/.test(username) ? username : `account-${userId.slice(0, 8)}`;
  return `mixtape-data-${name}.json`;
}

export function buildAccountExport(rows: AccountRowsInput, mixerName: string, now = new Date()) {
  const messagesOf = (orderId: string) =>
    rows.messages
      .filter((m) => String(m.order_id) === orderId)
      .map((m) => ({ from: m.from_mixer === true ? "the shop" : "you", body: text(m.body) ?? "", sentAt: time(m.created_at) }));

  const orders = rows.orders.flatMap((row) => {
    const order = readOrderRow(row);
    if (!order) return [];
    return [
      {
        code: order.code,
        placedAt: order.created_at,
        status: order.status,
        codename: order.codename,
        // As it was sold (the order's own copy of the design's name).
        design: order.design_id ? { id: order.design_id, name: order.design?.name ?? null } : null,
        tracks: order.tracks.map((t, i) => ({ position: i + 1, id: t.id, title: t.title })),
        options: optionLabels(order.toggles, mixerName),
        note: order.note,
        history: {
          placedAt: order.created_at,
          mixingAt: order.mixing_at,
          sentAt: order.sent_at,
          cancelledAt: order.cancelled_at,
          cancelledBy: order.cancelled_at ? (order.cancelled_by_shopper ? "you" : "the shop") : null,
          cancelReason: order.cancel_reason,
        },
        // The ledger's sums per currency, net of refunds, and each movement of money.
        payment: {
          paid: order.paid,
          totals: order.money.lines.map((l) => ({
            currency: l.currency,
            ...(l.test ? { test: true } : {}),
            paid: formatMoney(l.paid, l.currency),
            refunded: formatMoney(l.refunded, l.currency),
            net: formatMoney(l.net, l.currency),
            netMinorUnits: l.net,
            refundDue: formatMoney(l.due, l.currency),
          })),
          movements: order.money.movements.map((m) => ({
            kind: m.kind,
            via: m.provider,
            amount: formatMoney(m.amount, m.currency),
            amountMinorUnits: m.amount,
            currency: m.currency,
            at: m.at,
            ...(m.test ? { test: true } : {}),
            ...(m.kind === "dispute" ? { status: m.status, reason: m.reason } : {}),
          })),
        },
        delivery: { link: order.delivery_url, message: order.mixer_message },
        // The tape's facts, never a link to it (a link would outlive the session it needs).
        tape: order.tape
          ? {
              name: tapeFileName(order.codename, order.code, order.tape.ext),
              sizeBytes: order.tape.size,
              durationSeconds: order.tape.durationSeconds,
              uploadedAt: order.tape.uploadedAt,
              deletedAt: order.tape.deletedAt,
            }
          : null,
        messages: messagesOf(order.id),
      },
    ];
  });

  const emails = rows.emails.flatMap((e) => {
    const kind = e.kind as OrderEmailKind;
    const code = text(e.code);
    if (!ORDER_EMAIL_KINDS.includes(kind) || !code) return [];
    return [{ subject: orderEmailSubject(kind, code), order: code, queuedAt: time(e.created_at), sentAt: time(e.sent_at) }];
  });

  return {
    exportedAt: now.toISOString(),
    profile: {
      username: rows.profile?.username ?? null,
      email: rows.email,
      createdAt: time(rows.profile?.created_at),
    },
    orders,
    emails,
  };
}

export type AccountExport = ReturnType<typeof buildAccountExport>;
