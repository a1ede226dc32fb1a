import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/auth.forgot";
import { FormErrors, FormField, formMessages } from "~/components/form-fields";
import { COPY } from "~/domain/copy";
import { AUTH_COPY } from "~/domain/copy-auth";
import { forgotSchema } from "~/domain/schemas";
import { humanWait } from "~/domain/text";
import { backendOf } from "~/server/context.server";
import { afterAnswer } from "~/server/platform/after-answer.server";
import { readForm, siteOrigin } from "~/server/platform/http.server";
import { limitAuth } from "~/server/platform/rate-limit.server";
import { toast } from "~/server/platform/toast.server";
import { sendPasswordReset } from "~/server/services/accounts.server";

export const meta: Route.MetaFunction = () => [{ title: "Reset password" }];

// Without JavaScript the 429's Retry-After reaches the page response too.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const h = new Headers();
  const retry = actionHeaders.get("Retry-After");
  if (retry) h.set("Retry-After", retry);
  return h;
};

/**
 * Forgot password. The answer is the same for every well-formed address: the toast, on
 * /auth. The reset email, when the address has an account, is sent after the answer has
 * gone out (platform/after-answer.server.ts), so neither the answer nor its time says
 * whether it has one.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: forgotSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { email } = submission.value;
  const wait = await limitAuth(context, "recover", email);
  if (wait !== null) {
    return data(
      { result: submission.reply({ formErrors: [COPY.errors.tooManyRequests(humanWait(wait))] }) },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  }
  const api = backendOf(context);
  const origin = siteOrigin();
  afterAnswer(context, "password reset email", () => sendPasswordReset(api, email, origin));
  return toast(context).redirect("/auth", COPY.toast.resetSent);
}

export default function Forgot({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === "/auth/forgot";
  const [form, fields] = useForm({
    id: "auth-forgot",
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });
  const messages = formMessages(form, [fields.email]);
  const errorId = `${form.id}-errors`;

  return (
    <section className="mx-auto max-w-md" aria-labelledby="forgot-heading">
      <div className="card p-6 sm:p-8">
        <h1 id="forgot-heading" className="font-display text-3xl font-bold tracking-widest text-acid">
          {AUTH_COPY.forgotHeading}
        </h1>
        <Form method="post" action="/auth/forgot" className="mt-6 space-y-4" {...getFormProps(form)}>
          <FormField
            meta={fields.email}
            label={AUTH_COPY.email}
            type="email"
            autoComplete="email"
            inputMode="email"
            errorId={messages.length ? errorId : undefined}
          />
          <FormErrors id={errorId} messages={messages} />
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? AUTH_COPY.processing : AUTH_COPY.sendResetLink}
          </button>
        </Form>
        <p className="mt-5 text-center text-sm">
          <Link to="/auth" className="font-bold text-acid underline underline-offset-4">
            {AUTH_COPY.backToLogin}
          </Link>
        </p>
      </div>
    </section>
  );
}
