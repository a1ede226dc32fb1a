// What an order's money says, given the sums the ledger's one rule (public.order_money) derives.
import { describe, expect, it } from "vitest";
import { DISPUTE_COPY, MIXER_MONEY_WORDS, MIXER_ONLY_MONEY_WORDS } from "~/domain/copy-console";
import { SHOPPER_MONEY_WORDS } from "~/domain/copy-orders";
import { currencyRule } from "~/domain/currency";
import {
  amountExample,
  disputeDeadline,
  disputedToNothing,
  formatMoney,
  isPaid,
  majorUnits,
  moneyBadges,
  netPaid,
  parseAmount,
  providerPaymentUrl,
  readMoney,
  type MoneyLine,
} from "~/domain/money";

const line = (over: Partial<MoneyLine>): MoneyLine => ({
  currency: "USD",
  test: false,
  payments: 1,
  paid: 1200,
  refunded: 0,
  refundedAll: false,
  disputed: 0,
  flagged: 0,
  net: 1200,
  due: 0,
  ...over,
});
const money = (...lines: MoneyLine[]) => ({ lines, movements: [] });
const shopper = (...lines: MoneyLine[]) => moneyBadges(money(...lines), SHOPPER_MONEY_WORDS).map((b) => b.text);
const mixer = (...lines: MoneyLine[]) =>
  moneyBadges(money(...lines), MIXER_MONEY_WORDS, MIXER_ONLY_MONEY_WORDS).map((b) => b.text);

describe("an order's money in words", () => {
  it("a payment reads with its amount", () => {
    expect(shopper(line({}))).toEqual(["Paid $12.00"]);
    expect(mixer(line({}))).toEqual(["Paid $12.00"]);
  });
  it("a partial refund reads as partial, never a bare Refunded; a whole one with its amount", () => {
    expect(shopper(line({ refunded: 100, net: 1100 }))).toEqual(["Refunded $1.00 of $12.00"]);
    expect(shopper(line({ refunded: 1200, net: 0 }))).toEqual(["Refunded $12.00"]);
  });
  it("what is due back: pending for the shopper, due for the mixer, with the amount", () => {
    const cancelled = line({ refunded: 100, net: 1100, due: 1100 });
    expect(shopper(cancelled)).toEqual(["Refunded $1.00 of $12.00", "Refund pending $11.00"]);
    expect(mixer(cancelled)).toEqual(["Refunded $1.00 of $12.00", "Refund due $11.00"]);
  });
  it("a dispute is the mixer's to see", () => {
    const disputed = line({ disputed: 1200, net: 0 });
    expect(mixer(disputed)).toEqual(["Paid $12.00", "Disputed $12.00"]);
    expect(shopper(disputed)).toEqual(["Paid $12.00"]);
  });
  it("below $10 is flagged in US dollars only; another currency asks to check the amount, unconverted", () => {
    expect(mixer(line({ paid: 900, net: 900 }))).toEqual(["Paid $9.00", "Paid below $10"]);
    expect(mixer(line({ currency: "EUR", paid: 900, net: 900 }))).toEqual(["Paid €9.00", "check the amount"]);
    expect(shopper(line({ currency: "EUR", paid: 900, net: 900 }))).toEqual(["Paid €9.00"]);
  });
  it("each currency on its own line", () => {
    expect(shopper(line({}), line({ currency: "EUR", paid: 1500, net: 1500, due: 1500 }))).toEqual([
      "Paid $12.00",
      "Paid €15.00",
      "Refund pending €15.00",
    ]);
  });
  it("a payment marked by hand before amounts were kept reads Paid, its refund Refunded", () => {
    const unknown = line({ currency: null, paid: 0, net: 0 });
    expect(shopper(unknown)).toEqual(["Paid"]);
    expect(shopper({ ...unknown, refundedAll: true })).toEqual(["Refunded"]);
  });
  it("test money is shown as test, and never makes an order paid or due", () => {
    const test = line({ test: true, net: 1200 });
    expect(shopper(test)).toEqual(["Test payment $12.00"]);
    expect(mixer(test)).toEqual(["Test payment $12.00"]);
    expect(isPaid(money(test))).toBe(false);
    expect(isPaid(money(test, line({})))).toBe(true);
    expect(netPaid(money(test))).toEqual({ amounts: [], unknown: false });
  });
  it("a payment of nothing pays for nothing", () => {
    expect(isPaid(money(line({ payments: 0, paid: 0, net: 0 })))).toBe(false);
  });
  it("a refund to check is the mixer's to see, beside what it would have refunded", () => {
    const flagged = line({ flagged: 1500 });
    expect(mixer(flagged)).toEqual(["Refund to check $15.00", "Paid $12.00"]);
    expect(shopper(flagged)).toEqual(["Paid $12.00"]);
    // In another currency than its payment's: a line of its own, with no payment in it.
    expect(mixer(line({ currency: "EUR", payments: 0, paid: 0, flagged: 300 }))).toEqual(["Refund to check €3.00"]);
  });
  it("no payment, no badge", () => {
    expect(shopper(line({ payments: 0, paid: 0, net: 0 }))).toEqual([]);
  });
});

