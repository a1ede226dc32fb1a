// Amounts as checkouts send them: an integer in the currency's minor unit (1200 USD is $12.00).

const formats = new Map<string, Intl.NumberFormat>();

function formatOf(currency: string): Intl.NumberFormat | null {
  let format = formats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    } catch {
      return null;
    }
    formats.set(currency, format);
  }
  return format;
}

const digitsOf = (format: Intl.NumberFormat | null) => format?.resolvedOptions().maximumFractionDigits ?? 2;

/** "$12.00", "€9.50", "¥1,200": the amount in its own currency's digits; null without an amount. */
export function formatMoney(amount: number | null, currency: string | null): string | null {
  if (amount === null || currency === null) return null;
  const format = formatOf(currency);
  return format ? format.format(amount / 10 ** digitsOf(format)) : `${amount} ${currency}`;
}

/** The amount as a plain decimal in its currency ("12.00"), for a spreadsheet. */
export const majorUnits = (amount: number, currency: string | null) => {
  const digits = digitsOf(currency ? formatOf(currency) : null);
  return (amount / 10 ** digits).toFixed(digits);
};
