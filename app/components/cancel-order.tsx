import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import { ORDERS_COPY } from "~/domain/copy-orders";
import { StatusButton, useIsPending } from "./forms";

/**
 * The shopper's Cancel Order, on the list and on the order's own page: a link to a confirmation
 * (a URL of its own, so it works without JavaScript), then a plain form POST that lands back
 * where it was. `here(true)` is the confirming URL, `here(false)` the page itself.
 */
export function CancelOrder({
  code,
  confirming,
  refund,
  here,
}: {
  code: string;
  confirming: boolean;
  /** What the confirmation says is refunded (a paid order). */
  refund: string | null;
  here: (confirming: boolean) => string;
}) {
  const busy = useIsPending({ intent: "cancel" });
  const keep = useRef<HTMLAnchorElement>(null);
  // React's autoFocus moves focus only to form controls: after a client navigation the link takes it here.
  useEffect(() => {
    if (confirming) keep.current?.focus();
  }, [confirming]);
  if (!confirming)
    return (
      <Link to={here(true)} preventScrollReset className="btn-ghost" data-testid="order-cancel">
        {ORDERS_COPY.cancelOrder}
      </Link>
    );
  return (
    <div
      role="alertdialog"
      aria-labelledby={`cancel-${code}-heading`}
      aria-describedby={refund ? `cancel-${code}-refund` : undefined}
      className="w-full rounded-lg border-2 border-danger p-3"
      data-testid="cancel-confirm"
    >
      <h3 id={`cancel-${code}-heading`} className="font-bold">
        {ORDERS_COPY.cancelQuestion(code)}
      </h3>
      {refund ? (
        <p id={`cancel-${code}-refund`} className="mt-1 text-sm" data-testid="cancel-refund">
          {refund}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-2">
        {/* The page stays where it is: the answer, in the card, takes the focus and so comes into view. */}
        <Form method="post" action={here(false).replace(/#.*/, "")} preventScrollReset>
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="code" value={code} />
          <StatusButton pending={busy} pendingLabel={ORDERS_COPY.cancelling} className="btn-primary">
            {ORDERS_COPY.cancelYes}
          </StatusButton>
        </Form>
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the confirmation's safe choice takes focus, with and without JavaScript */}
        <Link ref={keep} to={here(false)} preventScrollReset className="btn-ghost" autoFocus>
          {ORDERS_COPY.cancelKeep}
        </Link>
      </div>
    </div>
  );
}
