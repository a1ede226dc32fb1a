import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import type { Route } from "./+types/account";
import { ErrorList, Field, FormCard, formMessages, StatusButton, useIsPending, useServerForm } from "~/components/forms";
import { COPY } from "~/domain/copy";
import { AUTH_COPY, ACCOUNT_COPY } from "~/domain/copy-auth";
import { changePasswordSchema } from "~/domain/schemas";
import { requireUser } from "~/server/context.server";
import { refuseForm, retryAfterHeaders, tooMany } from "~/server/platform/forms.server";
import { readForm } from "~/server/platform/http.server";
import { getLog } from "~/server/platform/log.server";
import { limitAuth } from "~/server/platform/rate-limit.server";
import { toast } from "~/server/platform/toast.server";
import { changePassword } from "~/server/services/accounts.server";

export const meta: Route.MetaFunction = () => [{ title: "Account" }];

export const headers = retryAfterHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const { user, api } = requireUser(context);
  const { username, error } = await api.getProfile(user.id);
  if (error) getLog().error({ code: error.code, err: error.message }, "account: profile read failed");
  return { email: user.email, username };
}

const HIDDEN = ["currentPassword", "newPassword"];

/**
 * Change password: the current one (guesses count against the login limit of the
 * account's email), the new one under the sign-up rules; every other session ends.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user, api } = requireUser(context);
  const submission = parseWithZod(await readForm(request), { schema: changePasswordSchema });
  if (submission.status !== "success") return refuseForm(submission, null, { hideFields: HIDDEN });
  const wait = await limitAuth(context, "login", user.email ?? user.id);
  if (wait !== null) return refuseForm(submission, tooMany(wait), { hideFields: HIDDEN });
  const outcome = await changePassword(api, user, submission.value);
  if (!outcome.ok) return refuseForm(submission, { message: outcome.message }, { hideFields: HIDDEN });
  return toast(context).redirect("/account", COPY.toast.passwordChanged);
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useIsPending();
  const [form, fields] = useServerForm("account-password", actionData?.result);
  const messages = formMessages(form, [fields.currentPassword, fields.newPassword]);
  const errorId = `${form.id}-errors`;

  return (
    <section className="mx-auto max-w-md space-y-6" aria-labelledby="account-heading">
      <div className="card p-6 sm:p-8">
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
      </div>
      <FormCard id="password" heading={ACCOUNT_COPY.passwordHeading} level={2}>
        <Form method="post" action="/account" className="mt-4 space-y-4" {...getFormProps(form)}>
          <Field
            meta={fields.currentPassword}
            label={ACCOUNT_COPY.currentPassword}
            type="password"
            autoComplete="current-password"
            errorId={messages.length ? errorId : undefined}
          />
          <Field
            meta={fields.newPassword}
            label={ACCOUNT_COPY.newPassword}
            type="password"
            autoComplete="new-password"
            errorId={messages.length ? errorId : undefined}
          />
          <ErrorList id={errorId} messages={messages} />
          <StatusButton pending={busy} pendingLabel={AUTH_COPY.processing}>
            {ACCOUNT_COPY.changePassword}
          </StatusButton>
        </Form>
      </FormCard>
    </section>
  );
}
