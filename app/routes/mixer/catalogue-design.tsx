import { useState } from "react";
import { data, Form, Link, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/catalogue-design";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, StatusButton, useIsPending } from "~/components/forms";
import { useHydrated } from "~/components/use-hydrated";
import { DESIGN_NAME_MAX, findDesign } from "~/domain/catalogue";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";
import { maxLengthAttribute } from "~/domain/text";
import { notFound } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { catalogueOf, forgetShop } from "~/server/services/catalogue.server";
import { readCatalogueForm, saveDesignForm, setOnSale } from "~/server/services/catalogue-edits.server";
import { mixerInbox } from "~/server/services/conversation.server";
import { requireMixer } from "~/server/services/mixer.server";
import { ConsoleNav } from "./console-nav";
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
  const hydrated = useHydrated();
  const saving = useIsPending({ intent: "save" });
  const [uploading, setUploading] = useState(0);
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  const kept = actionData?.kept ?? {};
  const heading = design ? CATALOGUE_COPY.designTitle(design.name) : CATALOGUE_COPY.newDesign;
  return (
    <section aria-labelledby="design-heading" className="space-y-5">
      <ConsoleNav inbox={inbox} />
      <div className="card mx-auto max-w-2xl p-6 sm:p-8">
        <p>
          <Link to="/mixer/catalogue" className="text-sm font-bold text-acid underline-offset-4 hover:underline">
            ← {CATALOGUE_COPY.backToCatalogue}
          </Link>
        </p>
        <h1 id="design-heading" className="mt-2 break-words font-display text-2xl font-bold uppercase tracking-wider text-acid">
          {heading}
        </h1>
        {design ? (
          <p className="mt-1 text-sm text-muted" data-testid="design-status">
            {design.active ? CATALOGUE_COPY.active : CATALOGUE_COPY.retired}
          </p>
        ) : null}
        <Form
          // A refused save comes back with what was typed: the fields start from it.
          key={JSON.stringify(actionData ?? null)}
          method="post"
          encType={hydrated ? "application/x-www-form-urlencoded" : "multipart/form-data"}
          className="mt-6 space-y-5"
          aria-describedby={errors.form ? "design-form-error" : undefined}
        >
          <input type="hidden" name="intent" value="save" />
          {design ? <input type="hidden" name="version" value={design.version} /> : null}
          <ErrorList id="design-form-error" messages={errors.form ? [errors.form] : []} focus />
          <div>
            <label className="label" htmlFor="design-name">
              {CATALOGUE_COPY.nameLabel}
            </label>
            <input
              id="design-name"
              name="name"
              type="text"
              className="field"
              defaultValue={kept.name ?? design?.name ?? ""}
              maxLength={maxLengthAttribute(DESIGN_NAME_MAX)}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? "design-name-error" : undefined}
            />
            {errors.name ? (
              <p id="design-name-error" role="alert" className="mt-1 text-sm font-bold text-danger" data-testid="name-error">
                {errors.name}
              </p>
            ) : null}
          </div>
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
            onBusy={(busy) => setUploading((n) => n + (busy ? 1 : -1))}
          />
          <StatusButton
            pending={saving}
            pendingLabel={CATALOGUE_COPY.saving}
            className="btn-primary"
            name="intent"
            value="save"
            disabled={uploading > 0}
          >
            {CATALOGUE_COPY.save}
          </StatusButton>
        </Form>
        {design ? (
          <Form method="post" className="mt-6 border-t border-line pt-5">
            <input type="hidden" name="version" value={design.version} />
            <button type="submit" name="intent" value={design.active ? "retire" : "restore"} className="btn-ghost">
              {design.active ? CATALOGUE_COPY.retire : CATALOGUE_COPY.bringBack}
            </button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}
