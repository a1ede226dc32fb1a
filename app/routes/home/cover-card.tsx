import { useEffect, useRef, useState } from "react";
import { coverBackground, type Catalogue } from "~/domain/catalogue";
import { HOME_COPY } from "~/domain/copy-home";
import type { Deck } from "~/domain/deck";

export function CoverCard({ deck, catalogue, product }: { deck: Deck; catalogue: Catalogue; product: string }) {
  const background = coverBackground(catalogue, deck.coverBg);
  const img = useRef<HTMLImageElement>(null);
  const [broken, setBroken] = useState(false);
  useEffect(() => {
    // An image that failed before hydration fired its error event unseen.
    if (img.current?.complete && img.current.naturalWidth === 0) setBroken(true);
  }, []);
  return (
    <section aria-label="Mixtape cover" className="card relative overflow-hidden" data-testid="cover-card">
      <div className="relative aspect-[8/5] bg-panel-2">
        {broken || !background ? null : (
          <img
            ref={img}
            src={background}
            alt=""
            width={400}
            height={250}
            className="absolute inset-0 h-full w-full object-cover"
            data-testid="cover-bg"
            onError={() => setBroken(true)}
          />
        )}
        <div className="absolute inset-0 flex flex-col justify-between bg-gradient-to-t from-ink/90 via-ink/30 to-ink/60 p-4">
          <p className="font-display text-xs font-bold uppercase tracking-[0.3em] text-acid">{product}</p>
          <div>
            <p className="font-display text-2xl font-bold uppercase text-cream">
              <span className="sr-only">{HOME_COPY.codename}: </span>
              <span data-testid="codename">{deck.codename}</span>
            </p>
            <p className="font-display text-sm text-cream" data-testid="cover-number">
              {HOME_COPY.coverNo} {deck.coverNo}
            </p>
          </div>
        </div>
      </div>
    </section>
  );
}
