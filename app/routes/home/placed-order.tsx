import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { useHydrated } from "~/components/use-hydrated";
import { COPY, ORDER_WORDS } from "~/domain/copy";
import { HOME_COPY } from "~/domain/copy-home";

type Props = { code: string; paid: boolean; payUrl: string; mixer: string };

export function PlacedOrder({ code, paid, payUrl, mixer }: Props) {
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
        {ORDER_WORDS.orderCode}{" "}
        <strong className="font-display text-xl tracking-[0.2em] text-acid" data-testid="placed-code">
          {code}
        </strong>
      </p>
      <p className="mt-3 flex flex-wrap gap-2">
        {paid ? (
          <span className="btn-ghost">{ORDER_WORDS.paid}</span>
        ) : (
          <a href={payUrl} target="_blank" rel="noopener" className="btn-primary">
            {ORDER_WORDS.payNow}
          </a>
        )}
        <Link to={`/my-mixtapes/${code}`} className="btn-ghost" data-testid="placed-open">
          {HOME_COPY.openPlaced}
        </Link>
        <Link to="/my-mixtapes" className="btn-ghost">
          {COPY.nav.myMixtapes}
        </Link>
      </p>
    </section>
  );
}
