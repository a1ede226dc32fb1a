import { COPY } from "~/domain/copy";

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
