import type { Route } from "./+types/orders-csv";
import { readQueueQuery } from "~/domain/queue";
import { shopWordsOf } from "~/server/services/catalogue.server";
import { ordersCsv, requireMixer } from "~/server/services/mixer.server";

/** Every order of the console's filter and search as orders.csv. */
export function loader({ url, context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  // Asked with the first page of orders, so both join one transaction.
  const mixerName = () => shopWordsOf(context).then((w) => w.mixerName);
  return new Response(ordersCsv(api, readQueueQuery(url.searchParams), mixerName), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="orders.csv"',
    },
  });
}

export function action({ context }: Route.ActionArgs) {
  requireMixer(context);
  return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
}
