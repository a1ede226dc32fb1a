// The shopper's Cancel Order, one action for the list and the order's own page: the same rules
// (SQL: a shopper cancels their own order while it is received), the same copy, POST/redirect/GET.
import type { RouterContextProvider } from "react-router";
import { COPY } from "~/domain/copy";
import { ORDERS_COPY } from "~/domain/copy-orders";
import { netPaid } from "~/domain/money";
import { parseShopperIntent } from "~/domain/order-intents";
import { cardAnswerPlace } from "~/domain/queue";
import type { Order } from "~/domain/orders";
import type { BackendRequest } from "~/server/backend/port.server";
import { refuseWithToast } from "~/server/platform/forms.server";
import { toast } from "~/server/platform/toast.server";
import { changeOrder } from "~/server/services/mixer.server";

/** What the cancel confirmation says is refunded, for a received order that was paid. */
export function refundOnCancel(order: Order): string | null {
  if (order.status !== "received" || !order.paid) return null;
  const { amounts, unknown } = netPaid(order.money);
  if (amounts.length) return ORDERS_COPY.cancelRefund(amounts.join(" and "));
  return unknown ? ORDERS_COPY.cancelRefundUnknown : null;
}

/**
 * Cancels the form's order and lands on `back(code)` (303); a refusal (not received any more, not
 * theirs) is a 409 on the same page. Either answer is the order card's (`cardAnswerPlace`, as the
 * console's: decisions/028-answers-in-place.md), shown where the cancel was, never a toast over the page;
 * `back` has no fragment, which would block the answer's autofocus. `only` limits the form to one
 * order (an order's own page cancels that order alone).
 */
export async function shopperCancelAction(
  context: Readonly<RouterContextProvider>,
  api: BackendRequest,
  form: FormData,
  { back, only }: { back: (code: string) => string; only?: string },
) {
  const parsed = parseShopperIntent(form);
  if (!parsed.ok) return refuseWithToast(context, 400, { message: parsed.error });
  if (only !== undefined && parsed.intent.code !== only)
    return refuseWithToast(context, 400, { message: COPY.errors.badRequest });
  const outcome = await changeOrder(api, parsed.intent);
  const place = cardAnswerPlace(parsed.intent.code);
  if (!outcome.ok) return refuseWithToast(context, 409, { message: outcome.message, place });
  return toast(context).redirect(back(parsed.intent.code), { message: outcome.message, place }, { status: 303 });
}
