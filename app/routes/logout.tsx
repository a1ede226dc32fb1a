import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { TOAST_COPY } from "~/domain/copy";
import { backendOf } from "~/server/context.server";
import { toast } from "~/server/platform/toast.server";

/** POST only: revokes the session on the server, toasts "Signed out", goes to /auth. */
export async function action({ context }: Route.ActionArgs) {
  await backendOf(context).signOut();
  return toast(context).redirect("/auth", TOAST_COPY.signedOut);
}

export function loader() {
  return redirect("/");
}
