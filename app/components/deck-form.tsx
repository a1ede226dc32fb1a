import { createContext, useCallback, useContext, useEffect, useRef, type ReactNode } from "react";
import { useSubmit } from "react-router";
import { enqueueDeckEdit } from "./deck-queue";

/** Sends the edit and answers true, or answers false when the page is not ready for it. */
type SendDeckEdit = (formData: FormData, fetcherKey: string | undefined) => boolean;
const DeckEditContext = createContext<SendDeckEdit | null>(null);

/**
 * Gives deck forms their JavaScript path: each edit joins the queue (deck-queue.ts),
 * then goes out as a keyed fetcher submission, answered in place.
 */
export function DeckEditProvider({ children }: { children: ReactNode }) {
  const submit = useSubmit();
  // Until the router has started (this provider's effects ran), a fetcher submission
  // can vanish: the form posts the way it does without JavaScript instead.
  const ready = useRef(false);
  useEffect(() => {
    ready.current = true;
    return () => {
      ready.current = false;
    };
  }, []);
  const send = useCallback<SendDeckEdit>(
    (formData, fetcherKey) => {
      if (!ready.current) return false;
      enqueueDeckEdit(formData, (fd) =>
        submit(fd, {
          method: "post",
          action: "/",
          navigate: false,
          fetcherKey,
        }),
      );
      return true;
    },
    [submit],
  );
  return <DeckEditContext.Provider value={send}>{children}</DeckEditContext.Provider>;
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
  onChange,
}: {
  intent: string;
  fields?: Record<string, string>;
  children: ReactNode;
  className?: string;
  fetcherKey?: string;
  onChange?: React.FormEventHandler<HTMLFormElement>;
}) {
  const send = useContext(DeckEditContext);
  return (
    <form
      method="post"
      action="/"
      className={className}
      onChange={onChange}
      onSubmit={(e) => {
        if (!send) return; // no provider: the browser posts the form
        const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLElement | null;
        const formData = new FormData(e.currentTarget, submitter);
        formData.set("_fetch", "1"); // answered with data instead of a redirect (http.server.ts isFetch)
        if (send(formData, fetcherKey)) e.preventDefault(); // else the browser posts the form
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
