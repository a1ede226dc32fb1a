import type { RouterContextProvider } from "react-router";
import { parseMixerIntent, type MixerIntent } from "~/domain/intents";
import type { BackendRequest } from "~/server/backend/port.server";
import { refuseWithToast } from "~/server/platform/forms.server";
import { isFetch } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { changeOrder } from "~/server/services/mixer.server";
import type { FormValues } from "./order-card";

export async function consoleAction(
  context: Readonly<RouterContextProvider>,
  api: BackendRequest,
  form: FormData,
  back: (intent: MixerIntent) => string,
) {
  const parsed = parseMixerIntent(form);
  // What was typed comes back with a refusal, so nothing is lost.
  const values: FormValues = {
    code: String(form.get("code") ?? ""),
    deliveryUrl: String(form.get("deliveryUrl") ?? ""),
    message: String(form.get("message") ?? ""),
    reason: String(form.get("reason") ?? ""),
    amount: String(form.get("amount") ?? ""),
  };
  if (!parsed.ok) return refuseWithToast(context, 400, { message: parsed.error }, { ok: false as const, values });
  const outcome = await changeOrder(api, parsed.intent);
  if (!outcome.ok) return refuseWithToast(context, 409, { message: outcome.message }, { ok: false as const, values });
  const done = { message: outcome.message };
  if (isFetch(form)) return toast(context).data({ ok: true as const, values: null }, done);
  return toast(context).redirect(back(parsed.intent), done, { status: 303 });
}
