import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import type { Route } from "./+types/account";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, FormCard, formMessages, StatusButton, useIsPending, useServerForm } from "~/components/forms";
import { TOAST_COPY } from "~/domain/copy";
import { AUTH_COPY, ACCOUNT_COPY, OWN_ACCOUNT_COPY } from "~/domain/copy-auth";
import { changeEmailSchema, changePasswordSchema, deleteAccountSchema } from "~/domain/schemas";
import { requireUser } from "~/server/context.server";
import { refuseForm, refuseWithToast, retryAfterHeaders, tooMany } from "~/server/platform/forms.server";
import { readForm, siteOrigin } from "~/server/platform/http.server";
import { limitAuth } from "~/server/platform/rate-limit.server";
import { toast } from "~/server/platform/toast.server";
import { changePassword } from "~/server/services/accounts.server";
import { forgetDeck } from "~/server/services/deck.server";
import {
  accountDeletionConfigured,
  accountDetails,
  deleteAccount,
  requestEmailChange,
  signOutEverywhereElse,
} from "~/server/services/own-account.server";

export const meta: Route.MetaFunction = () => [{ title: "Account" }];

export const headers = retryAfterHeaders;

export const ErrorBoundary = () => <GeneralErrorBoundary />;

export async function loader({ context }: Route.LoaderArgs) {
  const { user, api } = requireUser(context);
  return { email: user.email, ...(await accountDetails(api, user)), canDelete: accountDeletionConfigured() };
}

/** The page's forms: each reads back only its own result. */
type FormName = "password" | "email" | "delete";
type AccountReply = { result: SubmissionResult<string[]>; form?: FormName };
const HIDDEN = ["currentPassword", "newPassword"];

export async function action({ request, context }: Route.ActionArgs) {
  const { user, api } = requireUser(context);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  // Guesses of the current password count against the login limit of the account's email, whichever form they come through.
  const passwordGuess = () => limitAuth(context, "login", user.email ?? user.id);

  if (intent === "sign-out-others") {
    const outcome = await signOutEverywhereElse(api);
    if (!outcome.ok) return refuseWithToast(context, 400, { message: outcome.message });
    return toast(context).redirect("/account", { message: outcome.message });
  }

  if (intent === "change-email") {
    const extra = { form: "email" as const };
    const submission = parseWithZod(formData, { schema: changeEmailSchema });
    if (submission.status !== "success") return refuseForm(submission, null, { hideFields: HIDDEN, extra });
    const wait = await passwordGuess();
    if (wait !== null) return refuseForm(submission, tooMany(wait), { hideFields: HIDDEN, extra });
    const outcome = await requestEmailChange(api, user, submission.value, siteOrigin());
    if (!outcome.ok) return refuseForm(submission, { message: outcome.message }, { hideFields: HIDDEN, extra });
    return toast(context).redirect("/account", OWN_ACCOUNT_COPY.emailChangeSent);
  }

  if (intent === "delete-account") {
    const extra = { form: "delete" as const };
    const submission = parseWithZod(formData, { schema: deleteAccountSchema });
    if (submission.status !== "success") return refuseForm(submission, null, { hideFields: HIDDEN, extra });
    if (!accountDeletionConfigured())
      return refuseForm(
        submission,
        { message: OWN_ACCOUNT_COPY.deleteNotConfigured, status: 501 },
        { hideFields: HIDDEN, extra },
      );
    const wait = await passwordGuess();
    if (wait !== null) return refuseForm(submission, tooMany(wait), { hideFields: HIDDEN, extra });
    const outcome = await deleteAccount(api, user, submission.value.currentPassword);
    if (!outcome.ok) return refuseForm(submission, { message: outcome.message }, { hideFields: HIDDEN, extra });
    // Signed out already (the backend's cookies); the deck and its owner binding go too.
    forgetDeck(context);
    return toast(context).redirect("/auth", OWN_ACCOUNT_COPY.accountDeleted);
  }

  // Change password: the new one under the sign-up rules; every other session ends.
  const extra = { form: "password" as const };
  const submission = parseWithZod(formData, { schema: changePasswordSchema });
  if (submission.status !== "success") return refuseForm(submission, null, { hideFields: HIDDEN, extra });
  const wait = await passwordGuess();
  if (wait !== null) return refuseForm(submission, tooMany(wait), { hideFields: HIDDEN, extra });
  const outcome = await changePassword(api, user, submission.value);
  if (!outcome.ok) return refuseForm(submission, { message: outcome.message }, { hideFields: HIDDEN, extra });
  return toast(context).redirect("/account", TOAST_COPY.passwordChanged);
}

