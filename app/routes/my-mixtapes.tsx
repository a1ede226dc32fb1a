import { Link } from "react-router";
import type { Route } from "./+types/my-mixtapes";
import { COPY } from "~/domain/copy";
import { optionLabels } from "~/domain/deck";
import { readOrderRow, type Order } from "~/domain/orders";
import { formatPlaced } from "~/domain/text";
import { CachedList } from "~/components/static-markup";
import { useRootData } from "~/root";
import { requireUser } from "~/server/context.server";
import { getLog } from "~/server/platform/log.server";

export const meta: Route.MetaFunction = () => [{ title: COPY.orders.title }];

export async function loader({ context }: Route.LoaderArgs) {
  const { user, api } = requireUser(context);
  const { rows, error } = await api.listOrders(user.id);
  if (error) getLog().error({ code: error.code, err: error.message }, "my-mixtapes: load failed"); // the list stays empty
  return { orders: error ? [] : rows.map(readOrderRow).filter((o): o is Order => o !== null) };
}

/** One format with and without JavaScript: hydration never changes it. */
const PlacedAt = ({ iso }: { iso: string }) => (
  <time dateTime={iso} data-testid="order-placed">
    {formatPlaced(iso)}
  </time>
);

export default function MyMixtapes({ loaderData }: Route.ComponentProps) {
  const mixer = useRootData()?.shop.mixerName ?? "";
  const { orders } = loaderData;
  return (
    <section aria-labelledby="orders-heading">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 id="orders-heading" className="font-display text-2xl font-bold uppercase tracking-wider text-acid">
          {COPY.orders.title}
        </h1>
        <Link to="/" className="btn-ghost">
          {COPY.orders.backHome}
        </Link>
      </div>
      {orders.length === 0 ? (
        <p className="card p-6 text-muted" data-testid="orders-empty">
          {COPY.orders.empty}
        </p>
      ) : (
        <CachedList
          as="ul"
          className="grid gap-4 md:grid-cols-2"
          data-testid="orders"
          component={OrderCard}
          items={orders.map((order) => ({ order, mixer }))}
          itemKey={(item) => item.order.id}
          // The whole order: a row edited in the database never shows stale markup.
          cacheKey={(item) => `${item.mixer}:${JSON.stringify(item.order)}`}
        />
      )}
    </section>
  );
}

/** Props only (the server caches its markup: static-markup.tsx). */
function OrderCard({ order, mixer }: { order: Order; mixer: string }) {
  const options = optionLabels(order.toggles, mixer);
  return (
    <li className="card p-4" data-testid="order-card">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-display text-xl font-bold tracking-[0.2em] text-acid" data-testid="order-code">
          {order.code}
        </h2>
        <p className="text-sm text-muted">
          {COPY.orders.placed} <PlacedAt iso={order.created_at} />
        </p>
      </div>
      <h3 className="label mt-3">{COPY.orders.songs}</h3>
      <ol className="space-y-1" data-testid="order-songs">
        {order.tracks.map((t, i) => (
          <li key={`${t.id}-${i}`} className="flex items-center gap-2 text-sm">
            <img src={t.thumbnail} alt="" width={32} height={32} loading="lazy" className="h-8 w-8 rounded" />
            <span>{t.title}</span>
          </li>
        ))}
      </ol>
      <dl className="mt-3 space-y-1 text-sm">
        <div className="flex gap-2">
          <dt className="text-muted">{COPY.orders.note}:</dt>
          <dd className="min-w-0 break-words" data-testid="order-note">
            {order.note || COPY.orders.none}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-muted">{COPY.orders.options}:</dt>
          <dd data-testid="order-options">{options.length ? options.join(", ") : COPY.orders.none}</dd>
        </div>
      </dl>
    </li>
  );
}
