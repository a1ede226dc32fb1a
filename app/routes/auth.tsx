import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/auth";
import { COPY } from "~/domain/copy";
import { authSchema } from "~/domain/schemas";
import { humanWait } from "~/domain/text";
import { backendOf, userContext } from "~/server/context.server";
import { getConfig } from "~/server/platform/config.server";
import { readForm } from "~/server/platform/http.server";
import { limitAuth } from "~/server/platform/rate-limit.server";
import { toast } from "~/server/platform/toast.server";
import { logIn, signUp } from "~/server/services/accounts.server";

export const meta: Route.MetaFunction = ({ location }) => [
  { title: new URLSearchParams(location.search).get("mode") === "signup" ? "Sign up" : "Login" },
];

// Without JavaScript the 429's Retry-After reaches the page response too.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const h = new Headers();
  const retry = actionHeaders.get("Retry-After");
  if (retry) h.set("Retry-After", retry);
  return h;
};

export function loader({ context }: Route.LoaderArgs) {
  if (context.get(userContext)) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  if (formData.get("mode") !== "signup") formData.set("mode", "login");
  const submission = parseWithZod(formData, { schema: authSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const fail = (message: string, status = 400, headers?: Headers) =>
    data({ result: submission.reply({ formErrors: [message], hideFields: ["password"] }) }, { status, headers });

  const api = backendOf(context);
  const value = submission.value;
  const wait = await limitAuth(context, value.mode, value.email);
  if (wait !== null) return fail(COPY.errors.tooManyRequests(humanWait(wait)), 429, new Headers({ "Retry-After": String(wait) }));

  if (value.mode === "login") {
    const outcome = await logIn(api, value.email, value.password);
    if (!outcome.ok) return fail(outcome.message);
    return toast(context).redirect("/", COPY.toast.signedIn);
  }

  const origin = getConfig().SITE_URL ?? new URL(request.url).origin;
  const outcome = await signUp(api, { ...value, origin });
  if (!outcome.ok) return fail(outcome.message);
  return toast(context).redirect("/auth", outcome.userId ? COPY.toast.checkEmail : COPY.toast.checkEmailNoUser);
}

export default function AuthPage({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const mode = params.get("mode") === "signup" ? "signup" : "login";
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith("/auth") === true;

  const [form, fields] = useForm({
    id: `auth-${mode}`,
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    // Validation happens on the server (the same with and without JavaScript); the
    // client ships no zod.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });

  const messages = [
    ...(form.errors ?? []),
    ...(fields.username.errors ?? []),
    ...(fields.email.errors ?? []),
    ...(fields.password.errors ?? []),
  ].filter((m, i, all) => all.indexOf(m) === i);
  const signup = mode === "signup";
  const errorId = `${form.id}-errors`;

  return (
    <section className="mx-auto max-w-md" aria-labelledby="auth-heading">
      <div className="card p-6 sm:p-8">
        <h1 id="auth-heading" className="font-display text-3xl font-bold tracking-widest text-acid">
          {signup ? COPY.auth.signupHeading : COPY.auth.loginHeading}
        </h1>
        <Form method="post" action={signup ? "/auth?mode=signup" : "/auth"} className="mt-6 space-y-4" {...getFormProps(form)}>
          <input type="hidden" name="mode" value={mode} />
          {signup ? (
            <div>
              <label className="label" htmlFor={fields.username.id}>
                {COPY.auth.username}
              </label>
              <input
                className="field"
                autoComplete="username"
                aria-describedby={messages.length ? errorId : undefined}
                {...getInputProps(fields.username, { type: "text" })}
                required={false}
                key={fields.username.key}
              />
            </div>
          ) : null}
          <div>
            <label className="label" htmlFor={fields.email.id}>
              {signup ? COPY.auth.email : COPY.auth.emailOrUsername}
            </label>
            <input
              className="field"
              autoComplete={signup ? "email" : "username"}
              inputMode={signup ? "email" : undefined}
              aria-describedby={messages.length ? errorId : undefined}
              {...getInputProps(fields.email, { type: signup ? "email" : "text" })}
              required={false}
              key={fields.email.key}
            />
          </div>
          <div>
            <label className="label" htmlFor={fields.password.id}>
              {COPY.auth.password}
            </label>
            <input
              className="field"
              autoComplete={signup ? "new-password" : "current-password"}
              aria-describedby={messages.length ? errorId : undefined}
              {...getInputProps(fields.password, { type: "password" })}
              required={false}
              key={fields.password.key}
            />
          </div>
          {messages.length ? (
            <div
              id={errorId}
              role="alert"
              data-testid="auth-error"
              className="rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm text-cream"
            >
              {messages.map((m) => (
                <p key={m}>{m}</p>
              ))}
            </div>
          ) : null}
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? COPY.auth.processing : signup ? COPY.auth.signUp : COPY.auth.login}
          </button>
        </Form>
        <p className="mt-5 text-center text-sm">
          <Link
            to={signup ? "/auth" : "/auth?mode=signup"}
            className="font-bold text-acid underline underline-offset-4"
            data-testid="auth-mode-toggle"
          >
            {signup ? COPY.auth.toLogin : COPY.auth.toSignup}
          </Link>
        </p>
      </div>
    </section>
  );
}
