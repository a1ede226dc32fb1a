// The money line a case expects: one payment in USD and nothing else, but for what the case says.
import type { MoneyLine } from "~/domain/money";

export const line = (over: Partial<MoneyLine>): MoneyLine => ({
  currency: "USD",
  test: false,
  payments: 1,
  paid: 0,
  refunded: 0,
  refundedAll: false,
  disputed: 0,
  flagged: 0,
  net: 0,
  due: 0,
  ...over,
});
