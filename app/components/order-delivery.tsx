import type { ReactNode } from "react";
import { ORDERS_COPY } from "~/domain/copy-orders";
import type { MoneyBadge } from "~/domain/money";
import type { OrderStatus } from "~/domain/order-status";
import { payLink } from "~/domain/orders";

type Delivered = { status: string; mixer_message: string | null; delivery_url: string | null };

/** What the shopper got once the order is sent: the mixer's message and the delivery link. */
export function OrderDelivery({ order, mixer, className }: { order: Delivered; mixer: string; className: string }) {
  if (order.status !== "sent" || !(order.mixer_message || order.delivery_url)) return null;
  return (
    <div className={`${className} space-y-2 rounded-lg border border-teal p-3 text-sm`} data-testid="order-delivery">
      {order.mixer_message ? (
        <figure>
          <figcaption className="label">{ORDERS_COPY.fromMixer(mixer)}</figcaption>
          <blockquote className="whitespace-pre-wrap break-words">{order.mixer_message}</blockquote>
        </figure>
      ) : null}
      {order.delivery_url ? (
        <a href={order.delivery_url} target="_blank" rel="noopener noreferrer" className="btn-primary">
          {ORDERS_COPY.listen}
        </a>
      ) : null}
    </div>
  );
}

type Badged = {
  code: string;
  status: OrderStatus;
  paid: boolean;
  /** moneyBadges(), worded for the page's side. */
  money: MoneyBadge[];
};
const badge = "rounded-full border px-2 py-0.5 font-bold";

export const MONEY_BADGE_LOOK: Record<MoneyBadge["kind"], { testId: string; className: string }> = {
  paid: { testId: "order-paid", className: "border-teal text-teal" },
  refunded: { testId: "order-refunded", className: "border-line" },
  due: { testId: "order-refund-due", className: "border-danger bg-danger-bg text-cream" },
  disputed: { testId: "order-disputed", className: "border-danger bg-danger-bg text-cream" },
  below: { testId: "order-paid-below", className: "border-signal text-signal" },
  check: { testId: "order-check-amount", className: "border-signal text-signal" },
  test: { testId: "order-test-money", className: "border-dashed border-line text-muted" },
  flagged: { testId: "order-refund-flagged", className: "border-signal text-signal" },
};

/** The ledger's badges: what was paid, refunded, disputed and is due back, with the amounts. */
export function MoneyBadges({ badges }: { badges: MoneyBadge[] }) {
  return badges.map((b) => (
    <span
      key={`${b.kind}-${b.text}`}
      className={`${badge} ${MONEY_BADGE_LOOK[b.kind].className}`}
      data-testid={MONEY_BADGE_LOOK[b.kind].testId}
    >
      {b.text}
    </span>
  ));
}

/** The order's status, its money (or Pay now, given the checkout); `children` go after the status. */
export function OrderBadges({ order, checkoutUrl, children }: { order: Badged; checkoutUrl?: string; children?: ReactNode }) {
  return (
    <p className="mt-2 flex flex-wrap items-center gap-2 text-sm">
      <span className={`${badge} border-line`} data-testid="order-status">
        {ORDERS_COPY.status(order.status)}
      </span>
      {!order.paid && order.status !== "cancelled" && checkoutUrl ? (
        <a
          href={payLink(checkoutUrl, order.code)}
          target="_blank"
          rel="noopener"
          className="btn-small px-3"
          data-testid="order-pay"
        >
          {ORDERS_COPY.payNow}
        </a>
      ) : null}
      {children}
      <MoneyBadges badges={order.money} />
    </p>
  );
}