/** The result of this form's last post, if the last post was this form's. */
const resultOf = (reply: unknown, form: FormName) => {
  const r = reply as AccountReply | undefined;
  return r?.form === form ? r.result : undefined;
};

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-4xl gap-6 md:grid-cols-2">
      <section className="card p-6 sm:p-8 md:col-span-2" aria-labelledby="account-heading">
        <h1 id="account-heading" className="font-display text-3xl font-bold tracking-widest text-acid">
          {ACCOUNT_COPY.title}
        </h1>
        <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted">{ACCOUNT_COPY.email}</dt>
          <dd className="break-all font-bold text-cream" data-testid="account-email">
            {loaderData.email}
          </dd>
          <dt className="text-muted">{ACCOUNT_COPY.username}</dt>
          <dd className="break-all font-bold text-cream" data-testid="account-username">
            {loaderData.username ?? ACCOUNT_COPY.noUsername}
          </dd>
        </dl>
        {loaderData.pendingEmail ? (
          <p className="mt-4 break-words rounded-md border-2 border-acid px-3 py-2 text-sm" data-testid="account-pending-email">
            {OWN_ACCOUNT_COPY.emailPending(loaderData.pendingEmail)}
          </p>
        ) : null}
      </section>
      <EmailForm result={resultOf(actionData, "email")} />
      <PasswordForm result={resultOf(actionData, "password")} />
      <section className="card p-6 sm:p-8" aria-labelledby="data-heading">
        <h2 id="data-heading" className="font-display text-xl font-bold uppercase tracking-wider text-acid">
          {OWN_ACCOUNT_COPY.dataHeading}
        </h2>
        <p className="mt-3 text-sm text-muted">{OWN_ACCOUNT_COPY.dataText}</p>
        {/* A plain link to a file: the browser downloads it, with or without JavaScript. */}
        <a href="/account/data" download className="btn-ghost mt-4 w-full" data-testid="download-data">
          {OWN_ACCOUNT_COPY.download}
        </a>
      </section>
      <SessionsForm />
      <DeleteForm result={resultOf(actionData, "delete")} canDelete={loaderData.canDelete} />
    </div>
  );
}

type FormProps = { result: SubmissionResult<string[]> | undefined };

type FieldSpec = { name: string; label: string; type: "email" | "password"; autoComplete: string; inputMode?: "email" };

/** A card with one form of an intent: two fields, the error list and its button. */
function IntentForm({
  result,
  intent,
  formId,
  cardId,
  heading,
  specs,
  submit,
}: FormProps & { intent: string; formId: string; cardId: string; heading: string; specs: FieldSpec[]; submit: string }) {
  const busy = useIsPending({ intent });
  const [form, fields] = useServerForm(formId, result);
  const metas = specs.map((spec) => fields[spec.name]);
  const messages = formMessages(form, metas);
  const errorId = `${form.id}-errors`;
  return (
    <FormCard id={cardId} heading={heading} level={2}>
      <Form method="post" action="/account" className="mt-4 space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={intent} />
        {specs.map((spec, i) => (
          <Field
            key={spec.name}
            meta={metas[i]}
            label={spec.label}
            type={spec.type}
            inputMode={spec.inputMode}
            autoComplete={spec.autoComplete}
            errorId={messages.length ? errorId : undefined}
          />
        ))}
        <ErrorList id={errorId} messages={messages} />
        <StatusButton pending={busy} pendingLabel={AUTH_COPY.processing}>
          {submit}
        </StatusButton>
      </Form>
    </FormCard>
  );
}

