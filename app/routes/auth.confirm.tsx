import { data, redirect } from "react-router";
import { LinkProblem } from "~/components/link-problem";
import type { Route } from "./+types/auth.confirm";
import { TOAST_COPY } from "~/domain/copy";
import { AUTH_COPY } from "~/domain/copy-auth";
import { backendOf, userContext } from "~/server/context.server";
import { toast } from "~/server/platform/toast.server";
import { confirmEmail } from "~/server/services/accounts.server";

export const meta: Route.MetaFunction = () => [{ title: "Confirm sign up" }];

/** The email link: verify the token once, start a session, land on /. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const confirmed = await confirmEmail(backendOf(context), url.searchParams);
  if (confirmed) return toast(context).redirect("/", TOAST_COPY.welcome);
  // A used link opened again by its signed-in owner: they are in already.
  if (context.get(userContext)) throw redirect("/");
  return data({ message: AUTH_COPY.linkInvalid }, { status: 400 });
}

export default function Confirm({ loaderData }: Route.ComponentProps) {
  return (
    <LinkProblem
      id="confirm"
      heading={AUTH_COPY.signupHeading}
      message={loaderData.message}
      to="/auth"
      action={AUTH_COPY.login}
    />
  );
}
