import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/account";
import { FormErrors, FormField, formMessages } from "~/components/form-fields";
import { COPY } from "~/domain/copy";
import { AUTH_COPY, ACCOUNT_COPY } from "~/domain/copy-auth";
import { changePasswordSchema } from "~/domain/schemas";
import { humanWait } from "~/domain/text";
import { requireUser } from "~/server/context.server";
import { readForm } from "~/server/platform/http.server";
import { getLog } from "~/server/platform/log.server";
import { limitAuth } from "~/server/platform/rate-limit.server";
import { toast } from "~/server/platform/toast.server";
import { changePassword } from "~/server/services/accounts.server";

export const meta: Route.MetaFunction = () => [{ title: "Account" }];

// Without JavaScript the 429's Retry-After reaches the page response too.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const h = new Headers();
  const retry = actionHeaders.get("Retry-After");
  if (retry) h.set("Retry-After", retry);
  return h;
};

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
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: HIDDEN }) }, { status: 400 });
  const fail = (message: string, status = 400, headers?: HeadersInit) =>
    data({ result: submission.reply({ formErrors: [message], hideFields: HIDDEN }) }, { status, headers });
  const wait = await limitAuth(context, "login", user.email ?? user.id);
  if (wait !== null) return fail(COPY.errors.tooManyRequests(humanWait(wait)), 429, { "Retry-After": String(wait) });
  const outcome = await changePassword(api, user, submission.value);
  if (!outcome.ok) return fail(outcome.message);
  return toast(context).redirect("/account", COPY.toast.passwordChanged);
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === "/account";
  const [form, fields] = useForm({
    id: "account-password",
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });
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
      <div className="card p-6 sm:p-8">
        <h2 className="font-display text-xl font-bold uppercase tracking-wider text-acid">{ACCOUNT_COPY.passwordHeading}</h2>
        <Form method="post" action="/account" className="mt-4 space-y-4" {...getFormProps(form)}>
          <FormField
            meta={fields.currentPassword}
            label={ACCOUNT_COPY.currentPassword}
            type="password"
            autoComplete="current-password"
            errorId={messages.length ? errorId : undefined}
          />
          <FormField
            meta={fields.newPassword}
            label={ACCOUNT_COPY.newPassword}
            type="password"
            autoComplete="new-password"
            errorId={messages.length ? errorId : undefined}
          />
          <FormErrors id={errorId} messages={messages} />
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? AUTH_COPY.processing : ACCOUNT_COPY.changePassword}
          </button>
        </Form>
      </div>
    </section>
  );
}
