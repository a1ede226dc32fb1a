import { useFetchers, useRouteLoaderData } from "react-router";
import { applyIntent, type Deck } from "~/domain/deck";
import { parseDeckIntent } from "~/domain/schemas";

/** The deck as the shopper should see it now: the server's, plus pending edits. */
export function useOptimisticDeck(): Deck {
  const home = useRouteLoaderData("routes/home") as { deck: Deck };
  const fetchers = useFetchers();
  let deck = home.deck;
  for (const f of fetchers) {
    if (!f.formData || f.formAction?.split("?")[0] !== "/") continue;
    const parsed = parseDeckIntent(f.formData);
    if (!parsed.ok) continue;
    const result = applyIntent(deck, parsed.intent);
    if (result.ok) deck = result.deck;
  }
  return deck;
}
