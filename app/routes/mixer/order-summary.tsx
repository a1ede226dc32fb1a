// The order as the mixer reads it: its heading (the code, the codename, the badges) and the summary
// behind the queue card's disclosure, in full on the order's page. The actions are in order-card.tsx.
import { Fragment } from "react";
import { Link } from "react-router";
import { LocalTime } from "~/components/local-time";
import { MoneyBadges } from "~/components/order-delivery";
import { TapeDownloads } from "~/components/tape-panel";
import { TrackList } from "~/components/track-list";
import { OrderCover } from "~/components/order-cover";
import { CONSOLE_COPY, DISPUTE_COPY, MIXER_MONEY_WORDS, MIXER_ONLY_MONEY_WORDS } from "~/domain/copy-console";
import { DROP_COPY, ORDERS_COPY } from "~/domain/copy-orders";
import { REVIEW_COPY } from "~/domain/copy-review";
import { optionLabels } from "~/domain/deck";
import { disputeDeadline, formatMoney, moneyBadges, providerPaymentUrl, type Movement } from "~/domain/money";
import { isOpen } from "~/domain/order-status";
import { dueAt, type QueuedOrder } from "~/domain/orders";
import { formatDuration, formatSize } from "~/domain/tape";
import { useRootData } from "~/root";

const badge = "rounded-full border px-2 py-0.5 font-bold";

function Badges({ order }: { order: QueuedOrder }) {
  return (
    <p className="flex flex-wrap gap-2 text-sm">
      <span className={`${badge} border-line`} data-testid="order-status">
        {ORDERS_COPY.status(order.status)}
      </span>
      {order.paid ? null : (
        <span className={`${badge} border-line text-muted`} data-testid="order-paid">
          {CONSOLE_COPY.unpaid}
        </span>
      )}
      <MoneyBadges badges={moneyBadges(order.money, MIXER_MONEY_WORDS, MIXER_ONLY_MONEY_WORDS)} />
      {order.late ? (
        <span className={`${badge} border-danger bg-danger-bg text-cream`} data-testid="order-late">
          {CONSOLE_COPY.late}
        </span>
      ) : null}
    </p>
  );
}

/** The code (a link to the order's page, or the page's heading), the codename and the badges. */
export function OrderHeading({ order, href, level = 2 }: { order: QueuedOrder; href?: string; level?: 1 | 2 }) {
  const Heading = level === 1 ? "h1" : "h2";
  const headingId = `order-${order.code}-heading`;
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <div className="flex flex-wrap items-baseline gap-x-3">
        <Heading
          id={headingId}
          className="font-display text-xl font-bold tracking-[0.2em] text-acid"
          data-testid={href ? undefined : "order-code"}
        >
          {href ? (
            <Link to={href} className="underline underline-offset-4" data-testid="order-code">
              {order.code}
            </Link>
          ) : (
            order.code
          )}
        </Heading>
        {order.codename ? (
          <p className="font-display text-sm uppercase tracking-wider text-muted" data-testid="order-codename">
            {order.codename}
          </p>
        ) : null}
      </div>
      <Badges order={order} />
    </div>
  );
}

