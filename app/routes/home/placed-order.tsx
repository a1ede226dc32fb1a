import { Link } from "react-router";
import { COPY } from "~/domain/copy";

type Props = { code: string; paid: boolean; payUrl: string; mixer: string };

/** Where a transmit lands: the order's code and its own pay link, with and without JavaScript. */
export function PlacedOrder({ code, paid, payUrl, mixer }: Props) {
  return (
    <section
      role="status"
      aria-labelledby="placed-heading"
      className="card mb-6 border-2 border-teal p-4"
      data-testid="placed-order"
    >
      <h2 id="placed-heading" className="font-display text-lg font-bold uppercase tracking-wider text-acid">
        {COPY.orders.placedHeading}
      </h2>
      <p className="mt-1">{COPY.orders.placedText(mixer)}</p>
      <p className="mt-1">
        {COPY.review.orderCode}{" "}
        <strong className="font-display text-xl tracking-[0.2em] text-acid" data-testid="placed-code">
          {code}
        </strong>
      </p>
      <p className="mt-3 flex flex-wrap gap-2">
        {paid ? (
          <span className="btn-ghost">{COPY.orders.paid}</span>
        ) : (
          <a href={payUrl} target="_blank" rel="noopener" className="btn-primary">
            {COPY.orders.payNow}
          </a>
        )}
        <Link to="/my-mixtapes" className="btn-ghost">
          {COPY.home.myMixtapes}
        </Link>
      </p>
    </section>
  );
}
