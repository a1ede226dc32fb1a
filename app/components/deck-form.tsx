import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from "react";
import { useSubmit } from "react-router";
import { enqueueDeckEdit } from "./deck-queue";

/** The deck's edits with JavaScript: queued one at a time (deck-queue.ts), answered in place. */
type DeckEdits = {
  /** Sends the edit now; false when the page is not ready (the form then posts natively). */
  send(formData: FormData, fetcherKey: string): boolean;
  /** Sends the edit once typing pauses; a newer one with the same key replaces it. */
  later(fetcherKey: string, formData: () => FormData): void;
  /** Sends every edit waiting for a pause now: before the page goes. */
  flush(): void;
  /** Opens a page with a form post, in line behind the edits on their way (Review Order). */
  open(action: string, formData: FormData, waitingKey: string): void;
  /** False until the router has started: controls then act as they do without JavaScript. */
  ready(): boolean;
};
const DeckEditContext = createContext<DeckEdits | null>(null);
export const useDeckEdits = () => useContext(DeckEditContext);

const PAUSE_MS = 400;

export function DeckEditProvider({ children }: { children: ReactNode }) {
  const submit = useSubmit();
  // Until the router has started (this provider's effects ran), a fetcher submission
  // can vanish: the form posts the way it does without JavaScript instead.
  const ready = useRef(false);
  const waiting = useRef(new Map<string, { timer: ReturnType<typeof setTimeout>; formData: () => FormData }>());

  const send = useCallback(
    (formData: FormData, fetcherKey: string) => {
      if (!ready.current) return false;
      const pending = waiting.current.get(fetcherKey);
      if (pending) clearTimeout(pending.timer);
      waiting.current.delete(fetcherKey);
      formData.set("_fetch", "1"); // answered with data instead of a redirect (http.server.ts isFetch)
      enqueueDeckEdit(formData, (fd) => submit(fd, { method: "post", action: "/", navigate: false, fetcherKey }));
      return true;
    },
    [submit],
  );
  const later = useCallback(
    (fetcherKey: string, formData: () => FormData) => {
      clearTimeout(waiting.current.get(fetcherKey)?.timer);
      const timer = setTimeout(() => send(formData(), fetcherKey), PAUSE_MS);
      waiting.current.set(fetcherKey, { timer, formData });
    },
    [send],
  );
  const flush = useCallback(() => {
    for (const [key, { formData }] of [...waiting.current]) send(formData(), key);
  }, [send]);
  const open = useCallback(
    (action: string, formData: FormData, waitingKey: string) => {
      clearTimeout(waiting.current.get(waitingKey)?.timer); // this post carries what was waiting
      waiting.current.delete(waitingKey);
      enqueueDeckEdit(formData, (fd) => submit(fd, { method: "post", action, preventScrollReset: true }));
    },
    [submit],
  );

  useEffect(() => {
    ready.current = true;
    window.addEventListener("pagehide", flush);
    return () => {
      flush(); // leaving the storefront: nothing typed is left behind
      window.removeEventListener("pagehide", flush);
      ready.current = false;
    };
  }, [flush]);

  const value = useMemo(() => ({ send, later, flush, open, ready: () => ready.current }), [send, later, flush, open]);
  return <DeckEditContext.Provider value={value}>{children}</DeckEditContext.Provider>;
}

/**
 * A deck form: a plain POST to "/" without JavaScript (answered by a redirect), a
 * queued fetcher with it (answered in place; the page never reloads or jumps). Its
 * markup does not depend on the provider, so the server may cache it (static-markup.tsx).
 */
export function DeckForm({
  intent,
  fields,
  children,
  className,
  fetcherKey,
  id,
  onChange,
  onSent,
}: {
  intent: string;
  fields?: Record<string, string>;
  children: ReactNode;
  className?: string;
  fetcherKey: string;
  id?: string;
  onChange?: React.FormEventHandler<HTMLFormElement>;
  /** Called with the button that sent the edit, once it went out with JavaScript. */
  onSent?: (submitter: HTMLElement | null) => void;
}) {
  const edits = useDeckEdits();
  return (
    <form
      id={id}
      method="post"
      action="/"
      className={className}
      onChange={onChange}
      onSubmit={(e) => {
        if (!edits) return; // no provider: the browser posts the form
        const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLElement | null;
        if (!edits.send(new FormData(e.currentTarget, submitter), fetcherKey)) return; // the browser posts it
        e.preventDefault();
        onSent?.(submitter);
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  );
}
