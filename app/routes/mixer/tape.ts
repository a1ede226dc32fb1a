import type { Route } from "./+types/tape";
import { notFound } from "~/server/platform/http.server";
import { mixerOrder } from "~/server/services/conversation.server";
import { tapeAnswer } from "~/server/services/drop.server";
import { requireMixer } from "~/server/services/mixer.server";

/** The order's tape for the mixers (not counted as the shopper's download). */
export async function loader({ url, request, params, context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const order = await mixerOrder(api, params.code);
  const download = url.searchParams.has("download");
  const answer = order && (await tapeAnswer(api, order, request, { download, shopper: false }));
  if (!answer) throw notFound();
  return answer;
}
