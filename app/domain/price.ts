// The price's minimum: the one home of every word and default about it. A module of its own, importing
// nothing: every page's bundle carries the copy, and so this, but never the currency table of money.ts.

/**
 * The price's minimum, in US cents: priceWords of copy.ts (the review's "$10+", the console's
 * "Paid below $10", PRICE_NOTE's default) and Mark Paid's amount derive from it, and moneyBadges of
 * money.ts flags a USD payment below it; another currency is never converted.
 */
export const MINIMUM_USD_CENTS = 1000;

/**
 * The minimum as the copy shows it ("$10": cents only when it has some) and as Mark Paid offers it
 * ("10.00"): plain arithmetic on US cents (tests/unit/price-minimum.test.ts holds it to formatMoney).
 */
export function minimumPrice(cents = MINIMUM_USD_CENTS): { shown: string; typed: string } {
  const dollars = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, "0");
  return { shown: `$${dollars.toLocaleString("en-US")}${rest === "00" ? "" : `.${rest}`}`, typed: `${dollars}.${rest}` };
}
