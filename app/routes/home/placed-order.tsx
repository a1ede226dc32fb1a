import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { useHydrated } from "~/components/use-hydrated";
import { COPY } from "~/domain/copy";
import { HOME_COPY } from "~/domain/copy-home";
import { ORDERS_COPY } from "~/domain/copy-orders";
import { REVIEW_COPY } from "~/domain/copy-review";

type Props = { code: string; paid: boolean; payUrl: string; mixer: string };

export default function PlacedOrder({ code, paid, payUrl, mixer }: Props) {
  const card = useRef<HTMLElement>(null);
  // The page may be far down after a transmit: the card scrolls into view and takes focus, which announces it.
  const arrived = useRef(useHydrated());
  useEffect(() => {
    if (!arrived.current || !card.current) return;
    card.current.focus({ preventScroll: true });
    card.current.scrollIntoView({ block: "start" });
  }, []);
  return (
    <section
      ref={card}
      tabIndex={-1}
      aria-labelledby="placed-heading"
      aria-describedby="placed-text placed-code-line"
      className="card mb-6 scroll-mt-28 border-2 border-teal p-4 sm:scroll-mt-4"
      data-testid="placed-order"
    >
      <h2 id="placed-heading" className="font-display text-lg font-bold uppercase tracking-wider text-acid">
        {HOME_COPY.placedHeading}
      </h2>
      <p id="placed-text" className="mt-1">
        {HOME_COPY.placedText(mixer)}
      </p>
      <p id="placed-code-line" className="mt-1">
        {REVIEW_COPY.orderCode}{" "}
        <strong className="font-display text-xl tracking-[0.2em] text-acid" data-testid="placed-code">
          {code}
        </strong>
      </p>
      <p className="mt-3 flex flex-wrap gap-2">
        {paid ? (
          <span className="btn-ghost">{ORDERS_COPY.paid}</span>
        ) : (
          <a href={payUrl} target="_blank" rel="noopener" className="btn-primary">
            {ORDERS_COPY.payNow}
          </a>
        )}
        <Link to="/my-mixtapes" className="btn-ghost">
          {COPY.nav.myMixtapes}
        </Link>
      </p>
    </section>
  );
}
