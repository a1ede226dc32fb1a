import { useEffect } from "react";

/** The beacon's endpoint (app/routes/client-errors.ts) and what it takes. */
export const CLIENT_ERRORS = {
  path: "/client-errors",
  /** The message is cut to this many characters before it is sent and again when it is logged. */
  messageMax: 500,
  /** A longer body is refused (413). */
  bodyMax: 4 * 1024,
} as const;

/** Reports per page load: a loop that keeps throwing sends a few, not thousands. */
const MAX_REPORTS = 5;
let reports = 0;
const reported = new WeakSet<object>();

const describe = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : typeof error === "string" ? error : String(error);

/**
 * Sends an error the browser met to the server's log: `navigator.sendBeacon` (it outlives the page),
 * else `fetch` with `keepalive`. A form body, as every POST of the app (server/app.ts refuses others).
 */
export function reportClientError(error: unknown) {
  if (typeof window === "undefined" || reports >= MAX_REPORTS) return;
  // React Router rebuilds a loader's or action's error from the server's answer without a stack:
  // the server has logged it already.
  if (error instanceof Error && !error.stack) return;
  if (typeof error === "object" && error !== null) {
    if (reported.has(error)) return;
    reported.add(error);
  }
  reports++;
  const body = new URLSearchParams({
    message: describe(error).slice(0, CLIENT_ERRORS.messageMax),
    page: window.location.pathname,
  });
  try {
    if (navigator.sendBeacon?.(CLIENT_ERRORS.path, body)) return;
  } catch {
    // fall through to fetch
  }
  void fetch(CLIENT_ERRORS.path, { method: "POST", body, keepalive: true }).catch(() => {});
}

/** Errors no error boundary caught (an event handler's, a promise's) go to the server's log too. */
export function useUncaughtErrorReports() {
  useEffect(() => {
    const onError = (event: ErrorEvent) => reportClientError(event.error ?? event.message);
    const onRejection = (event: PromiseRejectionEvent) => reportClientError(event.reason);
    window.addEventListener("error", onError);
    window.addEventListener("unhandledrejection", onRejection);
    return () => {
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
    };
  }, []);
}
