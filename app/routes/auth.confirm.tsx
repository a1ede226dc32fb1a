import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/auth.confirm";
import { COPY } from "~/domain/copy";
import { backendOf, userContext } from "~/server/context.server";
import { toast } from "~/server/platform/toast.server";
import { confirmEmail } from "~/server/services/accounts.server";

export const meta: Route.MetaFunction = () => [{ title: "Confirm sign up" }];

/** The email link: verify the token once, start a session, land on /. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const confirmed = await confirmEmail(backendOf(context), new URL(request.url).searchParams);
  if (confirmed) return toast(context).redirect("/", COPY.toast.welcome);
  // A used link opened again by its signed-in owner: they are in already.
  if (context.get(userContext)) throw redirect("/");
  return data({ message: COPY.auth.linkInvalid }, { status: 400 });
}

export default function Confirm({ loaderData }: Route.ComponentProps) {
  return (
    <section className="card mx-auto max-w-md p-8 text-center" aria-labelledby="confirm-heading">
      <h1 id="confirm-heading" className="font-display text-2xl font-bold text-acid">
        {COPY.auth.signupHeading}
      </h1>
      <p
        role="alert"
        className="mt-4 rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm"
        data-testid="confirm-error"
      >
        {loaderData.message}
      </p>
      <p className="mt-6">
        <Link to="/auth" className="btn-primary">
          {COPY.auth.login}
        </Link>
      </p>
    </section>
  );
}
