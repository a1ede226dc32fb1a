import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { TOAST_COPY } from "~/domain/copy";
import { backendOf } from "~/server/context.server";
import { toast } from "~/server/platform/toast.server";
import { logOut } from "~/server/services/accounts.server";

/** POST only: revokes the session on the server, toasts "Signed out", goes to /auth. */
export async function action({ context }: Route.ActionArgs) {
  await logOut(backendOf(context));
  return toast(context).redirect("/auth", TOAST_COPY.signedOut);
}

export function loader() {
  return redirect("/");
}
