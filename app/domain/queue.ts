import { codeSearchKey } from "./order-code";
import type { OrderStatus } from "./order-status";

export const QUEUE_FILTERS = ["all", "received", "mixing", "sent", "cancelled", "unpaid", "late"] as const;
export type QueueFilter = (typeof QUEUE_FILTERS)[number];
/** A page of the console's queue, as Shopify's admin lists orders: a cursor per page, never a count to skip. */
export const QUEUE_PAGE_SIZE = 25;

/** A page of My Mixtapes: the shopper's orders, newest first, by the same cursor. */
export const ORDERS_PAGE_SIZE = 20;

/**
 * A place in the queue's order (finished, then placed, then id: ties on the time never skip or repeat an
 * order), as public.orders_read writes it: "0_2026-12-11T09:30:00.123456Z_42", the time to the microsecond.
 * My Mixtapes' order (placed, then id, newest first) reads only its time and id.
 */
export type QueueCursor = { finished: boolean; at: string; id: string };

const CURSOR_RE = /^([01])_(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})Z_([1-9]\d{0,17})$/;

/** A cursor from a URL: null for anything the database did not write (the page then is the first). */
export function readQueueCursor(text: string | null | undefined): QueueCursor | null {
  const m = text ? CURSOR_RE.exec(text) : null;
  if (!m) return null;
  const [, finished, seconds, micros, id] = m;
  // A real time: the calendar's own (no 31 February), from year 1.
  const date = new Date(`${seconds}.${micros.slice(0, 3)}Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 19) !== seconds || seconds.startsWith("0000")) return null;
  return { finished: finished === "1", at: `${seconds}.${micros}Z`, id };
}

/** Where a page of a list read by cursor starts: after a row's place, or before it; neither: the first page. */
export type PagePlace = { after: string | null; before: string | null };

/** The place a URL names; a cursor the database did not write (an old `?page=N` too) names the first page. */
export function readPagePlace(params: URLSearchParams): PagePlace {
  const after = readQueueCursor(params.get("after")) ? params.get("after") : null;
  const before = !after && readQueueCursor(params.get("before")) ? params.get("before") : null;
  return { after, before };
}

/** The query string of `params` and a page's place (`null`, the first page: no place). */
export function pageSearch(page: PagePlace | null, params = new URLSearchParams()): string {
  if (page?.after) params.set("after", page.after);
  else if (page?.before) params.set("before", page.before);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** A row read for a page, and its place in the list (its cursor as the database wrote it). */
export type PlacedRow<T> = { item: T; cursor: unknown };
/** A page's rows, and the places of its neighbours: `before` its first row's, `after` its last's (null: no page there). */
export type CursorPage<T> = { items: T[] } & PagePlace;

/**
 * The page at `place` of a list read `size` at a time: `read` gives the `limit` rows after a cursor in the
 * list's order (from the start without one), or with `backward` the `limit` rows before it, still in the
 * list's order. One row more than a page tells whether another follows. A cursor that leads nowhere
 * (tampered, or stale: nothing after it now, or the start of the list before it) gets the first page.
 */
export async function cursorPage<T>(
  place: PagePlace,
  size: number,
  read: (cursor: QueueCursor | null, backward: boolean, limit: number) => Promise<PlacedRow<T>[]>,
): Promise<CursorPage<T>> {
  const backward = !place.after && place.before !== null;
  const cursor = readQueueCursor(place.after ?? place.before);
  const rows = cursor ? await read(cursor, backward, size + 1) : [];
  if (rows.length === 0 || (backward && rows.length <= size)) {
    const first = await read(null, false, size + 1);
    return pageOf(first.slice(0, size), false, first.length > size);
  }
  // Read backward, the extra row is the first: a page before this one.
  return backward ? pageOf(rows.slice(1), true, true) : pageOf(rows.slice(0, size), true, rows.length > size);
}

function pageOf<T>(rows: PlacedRow<T>[], hasBefore: boolean, hasAfter: boolean): CursorPage<T> {
  const place = (row: PlacedRow<T> | undefined) =>
    typeof row?.cursor === "string" && readQueueCursor(row.cursor) ? row.cursor : null;
  return {
    items: rows.map((r) => r.item),
    before: hasBefore ? place(rows.at(0)) : null,
    after: hasAfter ? place(rows.at(-1)) : null,
  };
}

export type QueueQuery = {
  filter: QueueFilter;
  /** The search, folded (codeSearchKey): the codes that start with it. */
  code: string | null;
  invalidCode: boolean;
} & PagePlace;

export function readPageNumber(params: URLSearchParams): number {
  const page = Number(params.get("page") ?? "1");
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

export function readQueueQuery(params: URLSearchParams): QueueQuery {
  const filter = QUEUE_FILTERS.find((f) => f === params.get("filter")) ?? "all";
  const q = (params.get("q") ?? "").trim();
  const code = q ? codeSearchKey(q) : null;
  return { filter, code, ...readPagePlace(params), invalidCode: q !== "" && code === null };
}

/** The query string of a page; `page: null` is the first page of the filter and search. */
export function queueSearch(query: Pick<QueueQuery, "filter" | "code">, page: PagePlace | null = null): string {
  const params = new URLSearchParams();
  if (query.filter !== "all") params.set("filter", query.filter);
  if (query.code) params.set("q", query.code);
  return pageSearch(page, params);
}

export function filterScope(filter: QueueFilter): {
  status: OrderStatus | null;
  unpaid: boolean;
  late: boolean;
  newestFirst: boolean;
} {
  const status = filter === "all" || filter === "unpaid" || filter === "late" ? null : filter;
  return {
    status,
    unpaid: filter === "unpaid",
    late: filter === "late",
    newestFirst: filter === "sent" || filter === "cancelled",
  };
}

export type QueueCounts = Record<QueueFilter, number>;

/** The counts of public.queue_counts; anything unreadable is no counts (the filters then show none). */
export function readQueueCounts(raw: Record<string, unknown> | null): QueueCounts | null {
  if (!raw) return null;
  const counts = {} as QueueCounts;
  for (const filter of QUEUE_FILTERS) {
    const n = Number(raw[filter]);
    if (!Number.isSafeInteger(n) || n < 0) return null;
    counts[filter] = n;
  }
  return counts;
}

/** Where an action about an order answers: its card (the console's, the shopper's), or what stands in its place. */
export const cardAnswerPlace = (code: string) => `order-${code}`;
/** Where the order page's Tape card shows the answer to a plain form's upload. */
export const TAPE_ANSWER_PLACE = "tape";
export const cardOfAnswerPlace = (place: string | undefined): string | null =>
  place?.startsWith("order-") ? place.slice("order-".length) : null;
