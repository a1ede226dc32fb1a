import type { Route } from "./+types/tape";
import { notFound } from "~/server/platform/http.server";
import { rootOf } from "~/server/root.server";
import { tapeAnswer } from "~/server/services/drop.server";
import { requireMixer } from "~/server/services/mixer.server";

/** The order's tape for the mixers, a draft or sent (never counted as the shopper's download). */
export async function loader({ url, request, params, context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const download = url.searchParams.has("download");
  const answer = await tapeAnswer(rootOf(context).storage, api, params.code, request, { download, as: "mixer" });
  if (!answer) throw notFound();
  return answer;
}
