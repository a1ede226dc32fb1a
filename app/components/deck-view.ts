import { useFetchers, useRouteLoaderData } from "react-router";
import { applyIntent, TOGGLE_KEYS, type Deck, type DeckIntent, type Toggles } from "~/domain/deck";
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
    const intent = previewIntent(formData);
    if (!intent) continue;
    const result = applyIntent(deck, intent);
    if (result.ok) deck = result.deck;
  }
  return { deck, busy };
}

/**
 * Reads a pending deck form for display only (optimistic updates), without zod: the
 * server validates every submission with the schemas in domain/schemas.ts, and the
 * deck rules in applyIntent refuse anything out of place.
 */
function previewIntent(form: FormData): DeckIntent | null {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  switch (text("intent")) {
    case "add":
    case "remove":
      return { intent: text("intent") as "add" | "remove", songId: text("songId") };
    case "move":
      return { intent: "move", songId: text("songId"), to: Number.parseInt(text("to"), 10) };
    case "design":
      return { intent: "design", designId: text("designId") || null };
    case "options":
      return {
        intent: "options",
        note: text("note").replace(/\r\n?/g, "\n"),
        toggles: Object.fromEntries(TOGGLE_KEYS.map((k) => [k, text(k) === "on" || text(k) === "true"])) as Toggles,
      };
    default:
      return null;
  }
}
