import { Link, useSearchParams, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/my-mixtapes";
import { OrderBadges, OrderDelivery } from "~/components/order-delivery";
import { COPY } from "~/domain/copy";
import { ORDERS_COPY, SHOPPER_MONEY_WORDS } from "~/domain/copy-orders";
import { optionLabels } from "~/domain/deck";
import { CancelOrder } from "~/components/cancel-order";
import { CardAnswer } from "~/components/card-answer";
import { LocalTime } from "~/components/local-time";
import { moneyBadges, type MoneyBadge } from "~/domain/money";
import { dueAt, type Order, type StoredTrack } from "~/domain/orders";
import type { Toast } from "~/domain/toast";
import { cardOfAnswerPlace, pageSearch, readPagePlace, type PagePlace } from "~/domain/queue";
import { useRootData } from "~/root";
import { requireUser } from "~/server/context.server";
import { readForm } from "~/server/platform/http.server";
import { unseenReplies } from "~/server/services/conversation.server";
import { shopperOrders } from "~/server/services/orders.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { refundOnCancel, shopperCancelAction } from "./shopper-cancel.server";

export const ErrorBoundary = () => <GeneralErrorBoundary />;

export const meta: Route.MetaFunction = () => [{ title: ORDERS_COPY.title }];

/** A page of the list by its place (the console's cursor); the first page has none. */
const pageHref = (page: PagePlace | null) => `/my-mixtapes${pageSearch(page)}`;

export async function loader({ url, context }: Route.LoaderArgs) {
  const { user, api } = requireUser(context);
  // A cursor edited, or leading nowhere now (and the page numbers of before): the first page.
  const [{ orders, before, after }, replies] = await Promise.all([
    shopperOrders(api, user, readPagePlace(url.searchParams)),
    unseenReplies(api),
  ]);
  return { orders: orders.map((o) => ({ ...shown(o), newReplies: replies.get(o.code) ?? 0 })), before, after };
}

export async function action({ url, request, context }: Route.ActionArgs) {
  const { api } = requireUser(context);
  const place = readPagePlace(url.searchParams);
  // No fragment: the card's answer takes the focus (autofocus, which a fragment blocks), and so comes into view.
  return shopperCancelAction(context, api, await readForm(request), { back: () => pageHref(place) });
}

// After a refused cancel the list is read again: the mixer may have started the order meanwhile.
export const shouldRevalidate: ShouldRevalidateFunction = ({ defaultShouldRevalidate, actionStatus }) =>
  defaultShouldRevalidate || actionStatus === 409;

/** The loader data is serialized into every page. */
type ShownOrder = Pick<
  Order,
  "id" | "code" | "toggles" | "note" | "created_at" | "status" | "paid" | "delivery_url" | "mixer_message"
> & {
  tracks: Pick<StoredTrack, "id" | "title" | "thumbnail">[];
  money: MoneyBadge[];
  /** When it is due, while it is open. */
  expectedBy: string | null;
  /** What its cancel confirmation says is refunded (a paid order). */
  refundOnCancel: string | null;
  /** Its tape waits on the order's page (sent, its file kept): whether the shopper has it yet. */
  tapeReady: { downloaded: boolean } | null;
};

const shown = (order: Order): ShownOrder => ({
  id: order.id,
  code: order.code,
  toggles: order.toggles,
  note: order.note,
  created_at: order.created_at,
  status: order.status,
  paid: order.paid,
  delivery_url: order.delivery_url,
  mixer_message: order.mixer_message,
  tracks: order.tracks.map(({ id, title, thumbnail }) => ({ id, title, thumbnail })),
  money: moneyBadges(order.money, SHOPPER_MONEY_WORDS),
  expectedBy: order.status === "received" || order.status === "mixing" ? dueAt(order) : null,
  refundOnCancel: refundOnCancel(order),
  tapeReady: order.status === "sent" && order.tape && !order.tape.deletedAt ? { downloaded: order.tape.downloads > 0 } : null,
});

export default function MyMixtapes({ loaderData }: Route.ComponentProps) {
  const shop = useRootData()?.shop;
  const mixer = shop?.mixerName ?? "";
  const checkoutUrl = shop?.checkoutUrl ?? "";
  const { orders, before, after } = loaderData;
  // The last cancel's answer, in its order's card (not a toast over the list).
  const toast = useRootData()?.toast;
  const answered = toast ? cardOfAnswerPlace(toast.place) : null;
  return (
    <section aria-labelledby="orders-heading">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 id="orders-heading" className="font-display text-2xl font-bold uppercase tracking-wider text-acid">
          {ORDERS_COPY.title}
        </h1>
        <Link to="/" className="btn-ghost">
          {ORDERS_COPY.backHome}
        </Link>
      </div>
      {orders.length === 0 ? (
        <p className="card p-6 text-muted" data-testid="orders-empty">
          {ORDERS_COPY.empty}
        </p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" data-testid="orders">
          {orders.map((order) => (
            <OrderCard
              key={order.id}
              order={order}
              mixer={mixer}
              checkoutUrl={checkoutUrl}
              answer={toast && answered === order.code ? toast : null}
            />
          ))}
        </ul>
      )}
      <Pages before={before} after={after} />
    </section>
  );
}

/** Plain links with the neighbouring page's cursor, newest first: before this page is newer, after it older. */
function Pages({ before, after }: PagePlace) {
  if (!before && !after) return null;
  return (
    <nav aria-label={ORDERS_COPY.pages} className="mt-4 flex items-center justify-between gap-3" data-testid="orders-pages">
      {before ? (
        <Link to={pageHref({ after: null, before })} className="btn-ghost" rel="prev" data-testid="orders-newer">
          {ORDERS_COPY.newer}
        </Link>
      ) : (
        <span />
      )}
      {after ? (
        <Link to={pageHref({ after, before: null })} className="btn-ghost" rel="next" data-testid="orders-older">
          {ORDERS_COPY.older}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

function OrderCard({
  order,
  mixer,
  checkoutUrl,
  answer,
}: {
  order: ShownOrder & { newReplies: number };
  mixer: string;
  checkoutUrl: string;
  /** The answer to this card's cancel, where the cancel was. */
  answer: Toast | null;
}) {
  const options = optionLabels(order.toggles, mixer);
  const [params] = useSearchParams();
  const confirming = params.get("cancel") === order.code && order.status === "received";
  // This page of the list, confirming the cancel of this order or not, scrolled to its card.
  const here = (confirm: boolean) => {
    const next = new URLSearchParams(confirm ? { cancel: order.code } : {});
    return `/my-mixtapes${pageSearch(readPagePlace(params), next)}#order-${order.code}`;
  };
  return (
    <li id={`order-${order.code}`} className="card p-4" data-testid="order-card">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-display text-xl font-bold tracking-[0.2em] text-acid">
          <Link to={`/my-mixtapes/${order.code}`} className="underline underline-offset-4" data-testid="order-code">
            {order.code}
          </Link>
        </h2>
        <p className="text-sm text-muted">
          {ORDERS_COPY.placed} <LocalTime iso={order.created_at} testId="order-placed" />
        </p>
      </div>
      <OrderBadges order={order} checkoutUrl={checkoutUrl} />
      {order.expectedBy ? (
        <p className="mt-2 text-sm text-muted" data-testid="order-expected">
          {ORDERS_COPY.expectedBy("")}
          <LocalTime iso={order.expectedBy} dateOnly />
        </p>
      ) : null}
      {order.tapeReady ? (
        <p className="mt-2">
          <Link
            to={`/my-mixtapes/${order.code}#tape`}
            className="inline-block rounded-md border-2 border-teal px-3 py-1 font-display font-bold text-teal"
            data-testid="order-tape-ready"
          >
            {order.tapeReady.downloaded ? ORDERS_COPY.tapeThere : ORDERS_COPY.tapeReady}
          </Link>
        </p>
      ) : null}
      {/* The order's page (timeline, conversation) in one obvious tap; a reply not seen yet says so here. */}
      <div className="mt-3 flex flex-wrap gap-2">
        <Link
          to={`/my-mixtapes/${order.code}${order.newReplies ? "#messages" : ""}`}
          className={order.newReplies ? "btn-ghost border-acid text-acid" : "btn-ghost"}
          data-testid="order-open"
        >
          {ORDERS_COPY.openOrder}
          {order.newReplies ? <span data-testid="order-new-reply"> · {COPY.nav.newReplies(order.newReplies)}</span> : null}
        </Link>
        {order.status === "received" ? (
          <CancelOrder code={order.code} confirming={confirming} refund={order.refundOnCancel} here={here} />
        ) : null}
        <CardAnswer answer={answer?.message ?? null} id={answer?.id} refusal={answer?.type === "error"} className="w-full" />
      </div>
      <OrderDelivery order={order} mixer={mixer} className="mt-3" />
      <h3 className="label mt-3">{ORDERS_COPY.songs}</h3>
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
          <dt className="text-muted">{ORDERS_COPY.note}:</dt>
          <dd className="min-w-0 break-words" data-testid="order-note">
            {order.note || ORDERS_COPY.none}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-muted">{ORDERS_COPY.options}:</dt>
          <dd data-testid="order-options">{options.length ? options.join(", ") : ORDERS_COPY.none}</dd>
        </div>
      </dl>
    </li>
  );
}
