import { redirect } from "react-router";
import type { Route } from "./+types/catalogue-background";
import { COVER_BACKGROUND_COUNT } from "~/domain/catalogue";
import { toast } from "~/server/platform/toast.server";
import { forgetShop } from "~/server/services/catalogue.server";
import { readCatalogueForm, saveBackgroundForm } from "~/server/services/catalogue-edits.server";
import { requireMixer } from "~/server/services/mixer.server";

/** The slot's number as the page shows it (1 to 3); null for anything else. */
const slotOf = (param: string | undefined) =>
  param && /^[1-9]$/.test(param) && Number(param) <= COVER_BACKGROUND_COUNT ? Number(param) - 1 : null;

/** Replace a cover background (its form is on the catalogue page): the answer is a toast there, both ways. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { api } = requireMixer(context);
  const slot = slotOf(params.slot);
  if (slot === null) throw new Response(null, { status: 404 });
  const back = `/mixer/catalogue#background-${slot + 1}`;
  const read = await readCatalogueForm(context, request, { imageFile: "cover" });
  if (!read.ok) return toast(context).redirect(back, { type: "error", message: read.message }, { status: 303 });
  const answer = await saveBackgroundForm(api, slot, read.form);
  forgetShop(context);
  if (!answer.ok)
    return toast(context).redirect(back, { type: "error", message: Object.values(answer.errors)[0] }, { status: 303 });
  return toast(context).redirect(answer.to, { message: answer.message }, { status: 303 });
}

export function loader({ params, context }: Route.LoaderArgs) {
  requireMixer(context);
  throw redirect(`/mixer/catalogue#background-${params.slot}`);
}
