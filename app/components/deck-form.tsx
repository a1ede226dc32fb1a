import { useCallback, useEffect, useRef, type ReactNode } from "react";
import { useFetchers, useRouteLoaderData, useSubmit } from "react-router";
import type { Catalogue } from "~/domain/catalogue";
import type { Deck } from "~/domain/deck";
import { applyIntent, parseDeckIntent } from "~/domain/intents";
import { useHydrated } from "./use-hydrated";

// The deck is a signed cookie, so edits go one at a time (docs/decisions/003-deck-edits.md).
let lastTurn: Promise<unknown> = Promise.resolve();
export function inTurn<T>(send: () => Promise<T>): Promise<T> {
  const turn = lastTurn.then(send, send);
  lastTurn = turn.catch(() => undefined);
  return turn;
}

/** The storefront's catalogue (the home route's loader read it for this page). */
export const useCatalogue = (): Catalogue => (useRouteLoaderData("routes/home") as { catalogue: Catalogue }).catalogue;

/** Hydrogen's optimistic cart. */
export function useOptimisticDeck(): { deck: Deck; busy: boolean } {
  const home = useRouteLoaderData("routes/home") as { deck: Deck; catalogue: Catalogue };
  let deck = home.deck;
  let busy = false;
  for (const fetcher of useFetchers()) {
    if (fetcher.state === "idle" || fetcher.formAction !== "/" || !fetcher.formData) continue;
    busy = true;
    // An edit the fresh data already holds changes nothing.
    const parsed = parseDeckIntent(fetcher.formData);
    const result = parsed.ok ? applyIntent(deck, parsed.intent, home.catalogue) : null;
    if (result?.ok) deck = result.deck;
  }
  return { deck, busy };
}

export function DeckForm({
  intent,
  fields,
  children,
  className,
  id,
  onChange,
  onSent,
}: {
  intent: string;
  fields?: Record<string, string>;
  children: ReactNode;
  className?: string;
  id?: string;
  onChange?: React.FormEventHandler<HTMLFormElement>;
  onSent?: (submitter: HTMLElement | null) => void;
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  return (
    <form
      id={id}
      method="post"
      action="/"
      className={className}
      onChange={onChange}
      onSubmit={(e) => {
        if (!hydrated) return; // the browser posts the form
        e.preventDefault();
        const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLElement | null;
        const formData = new FormData(e.currentTarget, submitter);
        const action = submitter?.getAttribute("formaction");
        if (action) {
          formData.delete("_fetch");
          void submit(formData, { method: "post", action, preventScrollReset: true });
        } else void submit(formData, { method: "post", action: "/", navigate: false });
        onSent?.(submitter);
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      {hydrated ? <input type="hidden" name="_fetch" value="1" /> : null}
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  );
}

const PAUSE_MS = 400;

/** What still waits goes out when the page goes. */
export function useSubmitAfterPause() {
  const submit = useSubmit();
  const waiting = useRef<{ timer: ReturnType<typeof setTimeout>; form: HTMLFormElement } | null>(null);
  const cancel = useCallback(() => {
    if (waiting.current) clearTimeout(waiting.current.timer);
    waiting.current = null;
  }, []);
  const submitNow = useCallback(() => {
    const form = waiting.current?.form;
    cancel();
    if (form) void submit(new FormData(form), { method: "post", action: "/", navigate: false });
  }, [submit, cancel]);
  const later = useCallback(
    (form: HTMLFormElement) => {
      cancel();
      waiting.current = { timer: setTimeout(submitNow, PAUSE_MS), form };
    },
    [submitNow, cancel],
  );
  useEffect(() => {
    window.addEventListener("pagehide", submitNow);
    return () => {
      submitNow(); // leaving the storefront: nothing typed is left behind
      window.removeEventListener("pagehide", submitNow);
    };
  }, [submitNow]);
  return { later, cancel };
}
