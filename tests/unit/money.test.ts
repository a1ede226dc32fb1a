// What an order's money says, given the sums the ledger's one rule (public.order_money) derives.
import { describe, expect, it } from "vitest";
import { MIXER_MONEY_WORDS, MIXER_ONLY_MONEY_WORDS } from "~/domain/copy-console";
import { SHOPPER_MONEY_WORDS } from "~/domain/copy-orders";
import { moneyBadges, netPaid, parseAmount, readMoney, type MoneyLine } from "~/domain/money";

const line = (over: Partial<MoneyLine>): MoneyLine => ({
  currency: "USD",
  payments: 1,
  paid: 1200,
  refunded: 0,
  refundedAll: false,
  disputed: 0,
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
  it("no payment, no badge", () => {
    expect(shopper(line({ payments: 0, paid: 0, net: 0 }))).toEqual([]);
  });
});

describe("readMoney", () => {
  it("reads the SQL rule's JSON, as text or parsed", () => {
    const json = {
      lines: [{ currency: "USD", payments: 2, paid: 2000, refunded: 0, refundedAll: false, disputed: 0, net: 2000, due: 1000 }],
      movements: [
        { kind: "payment", provider: "stripe", amount: 1000, currency: "USD", at: "2026-11-20T10:00:00Z" },
        {
          kind: "dispute",
          provider: "stripe",
          amount: 1000,
          currency: "USD",
          at: "2026-11-21T10:00:00Z",
          status: "lost",
          reason: "fraudulent",
        },
      ],
    };
    const read = readMoney(JSON.stringify(json));
    expect(read.lines).toEqual([{ ...json.lines[0] }]);
    expect(read.movements[1]).toEqual({
      kind: "dispute",
      provider: "stripe",
      amount: 1000,
      currency: "USD",
      at: "2026-11-21T10:00:00.000Z",
      status: "lost",
      reason: "fraudulent",
    });
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
  it("refuses what is not an amount of that currency", () => {
    for (const bad of ["", "0", "0.00", "-5", "12.345", "1,200", "12e3", "abc", "1.5", "9999999999"])
      expect(parseAmount(bad, bad === "1.5" ? "JPY" : "USD"), bad).toBeNull();
  });
});

describe("netPaid: what a cancel gives back (issue 39)", () => {
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
