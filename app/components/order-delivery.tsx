import type { ReactNode } from "react";
import { COPY } from "~/domain/copy";
import { payLink, type OrderStatus } from "~/domain/orders";

type Delivered = { status: string; mixer_message: string | null; delivery_url: string | null };

/** What the shopper got once the order is sent: the mixer's message and the delivery link. */
export function OrderDelivery({ order, mixer, className }: { order: Delivered; mixer: string; className: string }) {
  if (order.status !== "sent" || !(order.mixer_message || order.delivery_url)) return null;
  return (
    <div className={`${className} space-y-2 rounded-lg border border-teal p-3 text-sm`} data-testid="order-delivery">
      {order.mixer_message ? (
        <figure>
          <figcaption className="label">{COPY.orders.fromMixer(mixer)}</figcaption>
          <blockquote className="whitespace-pre-wrap break-words">{order.mixer_message}</blockquote>
        </figure>
      ) : null}
      {order.delivery_url ? (
        <a href={order.delivery_url} target="_blank" rel="noopener noreferrer" className="btn-primary">
          {COPY.orders.listen}
        </a>
      ) : null}
    </div>
  );
}

type Badged = {
  code: string;
  status: OrderStatus;
  paid: boolean;
  paidAmount: string | null;
  refundDue: boolean;
  refunded: boolean;
};
const badge = "rounded-full border px-2 py-0.5 font-bold";

/** The order's status, paid (or Pay now, given the checkout) and refund badges; `children` go before the refund. */
export function OrderBadges({ order, checkoutUrl, children }: { order: Badged; checkoutUrl?: string; children?: ReactNode }) {
  return (
    <p className="mt-2 flex flex-wrap items-center gap-2 text-sm">
      <span className={`${badge} border-line`} data-testid="order-status">
        {COPY.orders.status(order.status)}
      </span>
      {order.paid ? (
        <span className={`${badge} border-teal text-teal`} data-testid="order-paid">
          {order.paidAmount ? COPY.orders.paidAmount(order.paidAmount) : COPY.orders.paid}
        </span>
      ) : order.status !== "cancelled" && checkoutUrl ? (
        <a
          href={payLink(checkoutUrl, order.code)}
          target="_blank"
          rel="noopener"
          className="btn-small px-3"
          data-testid="order-pay"
        >
          {COPY.orders.payNow}
        </a>
      ) : null}
      {children}
      {order.refundDue || order.refunded ? (
        <span className={`${badge} border-line`} data-testid="order-refund">
          {order.refundDue ? COPY.orders.refundPending : COPY.orders.refunded}
        </span>
      ) : null}
    </p>
  );
}
