import { Link, useSearchParams, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/my-mixtapes.order";
import { CancelOrder } from "~/components/cancel-order";
import { CardAnswer } from "~/components/card-answer";
import { Conversation, keepUnsentMessage } from "~/components/conversation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LocalTime } from "~/components/local-time";
import { PreviewProvider } from "~/components/previews";
import { TrackList } from "~/components/track-list";
import { OrderCover } from "~/components/order-cover";
import { MESSAGE_INTENT, type MessageResult } from "~/domain/conversation";
import { COPY } from "~/domain/copy";
import { ORDERS_COPY, SHOPPER_MONEY_WORDS, ORDER_PAGE_COPY, CONVERSATION_COPY } from "~/domain/copy-orders";
import { REVIEW_COPY } from "~/domain/copy-review";
import { isUnsent } from "~/domain/unsent";
import { OrderBadges, OrderDelivery } from "~/components/order-delivery";
import { optionLabels } from "~/domain/deck";
import { moneyBadges } from "~/domain/money";
import { isOpen } from "~/domain/order-status";
import { dueAt, type Order } from "~/domain/orders";
import { cardOfAnswerPlace } from "~/domain/queue";
import { shopperTape } from "~/domain/tape";
import { TapePanel } from "~/components/tape-panel";
import { useRootData } from "~/root";
import { requireUser } from "~/server/context.server";
import { getConfig } from "~/server/platform/config.server";
import { refuseWithToast } from "~/server/platform/forms.server";
import { notFound, readForm } from "~/server/platform/http.server";
import { openOrder, shopperOrder } from "~/server/services/conversation.server";
import { markReadWhenOpened, messageAction } from "./order-messages.server";
import { refundOnCancel, shopperCancelAction } from "./shopper-cancel.server";

// An error here keeps the page's header and footer; another shopper's code is the ordinary 404.
export const ErrorBoundary = () => <GeneralErrorBoundary />;

// An error page (another's order: 404) takes its title from the error card.
export const meta: Route.MetaFunction = ({ params, error }) =>
  error ? [] : [{ title: ORDER_PAGE_COPY.title(params.code ?? "") }];

/** What the page shows of the order, and no more. */
const shown = (order: Order) => ({
  code: order.code,
  codename: order.codename,
  created_at: order.created_at,
  status: order.status,
  paid: order.paid,
  money: moneyBadges(order.money, SHOPPER_MONEY_WORDS),
  expectedBy: isOpen(order) ? dueAt(order) : null,
  cancel_reason: order.cancel_reason,
  cancelled_by_shopper: order.cancelled_by_shopper,
  delivery_url: order.delivery_url,
  mixer_message: order.mixer_message,
  tracks: order.tracks,
  design_id: order.design_id,
  design: order.design,
  toggles: order.toggles,
  note: order.note,
  tape: order.tape && shopperTape(order.tape),
  refundOnCancel: refundOnCancel(order),
});

export const middleware: Route.MiddlewareFunction[] = [markReadWhenOpened("shopper")];

export async function loader({ params, context }: Route.LoaderArgs) {
  const { user, api } = requireUser(context);
  const page = await openOrder(api, params.code, "shopper", (code) => shopperOrder(api, user, code));
  if (!page) throw notFound();
  const { order, ...conversation } = page;
  return { order: shown(order), keepDays: getConfig().DROP_KEEP_DAYS, ...conversation };
}

/** Send a message about this order, or cancel it (as the list does). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, api } = requireUser(context);
  const form = await readForm(request);
  if (form.get("intent") === "cancel")
    return shopperCancelAction(context, api, form, { back: (code) => `/my-mixtapes/${code}`, only: params.code });
  if (form.get("intent") !== MESSAGE_INTENT) return refuseWithToast(context, 400, { message: COPY.errors.unknownIntent });
  return messageAction(context, api, form, {
    side: "shopper",
    code: params.code,
    fetchOrder: (code) => shopperOrder(api, user, code),
    page: (order) => `/my-mixtapes/${order.code}`,
  });
}

export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) => keepUnsentMessage(request, serverAction);

export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate, actionStatus }) =>
  !isUnsent(actionResult) && (defaultShouldRevalidate || actionStatus === 409);

export default function ShopperOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, timeline, open, keepDays } = loaderData;
  const [params] = useSearchParams();
  const confirming = params.get("cancel") === order.code && order.status === "received";
  const shop = useRootData()?.shop;
  const mixer = shop?.mixerName ?? "";
  const options = optionLabels(order.toggles, mixer);
  const refused = actionData && "error" in actionData ? (actionData as MessageResult) : null;
  const toast = useRootData()?.toast;
  const answer = toast && cardOfAnswerPlace(toast.place) === order.code ? toast : null;
  return (
    <section aria-labelledby="order-heading" className="space-y-5">
      <p>
        <Link to="/my-mixtapes" className="btn-ghost">
          {ORDER_PAGE_COPY.backToOrders}
        </Link>
      </p>
      <div className="card p-4 sm:p-6" data-testid="order-page">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <div>
            <h1 id="order-heading" className="font-display text-2xl font-bold tracking-[0.15em] text-acid">
              {ORDER_PAGE_COPY.title(order.code)}
            </h1>
            {order.codename ? <p className="font-display text-sm uppercase tracking-wider text-muted">{order.codename}</p> : null}
          </div>
          <p className="text-sm text-muted">
            {ORDERS_COPY.placed} <LocalTime iso={order.created_at} testId="order-placed" />
          </p>
        </div>
        <OrderBadges order={order} checkoutUrl={shop?.checkoutUrl} />
        {order.expectedBy ? (
          <p className="mt-2 text-sm text-muted" data-testid="order-expected">
            {ORDERS_COPY.expectedBy("")}
            <LocalTime iso={order.expectedBy} dateOnly />
          </p>
        ) : null}
        {order.status === "received" ? (
          <div className="mt-3 flex flex-wrap gap-2">
            <CancelOrder
              code={order.code}
              confirming={confirming}
              refund={order.refundOnCancel}
              // No fragment: a page opened at a fragment's target skips autofocus (the confirmation's safe choice).
              here={(confirm) => `/my-mixtapes/${order.code}${confirm ? `?cancel=${order.code}` : ""}`}
            />
          </div>
        ) : null}
        {/* The cancel's answer where the cancel was (not a toast over the page). */}
        <CardAnswer answer={answer?.message ?? null} id={answer?.id} refusal={answer?.type === "error"} className="mt-3" />
        {order.status === "cancelled" ? (
          <div className="mt-3 rounded-lg border border-danger p-3 text-sm" data-testid="order-cancelled">
            <p className="font-bold">
              {ORDERS_COPY.cancelledBy(order.cancelled_by_shopper ? ORDERS_COPY.cancelledByYou : mixer)}
            </p>
            {order.cancel_reason ? <p className="mt-1 whitespace-pre-wrap break-words">{order.cancel_reason}</p> : null}
          </div>
        ) : null}
        <OrderDelivery order={order} mixer={mixer} className="mt-4" />
        {order.tape ? <TapePanel code={order.code} codename={order.codename} tape={order.tape} keepDays={keepDays} /> : null}
        <div className="mt-5 grid gap-6 md:grid-cols-[minmax(0,1fr)_16rem]">
          <div>
            <h2 className="label">{ORDER_PAGE_COPY.tracks}</h2>
            <PreviewProvider>
              <TrackList code={order.code} tracks={order.tracks} thumbnails />
            </PreviewProvider>
          </div>
          <div>
            <h2 className="label">{ORDER_PAGE_COPY.details}</h2>
            <OrderCover design={order.design} size="large" caption={(name) => `${REVIEW_COPY.design}: ${name}`} />
            <dl className="mt-3 space-y-1 text-sm">
              <div>
                <dt className="text-muted">{ORDERS_COPY.options}</dt>
                <dd data-testid="order-options">{options.length ? options.join(", ") : ORDERS_COPY.none}</dd>
              </div>
              <div>
                <dt className="text-muted">{ORDERS_COPY.note}</dt>
                <dd className="min-w-0 whitespace-pre-wrap break-words" data-testid="order-note">
                  {order.note || ORDERS_COPY.none}
                </dd>
              </div>
            </dl>
          </div>
        </div>
      </div>
      <Conversation
        timeline={timeline}
        open={open}
        action={`/my-mixtapes/${order.code}`}
        side="shopper"
        authors={{ shopper: CONVERSATION_COPY.you, mixer }}
        refused={refused}
      />
    </section>
  );
}
