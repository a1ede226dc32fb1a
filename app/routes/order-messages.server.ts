import { data, type RouterContextProvider } from "react-router";
import { MESSAGE_FIELD, type MessageResult, type Side } from "~/domain/conversation";
import { CONVERSATION_COPY } from "~/domain/copy-orders";
import type { Order } from "~/domain/orders";
import type { BackendRequest } from "~/server/backend/port.server";
import { isFetch } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { sendMessage } from "~/server/services/conversation.server";

export async function messageAction(
  context: Readonly<RouterContextProvider>,
  api: BackendRequest,
  form: FormData,
  order: Order,
  side: Side,
  page: string,
) {
  const raw = form.get(MESSAGE_FIELD);
  const typed = typeof raw === "string" ? raw : null;
  const outcome = await sendMessage(api, order, side, typed);
  if (!outcome.ok)
    return data<MessageResult>({ ok: false, error: outcome.message, body: typed ?? "" }, { status: outcome.status });
  if (isFetch(form)) return data<MessageResult>({ ok: true });
  return toast(context).redirect(`${page}#message-${outcome.id}`, { message: CONVERSATION_COPY.sent }, { status: 303 });
}
