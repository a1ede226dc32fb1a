import { useContext, useEffect, useRef, useState } from "react";
import { UNSAFE_DataRouterStateContext, useFetchers, useRouteLoaderData } from "react-router";
import { useHydrated } from "./use-hydrated";

export type ToastView = {
  id: string;
  type: "success" | "error" | "info" | "warning";
  message: string;
  description?: string;
};

export const TOAST_MS = 4000;
export const MAX_TOASTS = 3;

const hasToast = (d: unknown): d is { toast: ToastView } =>
  !!d && typeof d === "object" && "toast" in d && !!(d as { toast?: ToastView }).toast?.id;

/** Every toast the current render knows of: the flash toast, action data, fetchers. */
function useCurrentToasts(): ToastView[] {
  const root = useRouteLoaderData("root") as { toast?: ToastView | null } | undefined;
  const state = useContext(UNSAFE_DataRouterStateContext);
  const fetchers = useFetchers();
  const list: ToastView[] = [];
  if (root?.toast) list.push(root.toast);
  for (const d of Object.values(state?.actionData ?? {})) if (hasToast(d)) list.push(d.toast);
  for (const f of fetchers) if (hasToast(f.data)) list.push(f.data.toast);
  return list;
}

/**
 * Server-rendered toasts that also work without JavaScript (CSS hides them after
 * 4 s). With JavaScript they queue: at most 3 at once, each leaving after 4 s.
 */
export function Toaster() {
  const current = useCurrentToasts();
  const hydrated = useHydrated();
  const [queue, setQueue] = useState<ToastView[]>([]);
  const seen = useRef(new Set<string>());
  const key = current.map((t) => t.id).join(",");

  useEffect(() => {
    const fresh = current.filter((t) => !seen.current.has(t.id));
    if (fresh.length === 0) return;
    for (const t of fresh) {
      seen.current.add(t.id);
      setTimeout(() => setQueue((q) => q.filter((x) => x.id !== t.id)), TOAST_MS);
    }
    setQueue((q) => [...q, ...fresh].slice(-MAX_TOASTS));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const visible = (hydrated ? queue : current).slice(-MAX_TOASTS);
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