describe("money in each currency's own units (the providers' table)", () => {
  it("Stripe's zero-decimal, three-decimal and special currencies", () => {
    expect(formatMoney(500_000, "HUF")).toBe("HUF\u00a05,000");
    expect(formatMoney(500_000, "ISK")).toBe("ISK\u00a05,000");
    expect(formatMoney(500_000, "TWD")).toBe("NT$5,000");
    expect(formatMoney(1200, "JPY")).toBe("¥1,200");
    expect(formatMoney(5000, "KRW")).toBe("₩5,000");
    expect(formatMoney(12_345, "KWD")).toBe("KWD\u00a012.345");
    expect(formatMoney(12_340, "BHD")).toBe("BHD\u00a012.340");
    expect(formatMoney(1200, "USD")).toBe("$12.00");
    // Intl counts these without decimals; Stripe sends them with two.
    expect(formatMoney(1_000_000, "IDR")).toBe("IDR\u00a010,000.00");
    expect(formatMoney(123_456, "COP")).toBe("COP\u00a01,234.56");
  });
  it("a fraction the currency is usually shown without is shown, never rounded away", () => {
    expect(formatMoney(500_050, "HUF")).toBe("HUF\u00a05,000.50");
    expect(majorUnits(500_050, "HUF")).toBe("5000.50");
  });
  it("a spreadsheet's decimals are the page's", () => {
    expect(majorUnits(500_000, "HUF")).toBe("5000");
    expect(majorUnits(-12_345, "KWD")).toBe("-12.345");
    expect(majorUnits(1200, "JPY")).toBe("1200");
    expect(majorUnits(-100, "USD")).toBe("-1.00");
  });
  it("what is typed is what is shown: a mark by hand round-trips", () => {
    for (const [amount, currency] of [
      [500_000, "HUF"],
      [150_000, "ISK"],
      [12_340, "KWD"],
      [1200, "JPY"],
      [1250, "EUR"],
    ] as const)
      expect(parseAmount(majorUnits(amount, currency), currency), currency).toBe(amount);
    // The example a refusal gives is one the currency takes.
    expect(["USD", "HUF", "JPY", "KWD"].map(amountExample)).toEqual(["12.00", "12", "12", "12.000"]);
  });
  it("one table: Stripe's lists, and two decimals for everything else", () => {
    expect(currencyRule("JPY")).toEqual({ exponent: 0, shown: 0, step: 1 });
    expect(currencyRule("kwd")).toEqual({ exponent: 3, shown: 3, step: 10 });
    expect(currencyRule("HUF")).toEqual({ exponent: 2, shown: 0, step: 100 });
    expect(currencyRule("XYZ")).toEqual({ exponent: 2, shown: 2, step: 1 });
    expect(currencyRule(null)).toEqual({ exponent: 2, shown: 2, step: 1 });
  });
});

describe("readMoney", () => {
  it("reads the SQL rule's JSON, as text or parsed", () => {
    const json = {
      lines: [
        { currency: "USD", test: false, payments: 2, paid: 2000, refunded: 0, refundedAll: false, disputed: 0, flagged: 300 },
        { currency: "USD", test: true, payments: 1, paid: 500, refunded: 0, refundedAll: false, disputed: 0, flagged: 0 },
      ].map((l) => ({ ...l, net: l.paid, due: l.test ? 0 : 1000 })),
      movements: [
        { kind: "payment", provider: "stripe", event: "evt_1", amount: 1000, currency: "USD", at: "2026-11-20T10:00:00Z" },
        {
          kind: "dispute",
          provider: "stripe",
          event: "evt_2",
          amount: 1000,
          currency: "USD",
          at: "2026-11-21T10:00:00Z",
          status: "lost",
          reason: "fraudulent",
          test: false,
          flagged: false,
          extra: true,
          undo: false,
          reference: "pi_3Qx9",
        },
      ],
    };
    const read = readMoney(JSON.stringify(json));
    expect(read.lines).toEqual(json.lines);
    expect(read.movements[1]).toEqual({ ...json.movements[1], at: "2026-11-21T10:00:00.000Z" });
    expect(read.movements[0]).toMatchObject({ test: false, flagged: false, extra: false, undo: false, reference: null });
    expect(readMoney(json)).toEqual(read);
  });
  it("anything unreadable is no money, never an error", () => {
    for (const bad of [null, undefined, "{", 42, { lines: "x" }, { lines: [null, 3], movements: [{ kind: "gift" }] }])
      expect(readMoney(bad)).toEqual({ lines: [], movements: [] });
    expect(readMoney({ lines: [{ currency: "usd", paid: 1.5 }] }).lines[0]).toMatchObject({ currency: null, paid: 0 });
  });
});

