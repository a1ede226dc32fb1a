import { Link } from "react-router";

/** An emailed link that cannot be used: what happened, and the one way on. */
export function LinkProblem({
  id,
  heading,
  message,
  to,
  action,
}: {
  /** Names the heading's id (`${id}-heading`) and the alert's test id (`${id}-error`). */
  id: string;
  heading: string;
  message: string;
  to: string;
  action: string;
}) {
  return (
    <section className="card mx-auto max-w-md p-8 text-center" aria-labelledby={`${id}-heading`}>
      <h1 id={`${id}-heading`} className="font-display text-2xl font-bold text-acid">
        {heading}
      </h1>
      <p
        role="alert"
        className="mt-4 rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm"
        data-testid={`${id}-error`}
      >
        {message}
      </p>
      <p className="mt-6">
        <Link to={to} className="btn-primary">
          {action}
        </Link>
      </p>
    </section>
  );
}
