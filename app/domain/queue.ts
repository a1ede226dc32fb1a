import { codeSearchKey } from "./order-code";
import type { OrderStatus } from "./order-status";

export const QUEUE_FILTERS = ["all", "received", "mixing", "sent", "cancelled", "unpaid", "late"] as const;
export type QueueFilter = (typeof QUEUE_FILTERS)[number];
/** A page of the console's queue, as Shopify's admin lists orders: a cursor per page, never a count to skip. */
export const QUEUE_PAGE_SIZE = 25;

/**
 * A place in the queue's order (finished, then placed, then id: ties on the time never skip or repeat an
 * order), as public.orders_read writes it: "0_2026-12-11T09:30:00.123456Z_42", the time to the microsecond.
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

export type QueueQuery = {
  filter: QueueFilter;
  /** The search, folded (codeSearchKey): the codes that start with it. */
  code: string | null;
  /** The page after this cursor, or the page before it; neither: the first page. */
  after: string | null;
  before: string | null;
  invalidCode: boolean;
};

export function readPageNumber(params: URLSearchParams): number {
  const page = Number(params.get("page") ?? "1");
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

export function readQueueQuery(params: URLSearchParams): QueueQuery {
  const filter = QUEUE_FILTERS.find((f) => f === params.get("filter")) ?? "all";
  const q = (params.get("q") ?? "").trim();
  const code = q ? codeSearchKey(q) : null;
  const after = readQueueCursor(params.get("after")) ? params.get("after") : null;
  const before = !after && readQueueCursor(params.get("before")) ? params.get("before") : null;
  return { filter, code, after, before, invalidCode: q !== "" && code === null };
}

/** The query string of a page; `page: null` is the first page of the filter and search. */
export function queueSearch(
  query: Pick<QueueQuery, "filter" | "code">,
  page: Pick<QueueQuery, "after" | "before"> | null = null,
): string {
  const params = new URLSearchParams();
  if (query.filter !== "all") params.set("filter", query.filter);
  if (query.code) params.set("q", query.code);
  if (page?.after) params.set("after", page.after);
  else if (page?.before) params.set("before", page.before);
  const text = params.toString();
  return text ? `?${text}` : "";
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
