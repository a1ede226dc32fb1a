import type { RouterContextProvider } from "react-router";
import { parseMixerIntent, type MixerIntent } from "~/domain/order-intents";
import { cardAnswerPlace } from "~/domain/queue";
import { isOrderCode } from "~/domain/order-code";
import type { BackendRequest } from "~/server/backend/port.server";
import { refuseWithToast } from "~/server/platform/forms.server";
import { isFetch } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { changeOrder } from "~/server/services/mixer.server";
import type { FormValues } from "./card-action";

/**
 * `inCard`: the queue shows the answer in the order's card (or, when the action moved it off the list,
 * where it stood: before the card named by the form's `next`), not as a toast over the cards.
 */
export async function consoleAction(
  context: Readonly<RouterContextProvider>,
  api: BackendRequest,
  form: FormData,
  back: (intent: MixerIntent) => string,
  { inCard = false }: { inCard?: boolean } = {},
) {
  const parsed = parseMixerIntent(form);
  // What was typed comes back with a refusal, so nothing is lost.
  const values: FormValues = {
    intent: String(form.get("intent") ?? ""),
    code: String(form.get("code") ?? ""),
    deliveryUrl: String(form.get("deliveryUrl") ?? ""),
    message: String(form.get("message") ?? ""),
    reason: String(form.get("reason") ?? ""),
    amount: String(form.get("amount") ?? ""),
  };
  if (!parsed.ok) return refuseWithToast(context, 400, { message: parsed.error }, { ok: false as const, values });
  const outcome = await changeOrder(api, parsed.intent);
  if (!outcome.ok) return refuseWithToast(context, 409, { message: outcome.message }, { ok: false as const, values });
  const next = form.get("next");
  const place = inCard ? { place: cardAnswerPlace(parsed.intent.code), ...(isOrderCode(next) ? { before: next } : {}) } : {};
  const done = { message: outcome.message, ...place };
  if (isFetch(form)) return toast(context).data({ ok: true as const, values: null }, done);
  return toast(context).redirect(back(parsed.intent), done, { status: 303 });
}
