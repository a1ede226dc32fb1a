import { data } from "react-router";
import { LinkProblem } from "~/components/link-problem";
import type { Route } from "./+types/account.email";
import { OWN_ACCOUNT_COPY } from "~/domain/copy-auth";
import { backendOf, userContext } from "~/server/context.server";
import { toast } from "~/server/platform/toast.server";
import { confirmEmailChange } from "~/server/services/own-account.server";

export const meta: Route.MetaFunction = () => [{ title: "Change email" }];

/** The email change link: used once, it changes the address (and signs this browser in), then /account. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const outcome = await confirmEmailChange(backendOf(context), url.searchParams);
  if (outcome === "done") return toast(context).redirect("/account", OWN_ACCOUNT_COPY.emailChanged);
  if (outcome === "halfway")
    return toast(context).redirect(context.get(userContext) ? "/account" : "/auth", OWN_ACCOUNT_COPY.emailChangeHalfway);
  return data({ message: OWN_ACCOUNT_COPY.emailLinkInvalid }, { status: 400 });
}

export default function EmailChangeLink({ loaderData }: Route.ComponentProps) {
  return (
    <LinkProblem
      id="email-change"
      heading={OWN_ACCOUNT_COPY.emailLinkHeading}
      message={loaderData.message}
      to="/account"
      action={OWN_ACCOUNT_COPY.toAccount}
    />
  );
}
