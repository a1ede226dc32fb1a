import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { COPY } from "~/domain/copy";
import { guard, redirectWith } from "~/server/http.server";
import { backendFor } from "~/server/session.server";
import { flashToast } from "~/server/toast.server";

/** POST only: revokes the session on the server, toasts "Signed out", goes to /auth. */
export async function action({ request }: Route.ActionArgs) {
  return guard(async () => {
    const api = await backendFor(request);
    await api.signOut();
    const headers = new Headers();
    await flashToast(request, headers, { type: "success", ...COPY.toast.signedOut });
    return redirectWith("/auth", api.headers, headers);
  });
}

export function loader() {
  return redirect("/");
}
