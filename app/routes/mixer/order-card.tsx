import { Link, useFetcher } from "react-router";
import { CardAnswer } from "~/components/card-answer";
import { LocalTime } from "~/components/local-time";
import { CONSOLE_COPY, DISPUTE_COPY } from "~/domain/copy-console";
import { DROP_COPY } from "~/domain/copy-orders";
import { CANCEL_REASON_MAX, MIXER_MESSAGE_MAX, type MixerIntent } from "~/domain/order-intents";
import { isOpen } from "~/domain/order-status";
import { disputeDeadline, disputedToNothing } from "~/domain/money";
import { dueAt, type QueuedOrder } from "~/domain/orders";
import { formatDuration } from "~/domain/tape";
import { maxLengthAttribute } from "~/domain/text";
import { Action, Disclosure, type ActionProps, type FormPlace, type FormValues } from "./card-action";
import { MarkPaidPlace, RefundByHand } from "./money-actions";
import { OrderHeading, OrderSummary, RespondBy } from "./order-summary";

/** The queue's card reads at a glance: its heading, one line of facts, the tracks (and the rest) behind a disclosure, the actions. */
export function OrderCard({
  order,
  search,
  refused,
  unread,
  next,
  answer,
}: {
  order: QueuedOrder;
  search: string;
  refused: FormValues | null;
  unread: number;
  /** The card after this one: where this card's answer stays if an action moves it off the list. */
  next: string | null;
  /** The answer to the last action on this card, shown in it (not as a toast over the page). */
  answer: string | null;
}) {
  const page = `/mixer/orders/${order.code}`;
  return (
    <li
      id={`order-${order.code}`}
      className="card scroll-mt-24 p-4"
      data-testid="queue-order"
      aria-labelledby={`order-${order.code}-heading`}
    >
      <OrderHeading order={order} href={page} />
      <OrderFacts order={order} />
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-bold hover:text-acid">
          <span data-testid="order-track-count">{CONSOLE_COPY.trackCount(order.tracks.length)}</span>
          <span className="font-normal text-muted"> · {CONSOLE_COPY.cardDetails}</span>
        </summary>
        <OrderSummary order={order} heading={false} previews="link" />
      </details>
      {unread > 0 ? (
        <p className="mt-2">
          <Link to={`${page}#messages`} className="btn-small border-acid px-3 text-acid" data-testid="order-unread">
            {CONSOLE_COPY.messages(unread)}
          </Link>
        </p>
      ) : null}
      <OrderActions order={order} action={`/mixer${search}`} refused={refused} next={next} compact />
      <CardAnswer answer={answer} />
    </li>
  );
}

