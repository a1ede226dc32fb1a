// The ledger page's query string, its rows read tolerantly, and payments.csv's cells.
import { describe, expect, it } from "vitest";
import { ledgerSearch, readLedgerQuery, readLedgerRow } from "~/domain/ledger";
import type { BackendRequest } from "~/server/backend/port.server";
import { ledgerCsv } from "~/server/services/ledger.server";

const row = (over: Record<string, unknown> = {}) => ({
  provider: "stripe",
  event_id: "evt_1",
  kind: "refund",
  code: null,
  amount: 100,
  currency: "USD",
  reference: "pi_1",
  received_at: "2026-11-26T10:00:00Z",
  order_code: "AB12CD34",
  marked_by: null,
  dispute_status: null,
  dispute_reason: null,
  kept: false,
  running_total: true,
  order_due: false,
  ...over,
});

describe("the ledger's query string", () => {
  it("reads provider, filter and page tolerantly, and writes them back without the defaults", () => {
    expect(readLedgerQuery(new URLSearchParams("provider=stripe&filter=due&page=2"))).toEqual({
      provider: "stripe",
      filter: "due",
      page: 2,
    });
    expect(readLedgerQuery(new URLSearchParams("provider=paypal&filter=x&page=0"))).toEqual({
      provider: null,
      filter: "all",
      page: 1,
    });
    expect(ledgerSearch({ provider: null, filter: "all", page: 1 })).toBe("");
    expect(ledgerSearch({ provider: "manual", filter: "unmatched", page: 3 })).toBe("?provider=manual&filter=unmatched&page=3");
  });
});

describe("a ledger row", () => {
  it("is read with its money in words", () => {
    expect(readLedgerRow(row())).toMatchObject({ kind: "refund", money: "$1.00", orderCode: "AB12CD34", runningTotal: true });
  });
  it("an unknown provider, kind or time is no row, never an error", () => {
    for (const bad of [{ provider: "paypal" }, { kind: "gift" }, { received_at: "yesterday" }, { event_id: "" }])
      expect(readLedgerRow(row(bad))).toBeNull();
  });
});

describe("payments.csv", () => {
  const csvOf = async (rows: Record<string, unknown>[]) => {
    const api = { ledger: async () => ({ rows, error: null }) } as unknown as BackendRequest;
    return new Response(ledgerCsv(api, { provider: null, filter: "all" })).text();
  };
  it("signed amounts in the currency's digits; a refunded total so far says so", async () => {
    const csv = await csvOf([
      row(),
      row({ kind: "payment", amount: 1200, event_id: "evt_0", running_total: false, extra: true }),
      row({ kind: "payment", amount: 500_000, currency: "HUF", event_id: "evt_t", running_total: false, test: true }),
      row({ amount: 12_340, currency: "KWD", event_id: "evt_f", flagged: true }),
    ]);
    const [header, refund, payment, test, flagged] = csv.trimEnd().split("\n");
    expect(header).toBe(
      "time,provider,kind,amount,currency,reference,order code,code given,marked by hand by,dispute status,dispute reason,refunded total so far,kept,test,to check,extra payment",
    );
    expect(refund).toBe("2026-11-26T10:00:00.000Z,stripe,refund,-1.00,USD,pi_1,AB12CD34,,,,,yes,,,,");
    expect(payment).toBe("2026-11-26T10:00:00.000Z,stripe,payment,12.00,USD,pi_1,AB12CD34,,,,,,,,,yes");
    expect(test).toBe("2026-11-26T10:00:00.000Z,stripe,payment,5000,HUF,pi_1,AB12CD34,,,,,,,yes,,");
    expect(flagged).toBe("2026-11-26T10:00:00.000Z,stripe,refund,-12.340,KWD,pi_1,AB12CD34,,,,,yes,,,yes,");
  });
  it("a checkout's own text that starts like a formula stays text", async () => {
    const csv = await csvOf([row({ kind: "payment", code: '=HYPERLINK("x")', reference: "@ref", order_code: null })]);
    expect(csv).toContain(`,'@ref,,"'=HYPERLINK(""x"")",`);
  });
  it("full-width formula characters too: every cell goes through csv-stringify's escaping", async () => {
    const csv = await csvOf([
      row({ reference: "＝1+1", code: "＋cmd", dispute_status: "－2", dispute_reason: "＠SUM(A1)", order_code: null }),
    ]);
    const [, cells] = csv.trimEnd().split("\n");
    expect(cells).toBe("2026-11-26T10:00:00.000Z,stripe,refund,-1.00,USD,'＝1+1,,'＋cmd,,'－2,'＠SUM(A1),yes,,,,");
  });
});
