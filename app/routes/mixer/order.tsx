import { Link, useSearchParams, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/order";
import { Conversation, keepUnsentMessage } from "~/components/conversation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PreviewProvider } from "~/components/previews";
import { MESSAGE_INTENT, type MessageResult } from "~/domain/conversation";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { ORDER_PAGE_COPY } from "~/domain/copy-orders";
import { isUnsent } from "~/domain/unsent";
import { cardOfAnswerPlace, TAPE_ANSWER_PLACE } from "~/domain/queue";
import { useRootData } from "~/root";
import { notFound, readForm } from "~/server/platform/http.server";
import { getConfig } from "~/server/platform/config.server";
import { isOpen } from "~/domain/order-status";
import { mixerTape, tapeUpload } from "~/domain/tape";
import { isMultipart } from "~/server/platform/upload.server";
import { mixerInbox, mixerOrder, openOrder } from "~/server/services/conversation.server";
import { requireMixer } from "~/server/services/mixer.server";
import { markReadWhenOpened, messageAction } from "../order-messages.server";
import { consoleAction } from "./console-action.server";
import { tapeUploadAction } from "./tape-upload.server";
import { ConsoleNav } from "./console-nav";
import { TapeCard } from "./tape-card";
import type { FormValues } from "./card-action";
import { CardAnswer } from "~/components/card-answer";
import { OrderActions } from "./order-card";
import { OrderSummary } from "./order-summary";

export const ErrorBoundary = () => <GeneralErrorBoundary />;

// An error page (another's order: 404) takes its title from the error card.
export const meta: Route.MetaFunction = ({ params, error }) =>
  error ? [] : [{ title: ORDER_PAGE_COPY.title(params.code ?? "") }];

export const middleware: Route.MiddlewareFunction[] = [markReadWhenOpened("mixer")];

export async function loader({ params, context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  // At once (one trip); the middleware's read mark came first, so the inbox leaves this order's messages out.
  const [page, inbox] = await Promise.all([
    openOrder(api, params.code, "mixer", (code) => mixerOrder(api, code)),
    mixerInbox(api),
  ]);
  if (!page) throw notFound();
  const { order, ...conversation } = page;
  const tape = order.tape && mixerTape(order.tape);
  return { order, tape, upload: tapeUpload(order, tape), maxMb: getConfig().DROP_MAX_MB, ...conversation, inbox };
}

/** A message to the shopper, the tape (a plain form's upload), or any console action; each lands back on this page. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { api } = requireMixer(context);
  if (isMultipart(request)) return tapeUploadAction(context, api, request, params.code);
  const form = await readForm(request);
  if (form.get("intent") === MESSAGE_INTENT)
    return messageAction(context, api, form, {
      side: "mixer",
      code: params.code,
      fetchOrder: (code) => mixerOrder(api, code),
      page: (order) => `/mixer/orders/${order.code}`,
    });
  // The answer shows in the order's card, where the action was, as on the queue's cards; it takes the focus
  // (autofocus: no fragment in the URL, which would block it) and so is scrolled into view.
  return consoleAction(context, api, form, (intent) => `/mixer/orders/${intent.code}`, { inCard: true });
}

export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) => keepUnsentMessage(request, serverAction);

// After a refused change the page is read again (another mixer may have moved the order, or the conversation closed).
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate, actionStatus }) =>
  !isUnsent(actionResult) && (defaultShouldRevalidate || actionStatus === 409);

export default function MixerOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, tape, upload, maxMb, timeline, open, inbox } = loaderData;
  const mixer = useRootData()?.shop.mixerName ?? "";
  const result = actionData as MessageResult | { ok: boolean; values: FormValues | null } | undefined;
  const refusedMessage = result && "error" in result ? result : null;
  const refusedChange = result && "values" in result && !result.ok ? result.values : null;
  const refusedTape = result && "tape" in result ? (result.tape as string) : null;
  // The last action's answer, in place: in the order's card, or in the Tape card (a plain form's upload).
  const toast = useRootData()?.toast;
  const answer = toast && cardOfAnswerPlace(toast.place) === order.code ? toast.message : null;
  const tapeAnswer = toast?.place === TAPE_ANSWER_PLACE ? toast.message : null;
  // Without JavaScript a card's secondary action is a link here, to its form opened.
  const [params] = useSearchParams();
  return (
    <section aria-labelledby={`order-${order.code}-heading`} className="space-y-5">
      <ConsoleNav inbox={inbox} />
      <p>
        <Link to={`/mixer?q=${order.code}#order-${order.code}`} className="btn-ghost">
          {CONSOLE_COPY.backToQueue}
        </Link>
      </p>
      <PreviewProvider>
        <div id={`order-${order.code}`} className="card p-4 sm:p-6" data-testid="queue-order">
          <OrderSummary order={order} level={1} />
          <OrderActions
            order={order}
            action={`/mixer/orders/${order.code}`}
            refused={refusedChange}
            opened={params.get("open")}
          />
          <CardAnswer answer={answer} />
        </div>
      </PreviewProvider>
      <TapeCard
        code={order.code}
        open={isOpen(order)}
        upload={upload}
        tape={tape}
        maxMb={maxMb}
        refused={refusedTape}
        answered={tapeAnswer}
      />
      <Conversation
        timeline={timeline}
        open={open}
        action={`/mixer/orders/${order.code}`}
        side="mixer"
        authors={{ shopper: order.shopper.name, mixer }}
        refused={refusedMessage}
      />
    </section>
  );
}
