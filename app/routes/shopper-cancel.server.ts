// The shopper's Cancel Order, one action for the list and the order's own page: the same rules
// (SQL: a shopper cancels their own order while it is received), the same copy, POST/redirect/GET.
import type { RouterContextProvider } from "react-router";
import { COPY } from "~/domain/copy";
import { ORDERS_COPY } from "~/domain/copy-orders";
import { netPaid } from "~/domain/money";
import { parseShopperIntent } from "~/domain/order-intents";
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
 * Cancels the form's order and lands on `back(code)` (303) with the outcome as a toast; a refusal
 * (not received any more, not theirs) is a 409 toast on the same page. `only` limits the form to
 * one order (an order's own page cancels that order alone).
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
  if (!outcome.ok) return refuseWithToast(context, 409, { message: outcome.message });
  return toast(context).redirect(back(parsed.intent.code), { message: outcome.message }, { status: 303 });
}
