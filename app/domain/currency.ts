// How the checkouts count each currency: the one table of the providers' rules. Amounts arrive as an
// integer in a minor unit that is Stripe's, not always Intl's (docs.stripe.com/currencies): Lemon
// Squeezy (sold through Stripe) and the creator's own checkout (README) send the same units, and the
// ledger keeps them as sent. The webhooks, Mark Paid, every page and every CSV read amounts through it.

export type CurrencyRule = {
  /** Decimals in the integer sent: 500000 HUF is 5,000.00 forints, 1200 JPY is ¥1,200. */
  exponent: number;
  /** Decimals shown: forints, krónur and Taiwan dollars are shown whole ("HUF 5,000"). */
  shown: number;
  /** Minor units every amount is a multiple of: whole forints (100), dinars to ten fils (10). */
  step: number;
};

/** Stripe's zero-decimal currencies: the integer is the amount itself. */
const ZERO_DECIMAL = [
  "BIF",
  "CLP",
  "DJF",
  "GNF",
  "JPY",
  "KMF",
  "KRW",
  "MGA",
  "PYG",
  "RWF",
  "UGX",
  "VND",
  "VUV",
  "XAF",
  "XOF",
  "XPF",
];
/** Stripe's three-decimal currencies: sent in thousandths, the last digit 0. */
const THREE_DECIMAL = ["BHD", "JOD", "KWD", "OMR", "TND"];
/**
 * Stripe's special cases: sent with two decimals though whole in practice. ISK amounts must be
 * multiples of 100; HUF and TWD may be charged with decimals but are paid out whole.
 */
const WHOLE_BUT_TWO_DECIMALS = ["HUF", "ISK", "TWD"];

const TWO: CurrencyRule = { exponent: 2, shown: 2, step: 1 };
const RULES = new Map<string, CurrencyRule>([
  ...ZERO_DECIMAL.map((c): [string, CurrencyRule] => [c, { exponent: 0, shown: 0, step: 1 }]),
  ...THREE_DECIMAL.map((c): [string, CurrencyRule] => [c, { exponent: 3, shown: 3, step: 10 }]),
  ...WHOLE_BUT_TWO_DECIMALS.map((c): [string, CurrencyRule] => [c, { exponent: 2, shown: 0, step: 100 }]),
]);

/** Every other currency Stripe takes has two decimals, whatever Intl says (IDR, COP and PKR among them). */
export const currencyRule = (currency: string | null): CurrencyRule => RULES.get(currency?.toUpperCase() ?? "") ?? TWO;
