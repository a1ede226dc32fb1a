import { data, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/catalogue-song";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { findSong, SONG_TITLE_MAX } from "~/domain/catalogue";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";
import { notFound } from "~/server/platform/http.server";
import { toast } from "~/server/platform/toast.server";
import { catalogueOf, forgetShop } from "~/server/services/catalogue.server";
import { readCatalogueForm, saveSongForm, setOnSale } from "~/server/services/catalogue-edits.server";
import { mixerInbox } from "~/server/services/conversation.server";
import { requireMixer } from "~/server/services/mixer.server";
import { CatalogueEntryPage } from "./catalogue-entry";
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
  return (
    <CatalogueEntryPage
      kind="song"
      entry={song}
      heading={song ? CATALOGUE_COPY.songTitle(song.title) : CATALOGUE_COPY.newSong}
      status={
        song ? `${CATALOGUE_COPY.number} ${song.id} · ${song.active ? CATALOGUE_COPY.active : CATALOGUE_COPY.retired}` : null
      }
      name={{ field: "title", label: CATALOGUE_COPY.titleLabel, max: SONG_TITLE_MAX, value: song?.title }}
      inbox={inbox}
      actionData={actionData}
      media={({ errors, kept, onBusy }) => (
        <>
          <MediaField
            kind="preview"
            label={CATALOGUE_COPY.preview}
            fileField="previewFile"
            urlField="preview"
            current={song?.previewUrl ?? null}
            staged={kept.preview ?? ""}
            error={errors.preview}
            required={!song}
            onBusy={onBusy}
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
            onBusy={onBusy}
          />
        </>
      )}
    />
  );
}
