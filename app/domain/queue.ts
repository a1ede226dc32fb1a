// The mixer's queue: which orders a console page shows, read from its URL.
import type { OrderStatus } from "./orders";

export const QUEUE_FILTERS = ["all", "received", "mixing", "sent", "cancelled", "unpaid", "late"] as const;
export type QueueFilter = (typeof QUEUE_FILTERS)[number];
export const QUEUE_PAGE_SIZE = 50;

export type QueueQuery = {
  filter: QueueFilter;
  /** An order code, or its beginning (A–Z, 0–9); null for none. */
  code: string | null;
  page: number;
  /** The search text could not be an order code. */
  invalidCode: boolean;
};

/** ?page=N of a paged list: 1 when missing or not a page number. */
export function readPageNumber(params: URLSearchParams): number {
  const page = Number(params.get("page") ?? "1");
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** Reads ?filter=&q=&page= tolerantly: anything unknown falls back to the defaults. */
export function readQueueQuery(params: URLSearchParams): QueueQuery {
  const filter = QUEUE_FILTERS.find((f) => f === params.get("filter")) ?? "all";
  const q = (params.get("q") ?? "").trim().toUpperCase();
  const validCode = /^[A-Z0-9]{1,8}$/.test(q);
  return {
    filter,
    code: validCode ? q : null,
    page: readPageNumber(params),
    invalidCode: q !== "" && !validCode,
  };
}

/** The query string of a console page (defaults left out). */
export function queueSearch(query: Pick<QueueQuery, "filter" | "code" | "page">): string {
  const params = new URLSearchParams();
  if (query.filter !== "all") params.set("filter", query.filter);
  if (query.code) params.set("q", query.code);
  if (query.page > 1) params.set("page", String(query.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The status a filter shows (null: all), whether only unpaid or late orders, and whether newest first. */
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
