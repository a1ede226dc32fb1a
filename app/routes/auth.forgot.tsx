import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import type { Route } from "./+types/auth.forgot";
import { ErrorList, Field, FormCard, formMessages, StatusButton, useIsPending, useServerForm } from "~/components/forms";
import { TOAST_COPY } from "~/domain/copy";
import { LastingNotice } from "~/components/notice";
import { AUTH_COPY, FRONT_COPY } from "~/domain/copy-auth";
import { useRootData } from "~/root";
import { forgotSchema } from "~/domain/schemas";
import { backendOf } from "~/server/context.server";
import { afterAnswer } from "~/server/platform/after-answer.server";
import { refuseForm, retryAfterHeaders, tooMany } from "~/server/platform/forms.server";
import { readForm, siteOrigin } from "~/server/platform/http.server";
import { limitAuth } from "~/server/platform/rate-limit.server";
import { toast } from "~/server/platform/toast.server";
import { sendPasswordReset } from "~/server/services/accounts.server";

export const meta: Route.MetaFunction = () => [{ title: "Reset password" }];

export const headers = retryAfterHeaders;

/** The same answer for every address; the email goes after the answer, so neither it nor its time says whether an account exists. */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: forgotSchema });
  if (submission.status !== "success") return refuseForm(submission, null);
  const { email } = submission.value;
  const wait = await limitAuth(context, "recover", email);
  if (wait !== null) return refuseForm(submission, tooMany(wait));
  const api = backendOf(context);
  const origin = siteOrigin();
  afterAnswer(context, "password reset email", () => sendPasswordReset(api, email, origin));
  return toast(context).redirect("/auth/forgot", { ...TOAST_COPY.resetSent, notice: FRONT_COPY.resetNotice });
}

export default function Forgot({ actionData }: Route.ComponentProps) {
  const busy = useIsPending();
  const root = useRootData();
  const answer = actionData ? null : root?.toast;
  const [form, fields] = useServerForm("auth-forgot", actionData?.result);
  const messages = formMessages(form, [fields.email]);
  const errorId = `${form.id}-errors`;

  return (
    <FormCard id="forgot" heading={AUTH_COPY.forgotHeading}>
      {answer?.notice ? <LastingNotice heading={answer.message} text={answer.notice} className="mt-5" /> : null}
      <Form method="post" action="/auth/forgot" className="mt-6 space-y-4" {...getFormProps(form)}>
        <Field
          meta={fields.email}
          label={AUTH_COPY.email}
          type="email"
          autoComplete="email"
          inputMode="email"
          errorId={messages.length ? errorId : undefined}
        />
        <ErrorList id={errorId} messages={messages} />
        <StatusButton pending={busy} pendingLabel={AUTH_COPY.processing}>
          {AUTH_COPY.sendResetLink}
        </StatusButton>
      </Form>
      <p className="mt-5 text-center text-sm">
        <Link to="/auth" className="font-bold text-acid underline underline-offset-4">
          {AUTH_COPY.backToLogin}
        </Link>
      </p>
    </FormCard>
  );
}