export function OrderSummary({
  order,
  href,
  level = 2,
  heading = true,
  previews = "player",
}: {
  order: QueuedOrder;
  href?: string;
  level?: 1 | 2;
  /** The queue's card shows its heading above the disclosure that holds the rest. */
  heading?: boolean;
  /** The console lists 50 orders: its previews are links until JavaScript plays them in place. */
  previews?: "player" | "link";
}) {
  const mixer = useRootData()?.shop.mixerName ?? "";
  const options = optionLabels(order.toggles, mixer);
  const disputes = order.money.movements.filter((m) => m.kind === "dispute");
  return (
    <>
      {heading ? <OrderHeading order={order} href={href} level={level} /> : null}
      <div className="mt-3 grid gap-4 sm:grid-cols-[7rem_minmax(0,1fr)]">
        <OrderCover design={order.design} size="small" />
        <dl className="grid content-start gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
          <dt className="text-muted">{CONSOLE_COPY.shopper}</dt>
          <dd className="min-w-0 break-words" data-testid="order-shopper">
            {order.shopper.name}
            {order.shopper.email ? <span className="text-muted"> · {order.shopper.email}</span> : null}
          </dd>
          <dt className="text-muted">{CONSOLE_COPY.placed}</dt>
          <dd>
            <LocalTime iso={order.created_at} />
          </dd>
          {isOpen(order) ? (
            <>
              <dt className="text-muted">{CONSOLE_COPY.dueLabel}</dt>
              <dd data-testid="order-due">
                {CONSOLE_COPY.due("")}
                <LocalTime iso={dueAt(order)} />
              </dd>
            </>
          ) : null}
          {order.tape ? (
            <>
              <dt className="text-muted">{DROP_COPY.tape}</dt>
              <dd className="min-w-0 break-words" data-testid="order-tape">
                {order.tape.deletedAt ? (
                  DROP_COPY.fileDeleted
                ) : (
                  <>
                    {[order.tape.fileName, formatDuration(order.tape.durationSeconds), formatSize(order.tape.size)].join(" · ")}
                    {" · "}
                    <TapeDownloads downloads={order.tape.downloads} lastAt={order.tape.lastDownloadedAt} />
                  </>
                )}
              </dd>
            </>
          ) : null}
          {disputes.map((d) => (
            <Fragment key={`${d.at}-${d.status}`}>
              <dt className="text-muted">{CONSOLE_COPY.disputeLabel}</dt>
              <dd data-testid="order-dispute">
                {[formatMoney(d.amount, d.currency), ...DISPUTE_COPY.words(d.reason, d.status)].filter(Boolean).join(" · ")}
                <RespondBy dispute={d} className="block font-bold text-danger" />
                <DisputeLink dispute={d} />
              </dd>
            </Fragment>
          ))}
          <dt className="text-muted">{ORDERS_COPY.options}</dt>
          <dd>{options.length ? options.join(", ") : ORDERS_COPY.none}</dd>
          <dt className="text-muted">{ORDERS_COPY.note}</dt>
          <dd className="min-w-0 whitespace-pre-wrap break-words" data-testid="order-note">
            {order.note || ORDERS_COPY.none}
          </dd>
          {order.status === "cancelled" ? (
            <>
              <dt className="text-muted">{CONSOLE_COPY.cancelledLabel}</dt>
              <dd className="min-w-0 whitespace-pre-wrap break-words" data-testid="order-cancelled">
                {CONSOLE_COPY.cancelledBy(order.cancelled_by_shopper ? CONSOLE_COPY.theShopper : CONSOLE_COPY.you)}
                {order.cancel_reason ? `: ${order.cancel_reason}` : ""}
              </dd>
            </>
          ) : null}
          {order.status === "sent" ? (
            <>
              <dt className="text-muted">{CONSOLE_COPY.yourMessage}</dt>
              <dd className="min-w-0 whitespace-pre-wrap break-words" data-testid="order-sent-message">
                {order.mixer_message ?? ORDERS_COPY.none}
              </dd>
              <dt className="text-muted">{order.delivery_url ? CONSOLE_COPY.deliveryLink : CONSOLE_COPY.delivery}</dt>
              <dd className="min-w-0 break-all" data-testid="order-delivery">
                {order.delivery_url ? (
                  <a href={order.delivery_url} className="text-acid underline" rel="noopener noreferrer" target="_blank">
                    {order.delivery_url}
                  </a>
                ) : order.tape && !order.tape.deletedAt ? (
                  <Link to={`/mixer/orders/${order.code}#tape`} className="text-acid underline">
                    {CONSOLE_COPY.deliveredTape(formatDuration(order.tape.durationSeconds), formatSize(order.tape.size))}
                  </Link>
                ) : order.tape ? (
                  DROP_COPY.fileDeleted
                ) : (
                  ORDERS_COPY.none
                )}
              </dd>
            </>
          ) : null}
        </dl>
      </div>
      <TrackList
        code={order.code}
        tracks={order.tracks}
        label={`${REVIEW_COPY.tracks}: ${order.code}`}
        className="mt-3"
        previews={previews}
      />
    </>
  );
}

/** "Respond by" the dispute's deadline, while it needs a response and the provider sent one. */
export function RespondBy({ dispute, className }: { dispute: Movement; className: string }) {
  const deadline = disputeDeadline(dispute);
  if (!deadline) return null;
  return (
    <span className={className} data-testid="dispute-deadline">
      {DISPUTE_COPY.respondBy("")}
      <LocalTime iso={deadline} />
    </span>
  );
}

/** The provider's page for the disputed payment: where the evidence goes (and its deadline, when the ledger has none). */
function DisputeLink({ dispute }: { dispute: Movement }) {
  const url = providerPaymentUrl(dispute);
  const provider = CONSOLE_COPY.providers[dispute.provider as keyof typeof CONSOLE_COPY.providers];
  if (!url || !provider) return null;
  return (
    <span className="block text-xs text-muted">
      <a
        href={url}
        className="font-bold text-acid underline"
        rel="noopener noreferrer"
        target="_blank"
        data-testid="dispute-link"
      >
        {DISPUTE_COPY.respond(provider)}
      </a>
      {disputeDeadline(dispute) ? null : ` ${DISPUTE_COPY.deadline}`}
    </span>
  );
}