describe("parseAmount (what the mixer types)", () => {
  it("major units to minor units, in the currency's own digits", () => {
    expect(parseAmount("12", "USD")).toBe(1200);
    expect(parseAmount("12.5", "USD")).toBe(1250);
    expect(parseAmount(" $12.05 ", "USD")).toBe(1205);
    expect(parseAmount("1200", "JPY")).toBe(1200);
  });
  it("in the units the checkouts send: forints and krónur typed whole are sent with two decimals, dinars with three", () => {
    expect(parseAmount("5000", "HUF")).toBe(500_000);
    expect(parseAmount("5,000", "HUF")).toBeNull();
    expect(parseAmount("5000.50", "HUF")).toBeNull();
    expect(parseAmount("1500", "ISK")).toBe(150_000);
    expect(parseAmount("12.5", "KWD")).toBe(12_500);
    expect(parseAmount("12.51", "KWD")).toBe(12_510);
    // Stripe takes three-decimal amounts in multiples of ten.
    expect(parseAmount("12.515", "KWD")).toBeNull();
    expect(parseAmount("500", "UGX")).toBe(500);
  });
  it("refuses what is not an amount of that currency", () => {
    for (const bad of ["", "0", "0.00", "-5", "12.345", "1,200", "12e3", "abc", "1.5", "9999999999"])
      expect(parseAmount(bad, bad === "1.5" ? "JPY" : "USD"), bad).toBeNull();
  });
});

describe("netPaid: what a cancel gives back", () => {
  it("each currency's net amount; a payment of no recorded amount says so", () => {
    expect(netPaid(money(line({})))).toEqual({ amounts: ["$12.00"], unknown: false });
    expect(netPaid(money(line({ refunded: 200, net: 1000 }), line({ currency: "EUR", paid: 500, net: 500 })))).toEqual({
      amounts: ["$10.00", "€5.00"],
      unknown: false,
    });
    expect(netPaid(money(line({ refunded: 1200, net: 0 })))).toEqual({ amounts: [], unknown: false });
    expect(netPaid(money(line({ currency: null, paid: 0, net: 0 })))).toEqual({ amounts: [], unknown: true });
    expect(netPaid(money(line({ currency: null, paid: 0, net: 0, refundedAll: true })))).toEqual({ amounts: [], unknown: false });
    expect(netPaid(money())).toEqual({ amounts: [], unknown: false });
  });
});

describe("a dispute, as the mixer reads it", () => {
  const dispute = { provider: "stripe", reference: "pi_3Qx9", test: false };
  it("says its reason and status in plain words, and spells out one it does not know", () => {
    expect(DISPUTE_COPY.words("fraudulent", "needs_response")).toEqual([
      "the cardholder says they did not make it",
      "needs your response",
    ]);
    expect(DISPUTE_COPY.words("something_new", null)).toEqual(["something new"]);
  });
  it("links to the provider's page for that payment (test money to its test dashboard)", () => {
    expect(providerPaymentUrl(dispute)).toBe("https://dashboard.stripe.com/payments/pi_3Qx9");
    expect(providerPaymentUrl({ ...dispute, test: true })).toBe("https://dashboard.stripe.com/test/payments/pi_3Qx9");
    expect(providerPaymentUrl({ ...dispute, provider: "lemonsqueezy" })).toBe("https://app.lemonsqueezy.com/orders");
    expect(providerPaymentUrl({ ...dispute, reference: null })).toBeNull();
    expect(providerPaymentUrl({ ...dispute, provider: "manual" })).toBeNull();
  });
  it("warns before mixing an order a dispute took all the money of", () => {
    const line = { currency: "USD", test: false, payments: 1, paid: 1000, refunded: 0, refundedAll: false, flagged: 0, due: 0 };
    expect(disputedToNothing({ lines: [{ ...line, disputed: 1000, net: 0 }], movements: [] })).toBe(true);
    expect(disputedToNothing({ lines: [{ ...line, disputed: 500, net: 500 }], movements: [] })).toBe(false);
    expect(disputedToNothing({ lines: [{ ...line, disputed: 0, net: 0 }], movements: [] })).toBe(false);
  });
  it("has a deadline to respond by while it needs a response; a deadline no date can be is none", () => {
    const moved = (status: string, dueBy: unknown) =>
      readMoney({ movements: [{ kind: "dispute", provider: "stripe", at: "2026-12-01T10:00:00Z", status, dueBy }] }).movements[0];
    expect(moved("needs_response", "2026-12-20T23:59:59+00:00").dueBy).toBe("2026-12-20T23:59:59.000Z");
    expect(disputeDeadline(moved("needs_response", "2026-12-20T23:59:59+00:00"))).toBe("2026-12-20T23:59:59.000Z");
    expect(disputeDeadline(moved("warning_needs_response", "2026-12-20T23:59:59Z"))).toBe("2026-12-20T23:59:59.000Z");
    for (const answered of ["under_review", "won", "lost", "warning_closed"])
      expect(disputeDeadline(moved(answered, "2026-12-20T23:59:59Z")), answered).toBeNull();
    for (const odd of [null, "soon", 1766275199, {}]) {
      expect(moved("needs_response", odd), JSON.stringify(odd)).not.toHaveProperty("dueBy");
      expect(disputeDeadline(moved("needs_response", odd))).toBeNull();
    }
  });
});
