import { useState } from "react";
import { data, Form, Link, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/catalogue-song";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, StatusButton, useIsPending } from "~/components/forms";
import { useHydrated } from "~/components/use-hydrated";
import { findSong, SONG_TITLE_MAX } from "~/domain/catalogue";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";
import { maxLengthAttribute } from "~/domain/text";
import { notFound } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { catalogueOf, forgetShop } from "~/server/services/catalogue.server";
import { readCatalogueForm, saveSongForm, setOnSale } from "~/server/services/catalogue-edits.server";
import { mixerInbox } from "~/server/services/conversation.server";
import { requireMixer } from "~/server/services/mixer.server";
import { ConsoleNav } from "./console-nav";
import { MediaField } from "./media-field";

export const ErrorBoundary = () => <GeneralErrorBoundary />;

/** After "changed meanwhile" (409) the page reads the row again, so saving what was typed again goes through. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ loaderData: data }) => [
  { title: data?.song ? CATALOGUE_COPY.songTitle(data.song.title) : CATALOGUE_COPY.newSong },
];

/** "new", or a song's id (digits). */
const songIdOf = (param: string | undefined) =>
  param === "new" ? null : param && /^[1-9][0-9]{0,8}$/.test(param) ? param : undefined;

export async function loader({ params, context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const id = songIdOf(params.id);
  if (id === undefined) throw notFound();
  const [catalogue, inbox] = await Promise.all([catalogueOf(context), mixerInbox(api)]);
  const song = id === null ? null : findSong(catalogue, id);
  if (song === undefined) throw notFound();
  return { song, inbox, onSale: catalogue.songs.filter((s) => s.active).length };
}

/** Save (or add), Retire and Bring back: POST/redirect/GET with a toast; a refusal stays on the form with what was typed. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { api } = requireMixer(context);
  const id = songIdOf(params.id);
  if (id === undefined) throw notFound();
  const song = id === null ? null : findSong(await catalogueOf(context), id);
  if (song === undefined) throw notFound();
  const read = await readCatalogueForm(context, request, { previewFile: "preview", thumbnailFile: "thumbnail" });
  if (!read.ok) return data({ errors: { form: read.message }, kept: {} as Record<string, string> }, { status: read.status });
  const { form } = read;
  const intent = form.fields.get("intent");
  const answer =
    song && (intent === "retire" || intent === "restore")
      ? await setOnSale(api, "song", { id: song.id, name: song.title }, form, intent === "restore")
      : await saveSongForm(api, song?.id ?? null, form);
  // The page after a refusal reads the catalogue afresh (the version another mixer saved).
  forgetShop(context);
  if (!answer.ok) return data({ errors: answer.errors, kept: answer.kept }, { status: answer.status });
  return toast(context).redirect(answer.to, { message: answer.message }, { status: 303 });
}

export default function SongPage({ loaderData, actionData }: Route.ComponentProps) {
  const { song, inbox } = loaderData;
  const hydrated = useHydrated();
  const saving = useIsPending({ intent: "save" });
  const [uploading, setUploading] = useState(0);
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  const kept = actionData?.kept ?? {};
  const heading = song ? CATALOGUE_COPY.songTitle(song.title) : CATALOGUE_COPY.newSong;
  return (
    <section aria-labelledby="song-heading" className="space-y-5">
      <ConsoleNav inbox={inbox} />
      <div className="card mx-auto max-w-2xl p-6 sm:p-8">
        <p>
          <Link to="/mixer/catalogue" className="text-sm font-bold text-acid underline-offset-4 hover:underline">
            ← {CATALOGUE_COPY.backToCatalogue}
          </Link>
        </p>
        <h1 id="song-heading" className="mt-2 break-words font-display text-2xl font-bold uppercase tracking-wider text-acid">
          {heading}
        </h1>
        {song ? (
          <p className="mt-1 text-sm text-muted" data-testid="song-status">
            {CATALOGUE_COPY.number} {song.id} · {song.active ? CATALOGUE_COPY.active : CATALOGUE_COPY.retired}
          </p>
        ) : null}
        <Form
          // A refused save comes back with what was typed: the fields start from it.
          key={JSON.stringify(actionData ?? null)}
          method="post"
          encType={hydrated ? "application/x-www-form-urlencoded" : "multipart/form-data"}
          className="mt-6 space-y-5"
          aria-describedby={errors.form ? "song-form-error" : undefined}
        >
          <input type="hidden" name="intent" value="save" />
          {song ? <input type="hidden" name="version" value={song.version} /> : null}
          <ErrorList id="song-form-error" messages={errors.form ? [errors.form] : []} focus />
          <div>
            <label className="label" htmlFor="song-title">
              {CATALOGUE_COPY.titleLabel}
            </label>
            <input
              id="song-title"
              name="title"
              type="text"
              className="field"
              defaultValue={kept.title ?? song?.title ?? ""}
              maxLength={maxLengthAttribute(SONG_TITLE_MAX)}
              aria-invalid={errors.title ? true : undefined}
              aria-describedby={errors.title ? "song-title-error" : undefined}
            />
            {errors.title ? (
              <p id="song-title-error" role="alert" className="mt-1 text-sm font-bold text-danger" data-testid="title-error">
                {errors.title}
              </p>
            ) : null}
          </div>
          <MediaField
            kind="preview"
            label={CATALOGUE_COPY.preview}
            fileField="previewFile"
            urlField="preview"
            current={song?.previewUrl ?? null}
            staged={kept.preview ?? ""}
            error={errors.preview}
            required={!song}
            onBusy={(busy) => setUploading((n) => n + (busy ? 1 : -1))}
          />
          <MediaField
            kind="thumbnail"
            label={CATALOGUE_COPY.thumbnail}
            fileField="thumbnailFile"
            urlField="thumbnail"
            current={song?.thumbnail ?? null}
            staged={kept.thumbnail ?? ""}
            error={errors.thumbnail}
            required={!song}
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
        {song ? (
          <Form method="post" className="mt-6 border-t border-line pt-5">
            <input type="hidden" name="version" value={song.version} />
            <button type="submit" name="intent" value={song.active ? "retire" : "restore"} className="btn-ghost">
              {song.active ? CATALOGUE_COPY.retire : CATALOGUE_COPY.bringBack}
            </button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}