const EmailForm = ({ result }: FormProps) => (
  <IntentForm
    result={result}
    intent="change-email"
    formId="account-email"
    cardId="change-email"
    heading={OWN_ACCOUNT_COPY.emailHeading}
    specs={[
      { name: "newEmail", label: OWN_ACCOUNT_COPY.newEmail, type: "email", inputMode: "email", autoComplete: "email" },
      { name: "currentPassword", label: AUTH_COPY.password, type: "password", autoComplete: "current-password" },
    ]}
    submit={OWN_ACCOUNT_COPY.changeEmail}
  />
);

const PasswordForm = ({ result }: FormProps) => (
  <IntentForm
    result={result}
    intent="change-password"
    formId="account-password"
    cardId="password"
    heading={ACCOUNT_COPY.passwordHeading}
    specs={[
      { name: "currentPassword", label: ACCOUNT_COPY.currentPassword, type: "password", autoComplete: "current-password" },
      { name: "newPassword", label: ACCOUNT_COPY.newPassword, type: "password", autoComplete: "new-password" },
    ]}
    submit={ACCOUNT_COPY.changePassword}
  />
);

function SessionsForm() {
  const busy = useIsPending({ intent: "sign-out-others" });
  return (
    <section className="card p-6 sm:p-8" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="font-display text-xl font-bold uppercase tracking-wider text-acid">
        {OWN_ACCOUNT_COPY.sessionsHeading}
      </h2>
      <p className="mt-3 text-sm text-muted">{OWN_ACCOUNT_COPY.sessionsText}</p>
      <Form method="post" action="/account" className="mt-4">
        <input type="hidden" name="intent" value="sign-out-others" />
        <StatusButton className="btn-ghost w-full" pending={busy} pendingLabel={AUTH_COPY.processing}>
          {OWN_ACCOUNT_COPY.signOutOthers}
        </StatusButton>
      </Form>
    </section>
  );
}

function DeleteForm({ result, canDelete }: FormProps & { canDelete: boolean }) {
  const busy = useIsPending({ intent: "delete-account" });
  const [form, fields] = useServerForm("account-delete", result);
  const messages = formMessages(form, [fields.currentPassword, fields.confirm]);
  const errorId = `${form.id}-errors`;
  return (
    <section className="card border-danger p-6 sm:p-8 md:col-span-2" aria-labelledby="delete-heading">
      <h2 id="delete-heading" className="font-display text-xl font-bold uppercase tracking-wider text-danger">
        {OWN_ACCOUNT_COPY.deleteHeading}
      </h2>
      <p className="mt-3 text-sm text-muted">{OWN_ACCOUNT_COPY.deleteText}</p>
      {canDelete ? (
        <Form method="post" action="/account" className="mt-4 grid gap-4 md:grid-cols-2" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="delete-account" />
          <Field
            meta={fields.currentPassword}
            label={AUTH_COPY.password}
            type="password"
            autoComplete="current-password"
            errorId={messages.length ? errorId : undefined}
          />
          <Field
            meta={fields.confirm}
            label={OWN_ACCOUNT_COPY.typeDelete}
            type="text"
            autoComplete="off"
            errorId={messages.length ? errorId : undefined}
          />
          <div className="space-y-4 md:col-span-2">
            <ErrorList id={errorId} messages={messages} />
            <StatusButton
              className="btn w-full border-danger bg-danger-bg text-cream hover:bg-danger hover:text-ink"
              pending={busy}
              pendingLabel={AUTH_COPY.processing}
            >
              {OWN_ACCOUNT_COPY.deleteAccount}
            </StatusButton>
          </div>
        </Form>
      ) : (
        <p className="mt-4 rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm" data-testid="delete-not-configured">
          {OWN_ACCOUNT_COPY.deleteNotConfigured}
        </p>
      )}
    </section>
  );
}
