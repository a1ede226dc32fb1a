import type { RouterContextProvider } from "react-router";
import { DROP_COPY } from "~/domain/copy-orders";
import { TAPE_ANSWER_PLACE } from "~/domain/queue";
import type { BackendRequest } from "~/server/backend/port.server";
import { requestContext } from "~/server/context.server";
import { refuseWithToast } from "~/server/platform/forms.server";
import { notFound } from "~/server/platform/http.server";
import { BodyError, readUploadedFile } from "~/server/platform/upload.server";
import { toast } from "~/server/platform/toast.server";
import { rootOf } from "~/server/root.server";
import { mixerOrder } from "~/server/services/conversation.server";
import { bodyRefusal, receiveTape, tapeRefusal, type UploadRefusal } from "~/server/services/drop.server";

/**
 * The tape from the order page's plain form (without JavaScript): streamed, checked, stored; a refusal
 * stays on the page. Who sends it and whether the order takes a tape are known before any byte of the
 * file is read; only then may the body take the upload's long timeout.
 */
export async function tapeUploadAction(
  context: Readonly<RouterContextProvider>,
  api: BackendRequest,
  request: Request,
  code: string | undefined,
) {
  const refuse = ({ status, message }: UploadRefusal) =>
    refuseWithToast(context, status, { message, place: TAPE_ANSWER_PLACE }, { ok: false as const, tape: message });
  const order = await mixerOrder(api, code);
  if (!order) throw notFound();
  const refusal = tapeRefusal(order);
  if (refusal) return refuse(refusal);
  context.get(requestContext).allowUploadBody?.();
  const file = await readUploadedFile(request, "tape").catch((error: unknown) => {
    if (error instanceof BodyError) return error;
    throw error;
  });
  if (file instanceof BodyError) return refuse(bodyRefusal(file));
  if (!file) return refuse({ ok: false, status: 400, message: DROP_COPY.noFile });
  const outcome = await receiveTape(rootOf(context), api, order.code, file);
  if (!outcome.ok) return refuse(outcome);
  // No #tape: the Tape card's answer takes the focus (autofocus, which a fragment blocks), and so comes into view.
  return toast(context).redirect(
    `/mixer/orders/${order.code}`,
    { message: outcome.message, place: TAPE_ANSWER_PLACE },
    { status: 303 },
  );
}
