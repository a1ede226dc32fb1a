import type { Route } from "./+types/catalogue-media";
import { COPY } from "~/domain/copy";
import { isMultipart } from "~/server/platform/upload.server";
import { MEDIA_KINDS, type MediaKind } from "~/server/services/catalogue-media.server";
import { readCatalogueForm } from "~/server/services/catalogue-edits.server";
import { requireMixer } from "~/server/services/mixer.server";

/** One catalogue file with JavaScript (media-field.tsx): checked, stored, and its URL answered for the form to name. */
export async function action({ request, url, context }: Route.ActionArgs) {
  requireMixer(context);
  const kind = url.searchParams.get("kind") as MediaKind;
  if (!MEDIA_KINDS.includes(kind) || !isMultipart(request))
    return Response.json({ ok: false, message: COPY.errors.badRequest }, { status: 400 });
  const read = await readCatalogueForm(context, request, { file: kind });
  if (!read.ok) return Response.json({ ok: false, message: read.message }, { status: read.status });
  const stored = read.form.uploads.get("file");
  if (!stored) return Response.json({ ok: false, message: COPY.errors.badRequest }, { status: 400 });
  if (!stored.ok) return Response.json({ ok: false, message: stored.message }, { status: stored.status });
  return Response.json({ ok: true, url: stored.url, colour: stored.colour }, { headers: { "Cache-Control": "no-store" } });
}

export function loader({ context }: Route.LoaderArgs) {
  requireMixer(context);
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
