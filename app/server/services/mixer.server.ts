import type { RouterContextProvider } from "react-router";
import { COPY } from "~/domain/copy";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { ORDERS_COPY } from "~/domain/copy-orders";
import { optionLabels } from "~/domain/deck";
import { shopperName } from "~/domain/display-name";
import { formatMoney, liveLines, majorUnits, type MoneyLine } from "~/domain/money";
import type { MixerIntent, ShopperIntent } from "~/domain/order-intents";
import { DUE_DAYS, dueAt, isLate, readOrderRow, type QueuedOrder } from "~/domain/orders";
import {
  cursorPage,
  filterScope,
  QUEUE_PAGE_SIZE,
  readQueueCounts,
  readQueueCursor,
  type QueueCounts,
  type QueueCursor,
  type QueueQuery,
} from "~/domain/queue";
import type { BackendRequest, OrderChange, QueueRead, User } from "../backend/port.server";
import { backendOf, userContext } from "../context.server";
import { getConfig } from "../platform/config.server";
import { csvDecimal, csvText, type CsvCell } from "../platform/csv.server";
import { notFound } from "../platform/http.server";
import { getLog } from "../platform/log.server";

/** The database enforces the same list. */
export const isMixer = (user: User | null) => !!user?.email && getConfig().mixerEmails.includes(user.email.toLowerCase());

/** Anyone else gets the ordinary 404 page. */
export function requireMixer(context: Readonly<RouterContextProvider>): { user: User; api: BackendRequest } {
  const user = context.get(userContext);
  if (!user || !isMixer(user)) throw notFound();
  return { user, api: backendOf(context) };
}

export function readQueueRow(row: Record<string, unknown>): QueuedOrder | null {
  const order = readOrderRow(row);
  if (!order) return null;
  const username = typeof row.username === "string" ? row.username : null;
  const email = typeof row.email === "string" ? row.email : null;
  return {
    ...order,
    shopper: { name: shopperName(row, { username, email }), email },
    late: isLate(order),
    markToken: crypto.randomUUID(),
  };
}

type ListQuery = Pick<QueueQuery, "filter" | "code" | "invalidCode">;

const readQuery = (query: ListQuery, limit: number, after: QueueCursor | null, backward = false): QueueRead => ({
  ...filterScope(query.filter),
  code: query.code,
  dueDays: DUE_DAYS,
  limit,
  after,
  backward,
});

type ReadOrder = { row: Record<string, unknown>; order: QueuedOrder };
const queuedOrders = (rows: Record<string, unknown>[]): ReadOrder[] =>
  rows.flatMap((row) => {
    const order = readQueueRow(row);
    return order ? [{ row, order }] : [];
  });

/** The orders of a page and the cursors of its neighbours: `before` the page's first place, `after` its last (null: no page there). */
export type QueuePage = { orders: QueuedOrder[]; before: string | null; after: string | null };

async function readPage(api: BackendRequest, query: QueueQuery, cursor: QueueCursor | null, backward: boolean, limit: number) {
  const { rows, error } = await api.listQueue(readQuery(query, limit, cursor, backward));
  if (error) getLog().error({ code: error.code, err: error.message }, "mixer queue: load failed");
  return queuedOrders(rows).map(({ row, order }) => ({ item: order, cursor: row.cursor }));
}

/** A page of the queue: the first, the one after a cursor, or the one before it (cursorPage: one that leads nowhere, the first). */
export async function queuePage(api: BackendRequest, query: QueueQuery): Promise<QueuePage> {
  if (query.invalidCode) return { orders: [], before: null, after: null };
  const { items, before, after } = await cursorPage(query, QUEUE_PAGE_SIZE, (cursor, backward, limit) =>
    readPage(api, query, cursor, backward, limit),
  );
  return { orders: items, before, after };
}

/** How many orders each filter holds, for the search typed; none when they cannot be read. */
export async function queueCounts(api: BackendRequest, query: QueueQuery): Promise<QueueCounts | null> {
  if (query.invalidCode) return null;
  const { counts, error } = await api.queueCounts({ code: query.code, dueDays: DUE_DAYS });
  if (error) getLog().error({ code: error.code, err: error.message }, "mixer queue: counts failed");
  return readQueueCounts(counts);
}

export type ChangeOutcome = { ok: true; message: string } | { ok: false; message: string };

type StatusIntent = Exclude<MixerIntent | ShopperIntent, { intent: "mark-paid" | "mark-refunded" | "undo-mark" }>;

function changeOf(intent: StatusIntent): { change: OrderChange; done: string } {
  const now = (state: Parameters<typeof ORDERS_COPY.nowStatus>[1]) => ORDERS_COPY.nowStatus(intent.code, state);
  switch (intent.intent) {
    case "start-mixing":
      return { change: { to: "mixing" }, done: now("mixing") };
    case "mark-sent":
      return { change: { to: "sent", deliveryUrl: intent.deliveryUrl, message: intent.message }, done: now("sent") };
    case "cancel":
      return {
        change: {
          to: "cancelled",
          from: "from" in intent ? intent.from : "received",
          reason: "reason" in intent ? intent.reason : null,
        },
        done: now("cancelled"),
      };
  }
}

