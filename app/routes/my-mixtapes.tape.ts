import type { Route } from "./+types/my-mixtapes.tape";
import { requireUser } from "~/server/context.server";
import { notFound } from "~/server/platform/http.server";
import { rootOf } from "~/server/root.server";
import { tapeAnswer } from "~/server/services/drop.server";

/** The sent order's tape for its shopper: played in place (ranges), or `?download` as "{codename} - {CODE}.{ext}". */
export async function loader({ url, request, params, context }: Route.LoaderArgs) {
  const { api } = requireUser(context);
  const download = url.searchParams.has("download");
  const answer = await tapeAnswer(rootOf(context).storage, api, params.code, request, { download, as: "shopper" });
  if (!answer) throw notFound();
  return answer;
}
