import type { Route } from "./+types/payments-csv";
import { readLedgerQuery } from "~/domain/ledger";
import { ledgerCsv } from "~/server/services/ledger.server";
import { requireMixer } from "~/server/services/mixer.server";

/** Every money movement of the ledger's filter as payments.csv. */
export function loader({ url, context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  return new Response(ledgerCsv(api, readLedgerQuery(url.searchParams)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="payments.csv"',
    },
  });
}
