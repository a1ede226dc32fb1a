import { data } from "react-router";
import type { Route } from "./+types/account.data";
import { COPY } from "~/domain/copy";
import { requireUser } from "~/server/context.server";
import { exportAccount } from "~/server/services/own-account.server";

/** "Download my data": the signed-in shopper's own rows as mixtape-data-{username}.json. */
export async function loader({ context }: Route.LoaderArgs) {
  const { user, api } = requireUser(context);
  const file = await exportAccount(api, user);
  if (!file) throw data({ message: COPY.errors.unexpected }, { status: 500 });
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
    },
  });
}

export function action({ context }: Route.ActionArgs) {
  requireUser(context);
  return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
}
