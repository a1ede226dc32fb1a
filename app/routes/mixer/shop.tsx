import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import type { Route } from "./+types/shop";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, formMessages, StatusButton, useIsPending, useServerForm } from "~/components/forms";
import { COPY } from "~/domain/copy";
import { CONSOLE_COPY } from "~/domain/copy-console";
import { CLOSED_MESSAGE_MAX, shopSettingsSchema } from "~/domain/schemas";
import { maxLengthAttribute } from "~/domain/text";
import { refuseForm } from "~/server/platform/forms.server";
import { readForm } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { requireMixer } from "~/server/services/mixer.server";
import { mixerInbox } from "~/server/services/conversation.server";
import { saveShopSettings, shopSettingsPage } from "~/server/services/shop.server";
import { ConsoleNav } from "./console-nav";
import { ShopWordsForm, type WordsReply } from "./shop-words-form";
import { forgetShop, shopWordsOf } from "~/server/services/catalogue.server";
import { saveWordsForm } from "~/server/services/catalogue-edits.server";

export const ErrorBoundary = () => <GeneralErrorBoundary />;

export const meta: Route.MetaFunction = () => [{ title: CONSOLE_COPY.settings.title }];

export async function loader({ context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const [page, inbox, words] = await Promise.all([shopSettingsPage(api), mixerInbox(api), shopWordsOf(context)]);
  return { ...page, inbox, words };
}

/** Save Settings: POST/redirect/GET with the toast "Settings saved." */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = requireMixer(context);
  const form = await readForm(request);
  if (form.get("intent") === "words") {
    const answer = await saveWordsForm(api, form);
    forgetShop(context);
    if (!answer.ok)
      return data(
        { result: null, words: { errors: answer.errors, typed: answer.typed } as WordsReply },
        { status: answer.status },
      );
    return toast(context).redirect("/mixer/shop#words", { message: answer.message }, { status: 303 });
  }
  const submission = parseWithZod(form, { schema: shopSettingsSchema });
  if (submission.status !== "success") return refuseForm(submission, null);
  if (!(await saveShopSettings(api, submission.value))) return refuseForm(submission, { message: COPY.errors.badRequest });
  return toast(context).redirect("/mixer/shop", { message: CONSOLE_COPY.settings.saved }, { status: 303 });
}

export default function ShopSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, status, inbox, words } = loaderData;
  const busy = useIsPending();
  const wordsReply = actionData && "words" in actionData ? (actionData.words as WordsReply) : null;
  const [form, fields] = useServerForm("shop-settings", actionData?.result, {
    open: settings.open,
    closedMessage: settings.closedMessage,
    maxOpenOrders: settings.maxOpenOrders ?? undefined,
  });
  const messages = formMessages(form, [fields.open, fields.closedMessage, fields.maxOpenOrders]);
  const errorId = `${form.id}-errors`;
  const describedBy = messages.length ? errorId : undefined;
  return (
    <section aria-labelledby="shop-heading" className="space-y-5">
      <ConsoleNav inbox={inbox} />
      <div className="card mx-auto max-w-xl p-6 sm:p-8">
        <h1 id="shop-heading" className="font-display text-2xl font-bold uppercase tracking-wider text-acid">
          {CONSOLE_COPY.settings.title}
        </h1>
        {status ? (
          <p className="mt-2 text-sm text-muted" data-testid="shop-now">
            {CONSOLE_COPY.settings.now(status.open, status.full)}
          </p>
        ) : null}
        <Form method="post" className="mt-6 space-y-5" {...getFormProps(form)}>
          <div className="flex items-center gap-3">
            <input {...getInputProps(fields.open, { type: "checkbox" })} key={fields.open.key} className="h-5 w-5 accent-acid" />
            <label htmlFor={fields.open.id} className="font-bold">
              {CONSOLE_COPY.settings.open}
            </label>
          </div>
          <div>
            <label className="label" htmlFor={fields.closedMessage.id}>
              {CONSOLE_COPY.settings.closedMessage}
            </label>
            <input
              {...getInputProps(fields.closedMessage, { type: "text" })}
              key={fields.closedMessage.key}
              maxLength={maxLengthAttribute(CLOSED_MESSAGE_MAX)}
              className="field"
              aria-describedby={[`${fields.closedMessage.id}-hint`, describedBy].filter(Boolean).join(" ")}
            />
            <p id={`${fields.closedMessage.id}-hint`} className="mt-1 text-xs text-muted">
              {CONSOLE_COPY.settings.closedMessageHint}
            </p>
          </div>
          <div>
            <label className="label" htmlFor={fields.maxOpenOrders.id}>
              {CONSOLE_COPY.settings.maxOpenOrders}
            </label>
            <input
              {...getInputProps(fields.maxOpenOrders, { type: "number" })}
              key={fields.maxOpenOrders.key}
              min={0}
              max={100000}
              step={1}
              inputMode="numeric"
              className="field w-40"
              aria-describedby={[`${fields.maxOpenOrders.id}-hint`, describedBy].filter(Boolean).join(" ")}
            />
            <p id={`${fields.maxOpenOrders.id}-hint`} className="mt-1 text-xs text-muted">
              {CONSOLE_COPY.settings.maxOpenOrdersHint}
            </p>
          </div>
          <ErrorList id={errorId} messages={messages} />
          <StatusButton pending={busy} pendingLabel={CONSOLE_COPY.settings.saving} className="btn-primary">
            {CONSOLE_COPY.settings.save}
          </StatusButton>
        </Form>
      </div>
      <ShopWordsForm words={words} reply={wordsReply} />
    </section>
  );
}
