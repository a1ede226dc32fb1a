import { useRouteLoaderData } from "react-router";
import type { Deck } from "~/domain/deck";
import { applyIntent, parseDeckIntent } from "~/domain/intents";
import { usePendingDeckEdits } from "./deck-queue";

/** The deck as the shopper should see it now: the server's, plus the edits on their way. */
export function useOptimisticDeck(): { deck: Deck; busy: boolean } {
  const home = useRouteLoaderData("routes/home") as { deck: Deck };
  const pending = usePendingDeckEdits();
  let deck = home.deck;
  for (const { formData } of pending) {
    // The server's own reader and rules: what it will accept is what shows now.
    const parsed = parseDeckIntent(formData);
    const result = parsed.ok ? applyIntent(deck, parsed.intent) : null;
    if (result?.ok) deck = result.deck;
  }
  return { deck, busy: pending.length > 0 };
}
