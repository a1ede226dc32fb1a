import type { RouterContextProvider } from "react-router";
import { DROP_COPY } from "~/domain/copy-orders";
import type { BackendRequest } from "~/server/backend/port.server";
import { refuseWithToast } from "~/server/platform/forms.server";
import { notFound } from "~/server/platform/http.server";
import { readUploadedFile } from "~/server/platform/upload.server";
import { toast } from "~/server/platform/toast.server";
import { mixerOrder } from "~/server/services/conversation.server";
import { receiveTape } from "~/server/services/drop.server";

/** The tape from the order page's plain form (without JavaScript): streamed, checked, stored; a refusal stays on the page. */
export async function tapeUploadAction(
  context: Readonly<RouterContextProvider>,
  api: BackendRequest,
  request: Request,
  code: string | undefined,
) {
  const order = await mixerOrder(api, code);
  if (!order) throw notFound();
  const file = await readUploadedFile(request, "tape");
  if (!file) return refuseWithToast(context, 400, { message: DROP_COPY.noFile }, { ok: false as const, tape: DROP_COPY.noFile });
  const outcome = await receiveTape(api, order.code, file);
  if (!outcome.ok)
    return refuseWithToast(context, outcome.status, { message: outcome.message }, { ok: false as const, tape: outcome.message });
  return toast(context).redirect(`/mixer/orders/${order.code}#tape`, { message: outcome.message }, { status: 303 });
}
