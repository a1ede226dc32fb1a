import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { COPY } from "~/domain/copy";

/** The message a 4xx carries when the app threw it (`data({ message })`); else null. */
const messageOf = (data: unknown) =>
  data && typeof data === "object" && typeof (data as { message?: unknown }).message === "string"
    ? (data as { message: string }).message
    : null;

/** Epic Stack's GeneralErrorBoundary: exported by the busiest pages so an error keeps the header and footer. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  let heading: string = COPY.errors.unexpected;
  let notFound = false;
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      heading = COPY.errors.notFound;
      notFound = true;
    } else if (error.status === 503) {
      heading = COPY.errors.unavailable;
    } else if (error.status < 500) {
      heading = messageOf(error.data) ?? COPY.errors.badRequest;
    }
  }
  return (
    <section className="card mx-auto max-w-xl p-8 text-center">
      <title>{heading}</title>
      <h1 className="font-display text-2xl font-bold text-acid" data-testid="error-heading">
        {heading}
      </h1>
      {notFound ? <p className="mt-2 text-muted">That frequency is dead air.</p> : null}
      <p className="mt-6">
        <Link to="/" className="btn-primary">
          {COPY.errors.goHome}
        </Link>
      </p>
    </section>
  );
}
