import type { Route } from "./+types/catalogue-media";
import { COPY } from "~/domain/copy";
import { readMultipartForm, MalformedFormError } from "~/server/platform/multipart.server";
import { isMultipart } from "~/server/platform/upload.server";
import { MEDIA_KINDS, storeMedia, type MediaKind, type StoredMedia } from "~/server/services/catalogue-media.server";
import { requireMixer } from "~/server/services/mixer.server";

/** One catalogue file with JavaScript (media-field.tsx): checked, stored, and its URL answered for the form to name. */
export async function action({ request, url, context }: Route.ActionArgs) {
  requireMixer(context);
  const kind = url.searchParams.get("kind") as MediaKind;
  if (!MEDIA_KINDS.includes(kind) || !isMultipart(request))
    return Response.json({ ok: false, message: COPY.errors.badRequest }, { status: 400 });
  let stored: StoredMedia | undefined;
  try {
    stored = (await readMultipartForm<StoredMedia>(request, { file: ({ body }) => storeMedia(kind, body) })).files.get("file");
  } catch (error) {
    if (!(error instanceof MalformedFormError)) throw error;
  }
  if (!stored) return Response.json({ ok: false, message: COPY.errors.badRequest }, { status: 400 });
  if (!stored.ok) return Response.json({ ok: false, message: stored.message }, { status: stored.status });
  return Response.json({ ok: true, url: stored.url, colour: stored.colour }, { headers: { "Cache-Control": "no-store" } });
}

export function loader({ context }: Route.LoaderArgs) {
  requireMixer(context);
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
