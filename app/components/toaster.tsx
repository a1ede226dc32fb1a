import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { useRouteLoaderData } from "react-router";
import type { Toast } from "~/domain/toast";
import { useHydrated } from "./use-hydrated";

const TOAST_MS = 4000;
const MAX_TOASTS = 3;

/**
 * The toasts, and where they show: over the page, or in an open modal dialog (the top layer), which says so
 * by rendering <DialogToasts/>. Outside it they would be drawn under it, and inert. The queue lives here, above
 * both places, so a toast keeps its clock when the dialog opens or closes.
 */
const Toasts = createContext<{ visible: Toast[]; inDialog: boolean; setInDialog: (inDialog: boolean) => void }>({
  visible: [],
  inDialog: false,
  setInDialog: () => {},
});

export function ToastHostProvider({ children }: { children: ReactNode }) {
  const root = (useRouteLoaderData("root") as { toast?: Toast | null } | undefined)?.toast ?? null;
  const current = root && !root.place ? root : null;
  const hydrated = useHydrated();
  const [queue, setQueue] = useState<Toast[]>([]);
  const [inDialog, setInDialog] = useState(false);
  const seen = useRef(new Set<string>());

  useEffect(() => {
    if (!current || seen.current.has(current.id)) return;
    seen.current.add(current.id);
    setQueue((q) => [...q, current].slice(-MAX_TOASTS));
    // Each toast leaves on its own clock, whatever arrives after it.
    setTimeout(() => setQueue((q) => q.filter((x) => x.id !== current.id)), TOAST_MS);
  }, [current]);

  const visible = hydrated ? queue : current ? [current] : [];
  return <Toasts.Provider value={{ visible, inDialog, setInDialog }}>{children}</Toasts.Provider>;
}

/** A modal dialog shows the toasts while it is open (after hydration: without JavaScript it is not modal). */
export function DialogToasts() {
  const { visible, inDialog, setInDialog } = useContext(Toasts);
  useEffect(() => {
    setInDialog(true);
    return () => setInDialog(false);
  }, [setInDialog]);
  return inDialog ? <ToastList toasts={visible} /> : null;
}

/** CSS hides them after 4 s, so they also work without JavaScript. An answer with a place is shown there instead. */
export function Toaster() {
  const { visible, inDialog } = useContext(Toasts);
  return inDialog ? null : <ToastList toasts={visible} />;
}

function ToastList({ toasts }: { toasts: Toast[] }) {
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-0 top-2 z-50 flex flex-col items-center gap-2 px-3 sm:inset-x-auto sm:right-4 sm:top-4 sm:items-end"
    >
      <div role="status" aria-live="polite" className="w-full max-w-sm">
        <ol className="flex w-full flex-col gap-2">
          {toasts.map((t) => (
            <li
              key={t.id}
              data-testid="toast"
              data-type={t.type}
              className={`toast pointer-events-auto rounded-lg border-2 px-4 py-3 shadow-lg ${
                t.type === "error" ? "border-danger bg-danger-bg text-cream" : "border-teal bg-panel text-cream"
              }`}
            >
              <p className="font-display font-bold">{t.message}</p>
              {t.description ? <p className="mt-0.5 text-sm text-muted">{t.description}</p> : null}
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
