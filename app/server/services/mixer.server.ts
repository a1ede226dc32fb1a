import { stringify } from "csv-stringify/sync";
import type { RouterContextProvider } from "react-router";
import { findDesign } from "~/domain/catalogue";
import { COPY } from "~/domain/copy";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { optionLabels } from "~/domain/deck";
import { shopperName } from "~/domain/display-name";
import { majorUnits } from "~/domain/money";
import type { MixerIntent, ShopperIntent } from "~/domain/intents";
import { dueAt, isLate, readOrderRow, type QueuedOrder } from "~/domain/orders";
import { filterScope, QUEUE_PAGE_SIZE, type QueueQuery } from "~/domain/queue";
import { formatPlaced } from "~/domain/text";
import type { BackendRequest, OrderChange, QueueRead, User } from "../backend/port.server";
import { backendOf, userContext } from "../context.server";
import { getConfig } from "../platform/config.server";
import { notFound } from "../platform/http.server";
import { getLog } from "../platform/log.server";
import { nudgeOrderEmails } from "./order-emails.server";

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
  return { ...order, shopper: { name: shopperName(row, { username, email }), email }, late: isLate(order) };
}

type ListQuery = Pick<QueueQuery, "filter" | "code" | "invalidCode">;

const readQuery = (query: ListQuery, limit: number, offset: number): QueueRead | null =>
  query.invalidCode ? null : { ...filterScope(query.filter), code: query.code, limit, offset };

export async function queuePage(api: BackendRequest, query: QueueQuery): Promise<{ orders: QueuedOrder[]; hasNext: boolean }> {
  const read = readQuery(query, QUEUE_PAGE_SIZE + 1, (query.page - 1) * QUEUE_PAGE_SIZE);
  if (!read) return { orders: [], hasNext: false };
  const { rows, error } = await api.listQueue(read);
  if (error) getLog().error({ code: error.code, err: error.message }, "mixer queue: load failed");
  const orders = rows.map(readQueueRow).filter((o): o is QueuedOrder => o !== null);
  return { orders: orders.slice(0, QUEUE_PAGE_SIZE), hasNext: orders.length > QUEUE_PAGE_SIZE };
}

export type ChangeOutcome = { ok: true; message: string } | { ok: false; message: string };

function changeOf(intent: MixerIntent | ShopperIntent): { change: OrderChange; done: string } {
  const now = (state: Parameters<typeof COPY.orders.nowStatus>[1]) => COPY.orders.nowStatus(intent.code, state);
  switch (intent.intent) {
    case "start-mixing":
      return { change: { to: "mixing" }, done: now("mixing") };
    case "mark-sent":
      return { change: { to: "sent", deliveryUrl: intent.deliveryUrl, message: intent.message }, done: now("sent") };
    case "mark-paid":
      return { change: { paid: true }, done: now("paid") };
    case "mark-refunded":
      return { change: { refunded: true }, done: now("refunded") };
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
  const { change, done } = changeOf(intent);
  const { updated, error } = await api.updateOrder(intent.code, change);
  if (error) {
    getLog().error({ code: error.code, err: error.message }, "order update failed");
    return { ok: false, message: COPY.errors.badRequest };
  }
  if (!updated) return { ok: false, message: CONSOLE_COPY.alreadyUpdated };
  nudgeOrderEmails();
  return { ok: true, message: done };
}

const CSV_PAGE = 500;
const CSV_COLUMNS = [
  "code",
  "placed at",
  "shopper",
  "email",
  "status",
  "paid",
  "paid amount",
  "currency",
  "paid by",
  "cancelled",
  "refunded",
  "due",
  "tracks",
  "design",
  "options",
  "note",
];

export function ordersCsv(api: BackendRequest, query: ListQuery): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const mixer = getConfig().MIXER_NAME;
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      const read = readQuery(query, CSV_PAGE, offset);
      const { rows, error } = read ? await api.listQueue(read) : { rows: [], error: null };
      if (error) return controller.error(new Error(error.message));
      const orders = rows.map(readQueueRow).filter((o): o is QueuedOrder => o !== null);
      controller.enqueue(encoder.encode(csvRows(orders, mixer, offset === 0)));
      offset += CSV_PAGE;
      if (rows.length < CSV_PAGE) controller.close();
    },
  });
}

/** A cell that starts like a formula (=, +, -, @) is kept as text: CSV injection. */
export function csvRows(orders: QueuedOrder[], mixer: string, header: boolean): string {
  const records = orders.map((o) => [
    o.code,
    formatPlaced(o.created_at),
    o.shopper.name,
    o.shopper.email ?? "",
    o.status,
    o.paid ? "yes" : "no",
    o.paid_amount === null ? "" : majorUnits(o.paid_amount, o.paid_currency),
    o.paid_currency ?? "",
    o.paid_via ?? "",
    o.cancelled_at ? formatPlaced(o.cancelled_at) : "",
    o.refunded_at ? formatPlaced(o.refunded_at) : o.refunded ? "yes" : "",
    formatPlaced(dueAt(o)),
    o.tracks.map((t, i) => `${i + 1}. ${t.title}`).join("; "),
    findDesign(o.design_id)?.name ?? "",
    optionLabels(o.toggles, mixer).join("; "),
    o.note,
  ]);
  return stringify(records, { header, columns: CSV_COLUMNS, escape_formulas: true, quoted_string: false });
}
