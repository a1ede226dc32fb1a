import { data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { MESSAGE_FIELD, type MessageResult, type Side } from "~/domain/conversation";
import { CONVERSATION_COPY } from "~/domain/copy-orders";
import type { Order } from "~/domain/orders";
import type { BackendRequest } from "~/server/backend/port.server";
import { isFetch, notFound } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { backendOf, userContext } from "~/server/context.server";
import { markReadOnOpen, sendMessage } from "~/server/services/conversation.server";
import { isMixer } from "~/server/services/mixer.server";

/** An order page's middleware: opening it marks the conversation read for this side, first of the request's calls. */
export const markReadWhenOpened =
  (side: Side): MiddlewareFunction<Response> =>
  ({ request, params, context }) => {
    const user = context.get(userContext);
    if (request.method === "GET" && user && (side === "shopper" || isMixer(user)))
      markReadOnOpen(backendOf(context), params.code, side);
  };

/** A message about the order from the page's form; 404 when the order is not the caller's. */
export async function messageAction<O extends Order>(
  context: Readonly<RouterContextProvider>,
  api: BackendRequest,
  form: FormData,
  to: { side: Side; code: string | undefined; fetchOrder: (code: string) => Promise<O | null>; page: (order: O) => string },
) {
  const raw = form.get(MESSAGE_FIELD);
  const typed = typeof raw === "string" ? raw : null;
  const sent = await sendMessage(api, to.code, to.side, typed, to.fetchOrder);
  if (!sent) throw notFound();
  const { order, outcome } = sent;
  if (!outcome.ok)
    return data<MessageResult>({ ok: false, error: outcome.message, body: typed ?? "" }, { status: outcome.status });
  if (isFetch(form)) return data<MessageResult>({ ok: true });
  return toast(context).redirect(`${to.page(order)}#message-${outcome.id}`, { message: CONVERSATION_COPY.sent }, { status: 303 });
}
