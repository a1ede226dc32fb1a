import { useFetchers, useRouteLoaderData } from "react-router";
import type { Deck } from "~/domain/deck";
import { applyIntent, parseDeckIntent } from "~/domain/intents";
import { useQueuedDeckEdits } from "./deck-queue";

/** The deck as the shopper should see it now: the server's, plus pending edits. */
export function useOptimisticDeck(): { deck: Deck; busy: boolean } {
  const home = useRouteLoaderData("routes/home") as { deck: Deck };
  const fetchers = useFetchers();
  const queued = useQueuedDeckEdits();
  let deck = home.deck;
  let busy = queued.length > 0;
  const pending = [
    ...fetchers.filter((f) => f.formData && f.formAction?.split("?")[0] === "/").map((f) => f.formData!),
    ...queued.map((q) => q.formData),
  ];
  for (const formData of pending) {
    busy = true;
    // The server's own reader and rules: what it will accept is what shows now.
    const parsed = parseDeckIntent(formData);
    const result = parsed.ok ? applyIntent(deck, parsed.intent) : null;
    if (result?.ok) deck = result.deck;
  }
  return { deck, busy };
}
