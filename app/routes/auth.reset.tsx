import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/auth.reset";
import { LinkProblem } from "~/components/link-problem";
import { ErrorList, Field, FormCard, formMessages, StatusButton, useIsPending, useServerForm } from "~/components/forms";
import { TOAST_COPY } from "~/domain/copy";
import { AUTH_COPY } from "~/domain/copy-auth";
import { resetPasswordSchema } from "~/domain/schemas";
import { backendOf, userContext } from "~/server/context.server";
import { refuseForm } from "~/server/platform/forms.server";
import { readForm } from "~/server/platform/http.server";
import { clearRecoveryCookie, openRecoveryCookie, recoveryToken } from "~/server/platform/recovery.server";
import { toast } from "~/server/platform/toast.server";
import { inRecoveryWindow, openRecoveryLink, setNewPassword } from "~/server/services/accounts.server";

export const meta: Route.MetaFunction = () => [{ title: "Set new password" }];

const invalid = () => data({ invalid: true as const }, { status: 400 });

/** The token leaves the address bar once it has opened this browser's window. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const params = url.searchParams;
  const api = backendOf(context);
  const signedIn = context.get(userContext);
  const windowOpen = async () => !!signedIn && (await inRecoveryWindow(api, await recoveryToken(context, signedIn.id)));
  if (params.has("token_hash") || params.has("code")) {
    const opened = await openRecoveryLink(api, params);
    if (opened) {
      await openRecoveryCookie(context, opened.user.id, opened.token);
      return redirect("/auth/reset");
    }
    // The link again, after it opened the window in this browser: back to the form.
    if (await windowOpen()) return redirect("/auth/reset");
    return invalid();
  }
  if (!(await windowOpen())) return invalid();
  return { invalid: false as const };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const closed = () => data({ invalid: true as const, result: null }, { status: 400 });
  if (!user) return closed();
  const submission = parseWithZod(await readForm(request), { schema: resetPasswordSchema });
  const hideFields = ["password"];
  const extra = { invalid: false as const };
  if (submission.status !== "success") return refuseForm(submission, null, { hideFields, extra });
  const token = await recoveryToken(context, user.id);
  const outcome = await setNewPassword(backendOf(context), user, submission.value.password, token);
  if (!outcome.ok && "closed" in outcome) return closed();
  if (!outcome.ok) return refuseForm(submission, { message: outcome.message }, { hideFields, extra });
  clearRecoveryCookie(context);
  return toast(context).redirect("/", TOAST_COPY.passwordUpdated);
}

export default function Reset({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useIsPending();
  const [form, fields] = useServerForm("auth-reset", actionData?.result);

  if (loaderData.invalid || actionData?.invalid) {
    return (
      <LinkProblem
        id="reset"
        heading={AUTH_COPY.resetHeading}
        message={AUTH_COPY.resetLinkInvalid}
        to="/auth/forgot"
        action={AUTH_COPY.requestNewLink}
      />
    );
  }

  const messages = formMessages(form, [fields.password]);
  const errorId = `${form.id}-errors`;
  return (
    <FormCard id="reset" heading={AUTH_COPY.resetHeading}>
      <Form method="post" action="/auth/reset" className="mt-6 space-y-4" {...getFormProps(form)}>
        <Field
          meta={fields.password}
          label={AUTH_COPY.newPassword}
          type="password"
          autoComplete="new-password"
          errorId={messages.length ? errorId : undefined}
        />
        <ErrorList id={errorId} messages={messages} />
        <StatusButton pending={busy} pendingLabel={AUTH_COPY.processing}>
          {AUTH_COPY.updatePassword}
        </StatusButton>
      </Form>
    </FormCard>
  );
}
