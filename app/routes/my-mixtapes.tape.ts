import type { Route } from "./+types/my-mixtapes.tape";
import { requireUser } from "~/server/context.server";
import { notFound } from "~/server/platform/http.server";
import { shopperOrder } from "~/server/services/conversation.server";
import { tapeAnswer } from "~/server/services/drop.server";

/** The order's tape for its shopper: played in place (ranges), or `?download` as "{codename} - {CODE}.{ext}". */
export async function loader({ url, request, params, context }: Route.LoaderArgs) {
  const { user, api } = requireUser(context);
  const order = await shopperOrder(api, user, params.code);
  const download = url.searchParams.has("download");
  const answer = order && (await tapeAnswer(api, order, request, { download, shopper: true }));
  if (!answer) throw notFound();
  return answer;
}
