import { data, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/catalogue-design";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DESIGN_NAME_MAX, findDesign } from "~/domain/catalogue";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";
import { notFound } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { catalogueOf, forgetShop } from "~/server/services/catalogue.server";
import { readCatalogueForm, saveDesignForm, setOnSale } from "~/server/services/catalogue-edits.server";
import { mixerInbox } from "~/server/services/conversation.server";
import { requireMixer } from "~/server/services/mixer.server";
import { CatalogueEntryPage } from "./catalogue-entry";
import { MediaField } from "./media-field";

export const ErrorBoundary = () => <GeneralErrorBoundary />;

/** After "changed meanwhile" (409) the page reads the row again, so saving what was typed again goes through. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ loaderData: data }) => [
  { title: data?.design ? CATALOGUE_COPY.designTitle(data.design.name) : CATALOGUE_COPY.newDesign },
];

/** "new", or a design's id. */
const designIdOf = (param: string | undefined) =>
  param === "new" ? null : param && /^[a-z0-9][a-z0-9-]{0,39}$/.test(param) ? param : undefined;

export async function loader({ params, context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const id = designIdOf(params.id);
  if (id === undefined) throw notFound();
  const [catalogue, inbox] = await Promise.all([catalogueOf(context), mixerInbox(api)]);
  const design = id === null ? null : findDesign(catalogue, id);
  if (design === undefined) throw notFound();
  return { design, inbox };
}

/** Save (or add), Retire and Bring back: POST/redirect/GET with a toast; a refusal stays on the form with what was typed. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { api } = requireMixer(context);
  const id = designIdOf(params.id);
  if (id === undefined) throw notFound();
  const design = id === null ? null : findDesign(await catalogueOf(context), id);
  if (design === undefined) throw notFound();
  const read = await readCatalogueForm(context, request, { imageFile: "design" });
  if (!read.ok) return data({ errors: { form: read.message }, kept: {} as Record<string, string> }, { status: read.status });
  const { form } = read;
  const intent = form.fields.get("intent");
  const answer =
    design && (intent === "retire" || intent === "restore")
      ? await setOnSale(api, "design", { id: design.id, name: design.name }, form, intent === "restore")
      : await saveDesignForm(api, design?.id ?? null, form);
  // The page after a refusal reads the catalogue afresh (the version another mixer saved).
  forgetShop(context);
  if (!answer.ok) return data({ errors: answer.errors, kept: answer.kept }, { status: answer.status });
  return toast(context).redirect(answer.to, { message: answer.message }, { status: 303 });
}

export default function DesignPage({ loaderData, actionData }: Route.ComponentProps) {
  const { design, inbox } = loaderData;
  return (
    <CatalogueEntryPage
      kind="design"
      entry={design}
      heading={design ? CATALOGUE_COPY.designTitle(design.name) : CATALOGUE_COPY.newDesign}
      status={design ? (design.active ? CATALOGUE_COPY.active : CATALOGUE_COPY.retired) : null}
      name={{ field: "name", label: CATALOGUE_COPY.nameLabel, max: DESIGN_NAME_MAX, value: design?.name }}
      inbox={inbox}
      actionData={actionData}
      media={({ errors, kept, onBusy }) => (
        <MediaField
          kind="design"
          label={CATALOGUE_COPY.imageLabel}
          fileField="imageFile"
          urlField="image"
          current={design?.image ?? null}
          staged={kept.image ?? ""}
          stagedColour={kept.colour}
          error={errors.image}
          required={!design}
          onBusy={onBusy}
        />
      )}
    />
  );
}