/** Placed, due and the shopper, on one line (room for one more). */
function OrderFacts({ order }: { order: QueuedOrder }) {
  return (
    <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="order-facts">
      <div className="flex gap-1">
        <dt className="text-muted">{CONSOLE_COPY.placed}</dt>
        <dd>
          <LocalTime iso={order.created_at} />
        </dd>
      </div>
      {isOpen(order) ? (
        <div className="flex gap-1">
          <dt className="sr-only">{CONSOLE_COPY.dueLabel}</dt>
          <dd>
            {CONSOLE_COPY.due("")}
            <LocalTime iso={dueAt(order)} />
          </dd>
        </div>
      ) : null}
      <div className="flex min-w-0 gap-1">
        <dt className="text-muted">{CONSOLE_COPY.shopper}</dt>
        <dd className="min-w-0 break-words">{order.shopper.name}</dd>
      </div>
      {/* A dispute's deadline in view on the card: the dispute itself is behind the card's disclosure. */}
      {order.money.movements.some(disputeDeadline) ? (
        <div className="flex">
          <dt className="sr-only">{CONSOLE_COPY.disputeLabel}</dt>
          <dd>
            {order.money.movements.map((d) => (
              <RespondBy key={`${d.at}-${d.event}`} dispute={d} className="font-bold text-danger" />
            ))}
          </dd>
        </div>
      ) : null}
      {order.tape ? (
        <div className="flex">
          <dt className="sr-only">{DROP_COPY.tape}</dt>
          <dd>
            <Link
              to={`/mixer/orders/${order.code}#tape`}
              className="rounded-full border border-teal px-2 py-0.5 font-bold text-teal hover:text-cream"
              data-testid="order-tape-chip"
            >
              {order.tape.deletedAt
                ? CONSOLE_COPY.tapeChipDeleted
                : CONSOLE_COPY.tapeChip(formatDuration(order.tape.durationSeconds), order.tape.downloads, order.tape.version)}
            </Link>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

export function OrderActions({
  order,
  action: to,
  refused,
  next = null,
  opened = null,
  compact = false,
}: {
  order: QueuedOrder;
  action: string;
  refused: FormValues | null;
  next?: string | null;
  /** On the order's page: the form the card's link asked open. */
  opened?: string | null;
  /** The queue's card: one primary action in view, the other forms not rendered until opened (the page shows them). */
  compact?: boolean;
}) {
  // One fetcher per order: its actions queue behind each other and show one pending label.
  const fetcher = useFetcher<{ ok: boolean; values: FormValues | null }>({ key: `order-${order.code}` });
  const typed = (fetcher.data && !fetcher.data.ok ? fetcher.data.values : null) ?? refused;
  const busy = fetcher.state !== "idle" ? (fetcher.formData?.get("intent") as MixerIntent["intent"] | undefined) : undefined;
  const action = { fetcher, code: order.code, to, busy, next };
  const place: FormPlace = compact ? { on: "card", code: order.code } : { on: "page", opened };
  return (
    <>
      <div className="mt-3 flex flex-wrap items-end gap-3 border-t border-line pt-3">
        {order.status === "received" ? <StartMixing order={order} action={action} /> : null}
        {order.status === "mixing" ? (
          <Action
            {...action}
            intent="mark-sent"
            label={order.tape && !order.tape.deletedAt ? DROP_COPY.sendDrop : CONSOLE_COPY.markSent}
            pending={CONSOLE_COPY.sending}
            grow
          >
            {compact ? (
              // The primary action's own fields: in its form, closed, so Mark Sent with a link works in place without JavaScript.
              <details
                className="min-w-0 flex-1 open:basis-full"
                open={typed?.intent === "mark-sent" && (typed.deliveryUrl !== "" || typed.message !== "") ? true : undefined}
              >
                <summary className="cursor-pointer text-sm font-bold text-muted hover:text-cream">
                  {CONSOLE_COPY.addLinkOrMessage}
                </summary>
                <div className="mt-2">
                  <SentFields order={order} typed={typed} />
                </div>
              </details>
            ) : (
              <SentFields order={order} typed={typed} />
            )}
          </Action>
        ) : null}
        <MarkPaidPlace order={order} typed={typed} action={action} place={place} />
        {isOpen(order) ? (
          <Disclosure
            place={place}
            intent="cancel"
            summary={CONSOLE_COPY.cancelOrder}
            open={typed?.code === order.code && typed.reason !== ""}
            className="w-auto open:w-full"
          >
            <Action
              {...action}
              intent="cancel"
              fields={{ from: order.status }}
              label={CONSOLE_COPY.cancelOrder}
              pending={CONSOLE_COPY.cancelling}
              grow
              quiet
            >
              <div className="w-full">
                <label className="label" htmlFor={`reason-${order.code}`}>
                  {CONSOLE_COPY.cancelReason}
                </label>
                <textarea
                  id={`reason-${order.code}`}
                  name="reason"
                  rows={2}
                  maxLength={maxLengthAttribute(CANCEL_REASON_MAX)}
                  defaultValue={typed?.reason ?? ""}
                  key={`reason-${typed?.reason ?? ""}`}
                  className="field resize-y"
                  aria-describedby={`reason-${order.code}-hint`}
                />
                <p id={`reason-${order.code}-hint`} className="mt-1 text-xs text-muted">
                  {CONSOLE_COPY.cancelReasonHint}
                </p>
              </div>
            </Action>
          </Disclosure>
        ) : null}
        <RefundByHand order={order} typed={typed} action={action} place={place} />
      </div>
    </>
  );
}

/** Mark Sent's delivery link and message to the shopper (both optional). */
function SentFields({ order, typed }: { order: QueuedOrder; typed: FormValues | null }) {
  return (
    <div className="grid min-w-0 flex-1 basis-80 gap-2 sm:grid-cols-2">
      <div>
        <label className="label" htmlFor={`delivery-${order.code}`}>
          {CONSOLE_COPY.deliveryLink}
        </label>
        <input
          id={`delivery-${order.code}`}
          name="deliveryUrl"
          type="url"
          inputMode="url"
          placeholder="https://"
          defaultValue={typed?.deliveryUrl ?? ""}
          key={`url-${typed?.deliveryUrl ?? ""}`}
          className="field"
          aria-describedby={`delivery-${order.code}-hint`}
        />
        <p id={`delivery-${order.code}-hint`} className="mt-1 text-xs text-muted">
          {CONSOLE_COPY.deliveryLinkHint}
        </p>
      </div>
      <div>
        <label className="label" htmlFor={`message-${order.code}`}>
          {CONSOLE_COPY.messageToShopper}
        </label>
        <textarea
          id={`message-${order.code}`}
          name="message"
          rows={2}
          maxLength={maxLengthAttribute(MIXER_MESSAGE_MAX)}
          defaultValue={typed?.message ?? ""}
          key={`message-${typed?.message ?? ""}`}
          className="field resize-y"
        />
      </div>
    </div>
  );
}

/** Start Mixing; on an order a dispute took all the money of, a warning first and a button that says "anyway". */
function StartMixing({ order, action }: { order: QueuedOrder; action: Omit<ActionProps, "intent" | "label" | "pending"> }) {
  if (!disputedToNothing(order.money))
    return <Action {...action} intent="start-mixing" label={CONSOLE_COPY.startMixing} pending={CONSOLE_COPY.starting} />;
  const id = `start-warning-${order.code}`;
  return (
    <div className="w-full">
      <p id={id} className="mb-2 rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm" data-testid="start-warning">
        {DISPUTE_COPY.startWarning}
      </p>
      <Action {...action} intent="start-mixing" label={DISPUTE_COPY.startAnyway} pending={CONSOLE_COPY.starting} />
    </div>
  );
}
