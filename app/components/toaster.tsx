import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useRouteLoaderData } from "react-router";
import { useHydrated } from "./use-hydrated";

export type Toast = {
  id: string;
  type: "success" | "error" | "info" | "warning";
  message: string;
  description?: string;
  notice?: string;
  resendFor?: string;
  /** The id of the place on the page that shows this answer in line, instead of a toast over the page. */
  place?: string;
  /** A console card that left the list: the card it stood before, where its answer stays. */
  before?: string;
};

const TOAST_MS = 4000;
const MAX_TOASTS = 3;

/** Where the toasts render: the page, or an open modal dialog (the top layer), which names itself. */
const ToastHost = createContext<{ host: HTMLElement | null; setHost: (host: HTMLElement | null) => void }>({
  host: null,
  setHost: () => {},
});

export function ToastHostProvider({ children }: { children: ReactNode }) {
  const [host, setHost] = useState<HTMLElement | null>(null);
  return <ToastHost.Provider value={{ host, setHost }}>{children}</ToastHost.Provider>;
}

/** A modal dialog hosts the toasts while it is open: outside it they would be drawn under it, and inert. */
export function useToastHost(dialog: React.RefObject<HTMLElement | null>) {
  const { setHost } = useContext(ToastHost);
  useEffect(() => {
    setHost(dialog.current);
    return () => setHost(null);
  }, [dialog, setHost]);
}

/** CSS hides them after 4 s, so they also work without JavaScript. An answer with a place is shown there instead. */
export function Toaster() {
  const root = (useRouteLoaderData("root") as { toast?: Toast | null } | undefined)?.toast ?? null;
  const current = root && !root.place ? root : null;
  const hydrated = useHydrated();
  const { host } = useContext(ToastHost);
  const [queue, setQueue] = useState<Toast[]>([]);
  const seen = useRef(new Set<string>());

  useEffect(() => {
    if (!current || seen.current.has(current.id)) return;
    seen.current.add(current.id);
    setQueue((q) => [...q, current].slice(-MAX_TOASTS));
    // Each toast leaves on its own clock, whatever arrives after it.
    setTimeout(() => setQueue((q) => q.filter((x) => x.id !== current.id)), TOAST_MS);
  }, [current]);

  const visible = hydrated ? queue : current ? [current] : [];
  const toasts = (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-0 top-2 z-50 flex flex-col items-center gap-2 px-3 sm:inset-x-auto sm:right-4 sm:top-4 sm:items-end"
    >
      <div role="status" aria-live="polite" className="w-full max-w-sm">
        <ol className="flex w-full flex-col gap-2">
          {visible.map((t) => (
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
  return host ? createPortal(toasts, host) : toasts;
}
