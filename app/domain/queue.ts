import type { OrderStatus } from "./order-status";

export const QUEUE_FILTERS = ["all", "received", "mixing", "sent", "cancelled", "unpaid", "late"] as const;
export type QueueFilter = (typeof QUEUE_FILTERS)[number];
export const QUEUE_PAGE_SIZE = 50;

export type QueueQuery = {
  filter: QueueFilter;
  code: string | null;
  page: number;
  invalidCode: boolean;
};

export function readPageNumber(params: URLSearchParams): number {
  const page = Number(params.get("page") ?? "1");
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

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

export function queueSearch(query: Pick<QueueQuery, "filter" | "code" | "page">): string {
  const params = new URLSearchParams();
  if (query.filter !== "all") params.set("filter", query.filter);
  if (query.code) params.set("q", query.code);
  if (query.page > 1) params.set("page", String(query.page));
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
