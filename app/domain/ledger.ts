// The ledger page's rows and query: every payment, refund and dispute the shop recorded.
import { formatMoney, MONEY_KINDS, type MoneyKind } from "./money";
import { LEDGER_PROVIDERS, type PaidVia } from "./orders";
import { readPageNumber } from "./queue";

export const LEDGER_FILTERS = ["all", "unmatched", "due", "flagged"] as const;
export type LedgerFilter = (typeof LEDGER_FILTERS)[number];
export const LEDGER_PAGE_SIZE = 100;

export type LedgerQuery = { provider: PaidVia | null; filter: LedgerFilter; page: number };

export type LedgerRow = {
  provider: PaidVia;
  eventId: string;
  kind: MoneyKind;
  /** Minor units, as sent; null when the checkout sent none. */
  amount: number | null;
  currency: string | null;
  /** "$12.00", or null without an amount. */
  money: string | null;
  /** The code the checkout gave, as given (trimmed and cut). */
  code: string | null;
  reference: string | null;
  receivedAt: string;
  orderCode: string | null;
  markedBy: string | null;
  disputeStatus: string | null;
  disputeReason: string | null;
  kept: boolean;
  runningTotal: boolean;
  orderDue: boolean;
  /** A checkout's test mode: no money moved. */
  test: boolean;
  /** A refund beyond what its payment had left, or in another currency: the mixer checks it. */
  flagged: boolean;
  /** A payment beyond the order's price, due back until the mixer keeps it. */
  extra: boolean;
};

export function readLedgerQuery(params: URLSearchParams): LedgerQuery {
  return {
    provider: LEDGER_PROVIDERS.find((p) => p === params.get("provider")) ?? null,
    filter: LEDGER_FILTERS.find((f) => f === params.get("filter")) ?? "all",
    page: readPageNumber(params),
  };
}

export function ledgerSearch(query: LedgerQuery): string {
  const params = new URLSearchParams();
  if (query.provider) params.set("provider", query.provider);
  if (query.filter !== "all") params.set("filter", query.filter);
  if (query.page > 1) params.set("page", String(query.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);

export function readLedgerRow(row: Record<string, unknown>): LedgerRow | null {
  const provider = LEDGER_PROVIDERS.find((p) => p === row.provider);
  const kind = MONEY_KINDS.find((k) => k === row.kind);
  const at =
    row.received_at instanceof Date ? row.received_at : typeof row.received_at === "string" ? new Date(row.received_at) : null;
  const eventId = str(row.event_id);
  if (!provider || !kind || !eventId || !at || Number.isNaN(at.getTime())) return null;
  const amount = typeof row.amount === "number" && Number.isSafeInteger(row.amount) ? row.amount : null;
  const currency = str(row.currency);
  return {
    provider,
    eventId,
    kind,
    amount,
    currency,
    money: formatMoney(amount, currency),
    code: str(row.code),
    reference: str(row.reference),
    receivedAt: at.toISOString(),
    orderCode: str(row.order_code),
    markedBy: str(row.marked_by),
    disputeStatus: str(row.dispute_status),
    disputeReason: str(row.dispute_reason),
    kept: row.kept === true,
    runningTotal: row.running_total === true,
    orderDue: row.order_due === true,
    test: row.test === true,
    flagged: row.flagged === true,
    extra: row.extra === true,
  };
}
