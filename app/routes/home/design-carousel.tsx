import { DeckForm } from "~/components/deck-form";
import { activeDesigns, findDesign, type Catalogue, type Design } from "~/domain/catalogue";
import { HOME_COPY } from "~/domain/copy-home";
import type { Deck } from "~/domain/deck";

/** The designs on sale; a retired one the deck holds stays shown, chosen, until another is. */
export function DesignCarousel({ deck, catalogue }: { deck: Deck; catalogue: Catalogue }) {
  const held = findDesign(catalogue, deck.design);
  const designs = held && !held.active ? [...activeDesigns(catalogue), held] : activeDesigns(catalogue);
  return (
    <section id="designs" aria-labelledby="designs-heading" className="scroll-mt-24">
      <h2 id="designs-heading" className="mb-3 font-display text-xl font-bold uppercase tracking-wider text-acid">
        {HOME_COPY.chooseDesign}
      </h2>
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-4" aria-label="Cover designs">
        {designs.map((design) => (
          <DesignCard key={design.id} design={design} selected={deck.design === design.id} />
        ))}
      </ul>
    </section>
  );
}

function DesignCard({ design, selected }: { design: Design; selected: boolean }) {
  return (
    <li className="min-w-0">
      <DeckForm intent="design" fields={{ designId: design.id }}>
        <button
          type="submit"
          aria-pressed={selected}
          aria-label={`Choose design: ${design.name}`}
          className={`card block w-full overflow-hidden text-left transition-colors ${
            selected ? "border-2 border-acid" : "border-2 border-line hover:border-cream"
          }`}
        >
          <img src={design.image} alt="" width={320} height={200} loading="lazy" className="aspect-[8/5] w-full" />
          <span className="flex flex-wrap items-center justify-between gap-x-2 px-3 py-2 font-display text-sm font-bold uppercase">
            {design.name}
            {design.active ? null : (
              <span className="text-muted" data-testid="design-retired">
                {HOME_COPY.retiredMark}
              </span>
            )}
            {selected ? <span className="text-acid">Selected</span> : null}
          </span>
        </button>
      </DeckForm>
    </li>
  );
}