export async function changeOrder(api: BackendRequest, intent: MixerIntent | ShopperIntent): Promise<ChangeOutcome> {
  if (intent.intent === "mark-paid" || intent.intent === "mark-refunded") return markMoney(api, intent);
  if (intent.intent === "undo-mark") return undoMark(api, intent);
  const { change, done } = changeOf(intent);
  const { updated, error } = await api.updateOrder(intent.code, change);
  if (error) {
    getLog().error({ code: error.code, err: error.message }, "order update failed");
    return { ok: false, message: COPY.errors.badRequest };
  }
  if (!updated) return { ok: false, message: CONSOLE_COPY.alreadyUpdated };
  void api.queued.orderEmails.wake();
  return { ok: true, message: done };
}

/** "Mark Paid" and "Mark Refunded" by hand: a ledger row with the amount the mixer typed. */
async function markMoney(
  api: BackendRequest,
  intent: Extract<MixerIntent, { intent: "mark-paid" | "mark-refunded" }>,
): Promise<ChangeOutcome> {
  const { code, amount, currency, token } = intent;
  const kind = intent.intent === "mark-paid" ? "payment" : "refund";
  const { outcome, error } = await api.markMoney(code, { kind, amount, currency, token });
  if (error) {
    getLog().error({ code: error.code, err: error.message }, "money mark failed");
    return { ok: false, message: COPY.errors.badRequest };
  }
  const money = formatMoney(amount, currency) ?? `${amount} ${currency}`;
  if (outcome === "paid") return { ok: true, message: ORDERS_COPY.paymentRecorded(money, code) };
  if (outcome === "refunded") return { ok: true, message: ORDERS_COPY.refundRecorded(money, code) };
  if (outcome === "over") return { ok: false, message: CONSOLE_COPY.refundTooMuch };
  if (outcome === "no_order") return { ok: false, message: CONSOLE_COPY.notFound };
  return { ok: false, message: CONSOLE_COPY.alreadyUpdated };
}

/** A mark by hand undone, while the database still lets it be (the newest row of its order, within its window). */
async function undoMark(
  api: BackendRequest,
  { code, event }: Extract<MixerIntent, { intent: "undo-mark" }>,
): Promise<ChangeOutcome> {
  const { undone, error } = await api.undoMoneyMark(code, event);
  if (error) {
    getLog().error({ code: error.code, err: error.message }, "money mark undo failed");
    return { ok: false, message: COPY.errors.badRequest };
  }
  if (!undone) return { ok: false, message: CONSOLE_COPY.undoGone };
  void api.queued.orderEmails.wake();
  return { ok: true, message: CONSOLE_COPY.undone(code) };
}

const CSV_PAGE = 500;
const CSV_COLUMNS = [
  "code",
  "placed at",
  "shopper",
  "email",
  "status",
  "currency",
  "paid",
  "refunded",
  "disputed",
  "net",
  "refund due",
  "payments",
  "cancelled",
  "due",
  "tracks",
  "design",
  "options",
  "note",
];

/** mixer: the shop's words' mixer name (the options' labels), asked with the first page (one transaction). */
export function ordersCsv(api: BackendRequest, query: ListQuery, mixerName: () => Promise<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let named: Promise<string> | null = null;
  let after: QueueCursor | null = null;
  let first = true;
  return new ReadableStream({
    async pull(controller) {
      const [{ rows, error }, mixer] = await Promise.all([
        query.invalidCode ? { rows: [], error: null } : api.listQueue(readQuery(query, CSV_PAGE, after)),
        (named ??= mixerName()),
      ]);
      if (error) return controller.error(new Error(error.message));
      const read = queuedOrders(rows);
      controller.enqueue(
        encoder.encode(
          csvRows(
            read.map((o) => o.order),
            mixer,
            first,
          ),
        ),
      );
      first = false;
      // The next chunk starts after the last row's place in the list.
      after = readQueueCursor(read.at(-1)?.row.cursor as string | undefined);
      if (rows.length < CSV_PAGE || !after) controller.close();
    },
  });
}

/** A time as payments.csv writes it: ISO 8601 in UTC, which a spreadsheet reads without guessing. */
const isoTime = (iso: string) => new Date(iso).toISOString();

/** The live money only (test money is in payments.csv); every cell through the one CSV home. */
export function csvRows(orders: QueuedOrder[], mixer: string, header: boolean): string {
  // The ledger's sums, one value per currency ("; " between them), in each currency's major units.
  const sums = (lines: MoneyLine[], pick: (l: MoneyLine) => number): CsvCell => {
    const values = lines.map((l) => (l.currency ? majorUnits(pick(l), l.currency) : ""));
    return values.length === 1 ? csvDecimal(values[0]) : values.join("; ");
  };
  const records = orders.map((o) => {
    const lines = liveLines(o.money);
    return [
      o.code,
      isoTime(o.created_at),
      o.shopper.name,
      o.shopper.email ?? "",
      o.status,
      lines.map((l) => l.currency ?? "").join("; "),
      sums(lines, (l) => l.paid),
      sums(lines, (l) => l.refunded),
      sums(lines, (l) => l.disputed),
      sums(lines, (l) => l.net),
      sums(lines, (l) => l.due),
      String(lines.reduce((n, l) => n + l.payments, 0)),
      o.cancelled_at ? isoTime(o.cancelled_at) : "",
      isoTime(dueAt(o)),
      o.tracks.map((t, i) => `${i + 1}. ${t.title}`).join("; "),
      o.design?.name ?? "",
      optionLabels(o.toggles, mixer).join("; "),
      o.note,
    ];
  });
  return csvText(records, CSV_COLUMNS, header);
}
