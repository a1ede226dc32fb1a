// Every CSV the shop writes (orders.csv, payments.csv), one home: each cell goes through csv-stringify's
// escaping, its formula guard included (=, +, -, @, a tab or CR first, and their full-width forms).
import { stringify } from "csv-stringify/sync";

/** A decimal the shop wrote itself ("-1.00"): a number to a spreadsheet, so its minus is no formula (as csv-stringify's own numbers). */
export type CsvDecimal = { decimal: string };
export type CsvCell = string | CsvDecimal;

const DECIMAL = /^-?\d{1,15}(?:\.\d{1,4})?$/;

export const csvDecimal = (decimal: string): CsvDecimal => ({ decimal });

/** The rows as CSV text, with the header line when asked. */
export function csvText(records: CsvCell[][], columns: string[], header: boolean): string {
  return stringify(records, {
    header,
    columns,
    quoted_string: false,
    escape_formulas: true,
    cast: {
      // Anything but one of our decimals is text, guarded like every other cell.
      object: (value) => {
        const decimal = (value as Partial<CsvDecimal>).decimal;
        if (typeof decimal === "string" && DECIMAL.test(decimal)) return { value: decimal, escape_formulas: false };
        return typeof decimal === "string" ? decimal : "";
      },
    },
  });
}
