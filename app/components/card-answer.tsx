import { useEffect, useRef } from "react";

/**
 * The answer to an action, shown where the action was, in place of a toast over the page
 * (docs/decisions/028-answers-in-place.md): an order's card, the review's Transmit step. It takes the
 * focus its button lost (the button was replaced or disabled); `id` is the answer's own (a toast's id),
 * so the same words answering a second press take it again.
 */
export function CardAnswer({
  answer,
  id,
  description,
  refusal = false,
  className = "mt-2",
  testId = "order-answer",
}: {
  answer: string | null;
  id?: string;
  description?: string | null;
  refusal?: boolean;
  className?: string;
  testId?: string;
}) {
  const line = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (answer && (document.activeElement === document.body || document.activeElement === null)) line.current?.focus();
  }, [answer, id]);
  const look = refusal ? "border-2 border-danger bg-danger-bg" : "border border-teal";
  return (
    <div
      ref={line}
      role="status"
      tabIndex={-1}
      // Without JavaScript the redirect lands on the page anew: the answer takes the focus the action's button had.
      // eslint-disable-next-line jsx-a11y/no-autofocus -- only an answer to the user's own action, where they acted
      autoFocus={answer ? true : undefined}
      className={answer ? `${className} rounded-md ${look} px-3 py-1 text-sm` : ""}
      data-testid={testId}
    >
      {answer ? <p className="font-bold">{answer}</p> : null}
      {answer && description ? <p className="mt-0.5 text-cream">{description}</p> : null}
    </div>
  );
}
