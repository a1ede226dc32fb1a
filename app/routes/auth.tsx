import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/auth";
import { ErrorCard, GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, FormCard, formMessages, StatusButton, useIsPending, useServerForm } from "~/components/forms";
import { COPY, TOAST_COPY } from "~/domain/copy";
import { LastingNotice } from "~/components/notice";
import { AUTH_COPY, FRONT_COPY } from "~/domain/copy-auth";
import { useRootData } from "~/root";
import { authSchema, resendSchema } from "~/domain/schemas";
import { backendOf, userContext } from "~/server/context.server";
import { afterAnswer } from "~/server/platform/after-answer.server";
import { refuseForm, retryAfterHeaders, tooMany } from "~/server/platform/forms.server";
import { readForm, siteOrigin } from "~/server/platform/http.server";
import { limitAuth, limitIdentifier } from "~/server/platform/rate-limit.server";
import { toast } from "~/server/platform/toast.server";
import { logIn, resendConfirmation, signUp } from "~/server/services/accounts.server";
import { shopDoor } from "~/server/services/orders.server";
import { shopOf } from "~/server/services/catalogue.server";
import { activeDesigns, activeSongs } from "~/domain/catalogue";
import { FrontDoor } from "./front-door";

export const meta: Route.MetaFunction = ({ location }) => [
  { title: new URLSearchParams(location.search).get("mode") === "signup" ? "Sign up" : "Login" },
];

export const headers = retryAfterHeaders;

/** The specification's words (section 2) when the page meets a state it cannot show; statuses as everywhere. */
export const ErrorBoundary = () => (
  <GeneralErrorBoundary unexpectedErrorHandler={() => <ErrorCard heading={AUTH_COPY.unexpected} />} />
);

export async function loader({ context }: Route.LoaderArgs) {
  if (context.get(userContext)) throw redirect("/");
  const [door, { catalogue }] = await Promise.all([shopDoor(backendOf(context)), shopOf(context)]);
  const songs = activeSongs(catalogue);
  return { door, designs: activeDesigns(catalogue), preview: songs[1] ?? songs[0] ?? null };
}

/** resendFor is the identifier as typed, never an address looked up. */
type AuthReply = { result: SubmissionResult<string[]> | null; notice?: string; resendFor?: string };
const hideFields = ["password"];

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  if (formData.get("intent") === "resend") return resend(formData, context);
  if (formData.get("mode") !== "signup") formData.set("mode", "login");
  const submission = parseWithZod(formData, { schema: authSchema });
  if (submission.status !== "success") return refuseForm(submission, null, { hideFields });

  const api = backendOf(context);
  const value = submission.value;
  const wait = await limitAuth(context, value.mode, value.email);
  if (wait !== null) return refuseForm(submission, tooMany(wait), { hideFields });

  if (value.mode === "login") {
    const outcome = await logIn(api, value.email, value.password, (email) => limitIdentifier(context, "login", email));
    if ("retryAfter" in outcome) return refuseForm(submission, tooMany(outcome.retryAfter), { hideFields });
    const extra = outcome.ok || !outcome.unconfirmed ? undefined : { resendFor: value.email };
    if (!outcome.ok) return refuseForm(submission, { message: outcome.message }, { hideFields, extra });
    return toast(context).redirect("/", TOAST_COPY.signedIn);
  }

  const origin = siteOrigin();
  const outcome = await signUp(api, { ...value, origin });
  if (!outcome.ok) return refuseForm(submission, { message: outcome.message }, { hideFields });
  return toast(context).redirect("/auth", {
    ...(outcome.userId ? TOAST_COPY.checkEmail : TOAST_COPY.checkEmailNoUser),
    notice: FRONT_COPY.checkEmailNotice(value.email),
    resendFor: value.email,
  });
}

/** The same answer for any email or username; the email goes out after the answer. */
async function resend(formData: FormData, context: Route.ActionArgs["context"]) {
  const submission = parseWithZod(formData, { schema: resendSchema });
  if (submission.status !== "success") return data<AuthReply>({ result: null, notice: COPY.errors.badRequest }, { status: 400 });
  const { identifier } = submission.value;
  const wait = await limitAuth(context, "resend", identifier);
  if (wait !== null) {
    const { message, status, retryAfter } = tooMany(wait);
    return data<AuthReply>(
      { result: null, notice: message, resendFor: identifier },
      { status, headers: { "Retry-After": String(retryAfter) } },
    );
  }
  const api = backendOf(context);
  const origin = siteOrigin();
  afterAnswer(context, "resend confirmation", () => resendConfirmation(api, identifier, origin));
  return toast(context).redirect("/auth", { ...TOAST_COPY.confirmationResent, notice: FRONT_COPY.resentNotice });
}

