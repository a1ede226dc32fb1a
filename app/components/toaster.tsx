import { useEffect, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { useHydrated } from "./use-hydrated";

export type Toast = {
  id: string;
  type: "success" | "error" | "info" | "warning";
  message: string;
  description?: string;
  notice?: string;
  resendFor?: string;
};

const TOAST_MS = 4000;
const MAX_TOASTS = 3;

/** CSS hides them after 4 s, so they also work without JavaScript. */
export function Toaster() {
  const current = (useRouteLoaderData("root") as { toast?: Toast | null } | undefined)?.toast ?? null;
  const hydrated = useHydrated();
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
  return (
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
}
