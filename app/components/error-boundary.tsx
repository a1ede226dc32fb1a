import { useEffect, type ReactElement, type ReactNode } from "react";
import { type ErrorResponse, isRouteErrorResponse, Link, useParams, useRouteError } from "react-router";
import { COPY } from "~/domain/copy";
import { reportClientError } from "./client-errors";

export type StatusHandler = (info: { error: ErrorResponse; params: Record<string, string | undefined> }) => ReactElement | null;

/** The message a 4xx carries when the app threw it (`data({ message })`); else null. */
const messageOf = (data: unknown) =>
  data && typeof data === "object" && typeof (data as { message?: unknown }).message === "string"
    ? (data as { message: string }).message
    : null;

/** The error's card: its heading (the page's title too), anything below it, and the way home. */
export function ErrorCard({ heading, children }: { heading: string; children?: ReactNode }) {
  return (
    <section className="card mx-auto max-w-xl p-8 text-center">
      <title>{heading}</title>
      <h1 className="font-display text-2xl font-bold text-acid" data-testid="error-heading">
        {heading}
      </h1>
      {children}
      <p className="mt-6">
        <Link to="/" className="btn-primary">
          {COPY.errors.goHome}
        </Link>
      </p>
    </section>
  );
}

/** The app's answers by status; a route's own `statusHandlers` are added to these (and win). */
export const APP_STATUS_HANDLERS: Record<number, StatusHandler> = {
  404: () => (
    <ErrorCard heading={COPY.errors.notFound}>
      <p className="mt-2 text-muted">That frequency is dead air.</p>
    </ErrorCard>
  ),
  403: ({ error }) => <ErrorCard heading={messageOf(error.data) ?? COPY.errors.notYours} />,
  409: ({ error }) => <ErrorCard heading={messageOf(error.data) ?? COPY.errors.alreadyUpdated} />,
  503: () => <ErrorCard heading={COPY.errors.unavailable} />,
};

/** Any other status: a 4xx shows the message it was thrown with, a 5xx the generic heading. */
const defaultStatus: StatusHandler = ({ error }) => (
  <ErrorCard heading={error.status < 500 ? (messageOf(error.data) ?? COPY.errors.badRequest) : COPY.errors.unexpected} />
);

/** An error that is not a response: never its message (it may hold anything), the generic heading. */
const unexpected = () => <ErrorCard heading={COPY.errors.unexpected} />;

/**
 * Epic Stack's GeneralErrorBoundary: exported by the busiest pages so an error keeps the header and
 * footer. A response renders by its status; anything else is unexpected, and in the browser it is
 * reported to the server's log (app/components/client-errors.ts).
 */
export function GeneralErrorBoundary({
  defaultStatusHandler = defaultStatus,
  statusHandlers,
  unexpectedErrorHandler = unexpected,
}: {
  defaultStatusHandler?: StatusHandler;
  statusHandlers?: Record<number, StatusHandler>;
  unexpectedErrorHandler?: (error: unknown) => ReactElement | null;
}) {
  const error = useRouteError();
  const params = useParams();
  const isResponse = isRouteErrorResponse(error);

  // Effects run only in the browser: the server's render reports nothing.
  useEffect(() => {
    if (!isResponse) reportClientError(error);
  }, [error, isResponse]);

  if (!isResponse) return unexpectedErrorHandler(error);
  const handler = statusHandlers?.[error.status] ?? APP_STATUS_HANDLERS[error.status] ?? defaultStatusHandler;
  return handler({ error, params });
}