export default function AuthPage({ actionData, loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  // The last answer stays on the page after its toast fades.
  const answer = navigation.state === "idle" && actionData ? null : root?.toast;
  const noticeResend = params.get("mode") === "signup" ? undefined : answer?.resendFor;
  return (
    <>
      {answer?.notice ? (
        <LastingNotice heading={answer.message} text={answer.notice} className="mb-6">
          {noticeResend ? <ResendButton className="btn-ghost mt-3" /> : null}
        </LastingNotice>
      ) : null}
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_28rem] lg:items-start">
        <FrontDoor
          door={loaderData.door}
          designs={loaderData.designs}
          preview={loaderData.preview}
          title={root?.shop.title ?? ""}
          mixer={root?.shop.mixerName ?? ""}
          priceNote={root?.shop.priceNote ?? ""}
        />
        <AuthForm actionData={actionData} noticeResend={noticeResend} />
      </div>
    </>
  );
}

function AuthForm({
  actionData,
  noticeResend,
}: {
  actionData: Route.ComponentProps["actionData"];
  noticeResend: string | undefined;
}) {
  const [params] = useSearchParams();
  const mode = params.get("mode") === "signup" ? "signup" : "login";
  const navigation = useNavigation();
  const busy = useIsPending();
  const resending = useIsPending({ intent: "resend" });
  const reply = navigation.state === "idle" ? (actionData as AuthReply | undefined) : undefined;
  const resendFor = mode === "login" ? reply?.resendFor : undefined;
  const [form, fields] = useServerForm(`auth-${mode}`, reply?.result);

  const messages = formMessages(form, [fields.username, fields.email, fields.password], [reply?.notice]);
  const signup = mode === "signup";
  const errorId = `${form.id}-errors`;

  return (
    <FormCard id="auth" heading={signup ? AUTH_COPY.signupHeading : AUTH_COPY.loginHeading}>
      <Form method="post" action={signup ? "/auth?mode=signup" : "/auth"} className="mt-6 space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="mode" value={mode} />
        {signup ? (
          <Field
            meta={fields.username}
            label={AUTH_COPY.username}
            type="text"
            autoComplete="username"
            errorId={messages.length ? errorId : undefined}
          />
        ) : null}
        <Field
          meta={fields.email}
          label={signup ? AUTH_COPY.email : AUTH_COPY.emailOrUsername}
          type={signup ? "email" : "text"}
          autoComplete={signup ? "email" : "username"}
          inputMode={signup ? "email" : undefined}
          errorId={messages.length ? errorId : undefined}
        />
        <Field
          meta={fields.password}
          label={AUTH_COPY.password}
          type="password"
          autoComplete={signup ? "new-password" : "current-password"}
          errorId={messages.length ? errorId : undefined}
        >
          {signup ? null : (
            <p className="mt-2 text-right text-sm">
              <Link to="/auth/forgot" className="font-bold text-acid underline underline-offset-4">
                {AUTH_COPY.forgotLink}
              </Link>
            </p>
          )}
        </Field>
        <ErrorList id={errorId} messages={messages} focus />
        {resendFor ? <ResendButton className="btn-ghost w-full" /> : null}
        <StatusButton pending={busy && !resending} disabled={busy} pendingLabel={AUTH_COPY.processing}>
          {signup ? AUTH_COPY.signUp : AUTH_COPY.login}
        </StatusButton>
      </Form>
      {resendFor || noticeResend ? (
        <Form method="post" action="/auth" id="resend-confirmation">
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="identifier" value={resendFor ?? noticeResend} />
        </Form>
      ) : null}
      <p className="mt-5 text-center text-sm">
        <Link
          to={signup ? "/auth#auth" : "/auth?mode=signup#auth"}
          className="font-bold text-acid underline underline-offset-4"
          data-testid="auth-mode-toggle"
        >
          {signup ? AUTH_COPY.toLogin : AUTH_COPY.toSignup}
        </Link>
      </p>
    </FormCard>
  );
}

/** Posts the "resend-confirmation" form (a form cannot hold another one). */
function ResendButton({ className }: { className: string }) {
  const busy = useIsPending();
  const resending = useIsPending({ intent: "resend" });
  return (
    <StatusButton
      form="resend-confirmation"
      className={className}
      pending={resending}
      disabled={busy}
      pendingLabel={AUTH_COPY.processing}
    >
      {AUTH_COPY.resendConfirmation}
    </StatusButton>
  );
}
