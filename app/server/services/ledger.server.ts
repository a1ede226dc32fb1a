// The mixer's ledger: every money movement, the payments waiting for an order, and the CSV of them all.
import { CONSOLE_COPY } from "~/domain/copy-console";
import { LEDGER_PAGE_SIZE, readLedgerRow, type LedgerQuery, type LedgerRow } from "~/domain/ledger";
import { majorUnits } from "~/domain/money";
import { ORDER_CODE_RE } from "~/domain/order-code";
import { LEDGER_PROVIDERS, type PaidVia } from "~/domain/orders";
import type { BackendRequest, LedgerRead } from "../backend/port.server";
import { csvDecimal, csvText } from "../platform/csv.server";
import { getLog } from "../platform/log.server";

const read = (query: Pick<LedgerQuery, "provider" | "filter">, limit: number, offset: number): LedgerRead => ({
  provider: query.provider,
  filter: query.filter,
  limit,
  offset,
});

async function rows(api: BackendRequest, at: LedgerRead): Promise<LedgerRow[]> {
  const { rows, error } = await api.ledger(at);
  if (error) getLog().error({ code: error.code, err: error.message }, "ledger: read failed"); // the list shows none
  return rows.map(readLedgerRow).filter((r): r is LedgerRow => r !== null);
}

export async function ledgerPage(api: BackendRequest, query: LedgerQuery) {
  // At once: one trip (the payments waiting for an order, with their attach forms, head the page whatever the filter).
  const [page, waiting] = await Promise.all([
    rows(api, read(query, LEDGER_PAGE_SIZE + 1, (query.page - 1) * LEDGER_PAGE_SIZE)),
    query.filter === "due" ? [] : rows(api, read({ provider: query.provider, filter: "unmatched" }, 200, 0)),
  ]);
  return {
    rows: page.slice(0, LEDGER_PAGE_SIZE),
    hasNext: page.length > LEDGER_PAGE_SIZE,
    unmatched: waiting,
  };
}

export type LedgerOutcome = { ok: true; message: string } | { ok: false; message: string };

const providerOf = (name: string): PaidVia | null => LEDGER_PROVIDERS.find((p) => p === name) ?? null;

/** A payment with no known code, or a refund or dispute of no known payment, attached to an order by the code the mixer typed. */
export async function attachPayment(
  api: BackendRequest,
  provider: string,
  eventId: string,
  code: string,
): Promise<LedgerOutcome> {
  const via = providerOf(provider);
  if (!via || via === "manual" || !eventId || eventId.length > 200) return { ok: false, message: CONSOLE_COPY.payments.gone };
  if (!ORDER_CODE_RE.test(code)) return { ok: false, message: CONSOLE_COPY.payments.noOrder };
  const { outcome, error } = await api.attachPayment(via, eventId, code);
  if (error) getLog().error({ code: error.code, err: error.message }, "ledger: attach failed");
  if (outcome === "attached") {
    void api.queued.orderEmails.wake();
    return { ok: true, message: CONSOLE_COPY.payments.attached(code) };
  }
  return { ok: false, message: outcome === "no_order" ? CONSOLE_COPY.payments.noOrder : CONSOLE_COPY.payments.gone };
}

/** A payment beyond the first stays with the order: it is no longer due back. */
export async function keepPayment(api: BackendRequest, provider: string, eventId: string): Promise<LedgerOutcome> {
  const via = providerOf(provider);
  if (!via || !eventId || eventId.length > 200) return { ok: false, message: CONSOLE_COPY.alreadyUpdated };
  const { kept, error } = await api.keepPayment(via, eventId);
  if (error) getLog().error({ code: error.code, err: error.message }, "ledger: keep failed");
  return kept ? { ok: true, message: CONSOLE_COPY.payments.keptDone } : { ok: false, message: CONSOLE_COPY.alreadyUpdated };
}

const CSV_PAGE = 1000;
const CSV_COLUMNS = [
  "time",
  "provider",
  "kind",
  "amount",
  "currency",
  "reference",
  "order code",
  "code given",
  "marked by hand by",
  "dispute status",
  "dispute reason",
  "refunded total so far",
  "kept",
  "test",
  "to check",
  "extra payment",
];

/** Every money movement of the filter, newest first, as payments.csv. */
export function ledgerCsv(api: BackendRequest, query: Pick<LedgerQuery, "provider" | "filter">): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      const { rows: page, error } = await api.ledger(read(query, CSV_PAGE, offset));
      if (error) return controller.error(new Error(error.message));
      const yes = (flag: boolean) => (flag ? "yes" : "");
      const records = page
        .map(readLedgerRow)
        .filter((r): r is LedgerRow => r !== null)
        .map((r) => [
          r.receivedAt,
          r.provider,
          r.kind,
          r.amount === null ? "" : csvDecimal(majorUnits(r.kind === "payment" ? r.amount : -r.amount, r.currency)),
          r.currency ?? "",
          r.reference ?? "",
          r.orderCode ?? "",
          r.code ?? "",
          r.provider === "manual" ? (r.markedBy ?? "") : "",
          r.disputeStatus ?? "",
          r.disputeReason ?? "",
          yes(r.runningTotal),
          yes(r.kept),
          yes(r.test),
          yes(r.flagged),
          yes(r.extra),
        ]);
      controller.enqueue(encoder.encode(csvText(records, CSV_COLUMNS, offset === 0)));
      offset += CSV_PAGE;
      if (page.length < CSV_PAGE) controller.close();
    },
  });
}
