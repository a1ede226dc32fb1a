import { data, Link } from "react-router";
import type { Route } from "./+types/auth.confirm";
import { COPY } from "~/domain/copy";
import { guard, mergeHeaders, redirectWith } from "~/server/http.server";
import { backendFor } from "~/server/session.server";
import { flashToast } from "~/server/toast.server";

export const meta: Route.MetaFunction = () => [{ title: "Confirm sign up" }];

/** The email link: verify the token once, start a session, land on /. */
export async function loader({ request }: Route.LoaderArgs) {
  return guard(async () => {
    const url = new URL(request.url);
    const api = await backendFor(request);
    const tokenHash = url.searchParams.get("token_hash");
    const type = url.searchParams.get("type") ?? "signup";
    const code = url.searchParams.get("code");
    let error: { message: string } | null = { message: COPY.auth.linkInvalid };
    if (tokenHash && tokenHash.length <= 200) ({ error } = await api.verifyOtp({ tokenHash, type }));
    else if (code && code.length <= 200) ({ error } = await api.exchangeCodeForSession(code));
    if (error) {
      return data({ message: COPY.auth.linkInvalid }, { status: 400, headers: mergeHeaders(api.headers) });
    }
    const headers = new Headers();
    await flashToast(request, headers, { type: "success", ...COPY.toast.signedIn });
    return redirectWith("/", api.headers, headers);
  });
}

export default function Confirm({ loaderData }: Route.ComponentProps) {
  return (
    <section className="card mx-auto max-w-md p-8 text-center" aria-labelledby="confirm-heading">
      <h1 id="confirm-heading" className="font-display text-2xl font-bold text-acid">
        {COPY.auth.signupHeading}
      </h1>
      <p role="alert" className="mt-4 rounded-md border-2 border-danger bg-danger-bg px-3 py-2 text-sm" data-testid="confirm-error">
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
