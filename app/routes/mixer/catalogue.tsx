import { useState, type ReactNode } from "react";
import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/catalogue";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PreviewControl, PreviewProvider } from "~/components/previews";
import { useHydrated } from "~/components/use-hydrated";
import type { CoverBackground, Design, Song } from "~/domain/catalogue";
import { COPY } from "~/domain/copy";
import { CATALOGUE_COPY as T } from "~/domain/copy-catalogue";
import { readForm } from "~/server/platform/http.server";
import { refuseWithToast } from "~/server/platform/forms.server";
import { catalogueOf, forgetShop } from "~/server/services/catalogue.server";
import { moveInCatalogue } from "~/server/services/catalogue-edits.server";
import { mixerInbox } from "~/server/services/conversation.server";
import { requireMixer } from "~/server/services/mixer.server";
import { ConsoleNav } from "./console-nav";
import { MediaField } from "./media-field";

export const ErrorBoundary = () => <GeneralErrorBoundary />;

export const meta: Route.MetaFunction = () => [{ title: T.title }];

export async function loader({ context }: Route.LoaderArgs) {
  const { api } = requireMixer(context);
  const [catalogue, inbox] = await Promise.all([catalogueOf(context), mixerInbox(api)]);
  return { catalogue, inbox };
}

/** Move up / Move down: the storefront's order. POST/redirect/GET back to the row. */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = requireMixer(context);
  const form = await readForm(request);
  const kind = form.get("kind");
  const id = form.get("id");
  const by = form.get("by");
  if (
    form.get("intent") !== "move" ||
    (kind !== "song" && kind !== "design") ||
    typeof id !== "string" ||
    (by !== "-1" && by !== "1")
  )
    return refuseWithToast(context, 400, { message: COPY.errors.badRequest });
  const ok = await moveInCatalogue(api, kind, id, by === "-1" ? -1 : 1);
  forgetShop(context);
  if (!ok) return refuseWithToast(context, 503, { message: T.notSaved });
  return redirect(`/mixer/catalogue#${kind}-${id}`, { status: 303 });
}

export default function CataloguePage({ loaderData }: Route.ComponentProps) {
  const { catalogue, inbox } = loaderData;
  return (
    <section aria-labelledby="catalogue-heading" className="space-y-6">
      <ConsoleNav inbox={inbox} />
      <div>
        <h1 id="catalogue-heading" className="font-display text-2xl font-bold uppercase tracking-wider text-acid">
          {T.title}
        </h1>
        <p className="mt-1 text-sm text-muted">{T.intro}</p>
      </div>
      <Part id="songs" heading={T.songsHeading} add={{ to: "/mixer/catalogue/new", label: T.addSong }}>
        <PreviewProvider>
          <ol className="divide-y divide-line" data-testid="catalogue-songs">
            {catalogue.songs.map((song, i) => (
              <SongRow key={song.id} song={song} first={i === 0} last={i === catalogue.songs.length - 1} />
            ))}
          </ol>
        </PreviewProvider>
      </Part>
      <Part
        id="designs"
        heading={T.designsHeading}
        intro={T.designsIntro}
        add={{ to: "/mixer/catalogue/designs/new", label: T.addDesign }}
      >
        <ol className="divide-y divide-line" data-testid="catalogue-designs">
          {catalogue.designs.map((design, i) => (
            <DesignRow key={design.id} design={design} first={i === 0} last={i === catalogue.designs.length - 1} />
          ))}
        </ol>
      </Part>
      <Part id="backgrounds" heading={T.backgroundsHeading} intro={T.backgroundsIntro}>
        <ul className="grid gap-4 p-4 md:grid-cols-3">
          {catalogue.backgrounds.map((background) => (
            <BackgroundCard key={`${background.slot}-${background.version}`} background={background} />
          ))}
        </ul>
      </Part>
    </section>
  );
}

function Part({
  id,
  heading,
  intro,
  add,
  children,
}: {
  id: string;
  heading: string;
  intro?: string;
  add?: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="card scroll-mt-4 overflow-hidden">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line bg-panel-2 px-4 py-3">
        <div>
          <h2 id={`${id}-heading`} className="font-display text-lg font-bold uppercase tracking-wider text-acid">
            {heading}
          </h2>
          {intro ? <p className="text-sm text-muted">{intro}</p> : null}
        </div>
        {add ? (
          <Link to={add.to} className="btn-primary">
            {add.label}
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}

function Status({ active }: { active: boolean }) {
  return (
    <span
      className={`rounded-full border px-2 text-xs font-bold ${active ? "border-teal text-teal" : "border-signal text-signal"}`}
      data-testid="catalogue-status"
    >
      {active ? T.active : T.retired}
    </span>
  );
}

function SongRow({ song, first, last }: { song: Song; first: boolean; last: boolean }) {
  return (
    <li id={`song-${song.id}`} className="flex scroll-mt-24 flex-wrap items-center gap-3 px-4 py-3" data-testid="catalogue-song">
      <span className="w-8 shrink-0 text-right font-display text-sm text-muted">{song.id}</span>
      <img src={song.thumbnail} alt="" width={48} height={48} className="h-12 w-12 shrink-0 rounded-md object-cover" />
      <span className="min-w-0 flex-1 basis-40 break-words font-bold" data-testid="catalogue-song-title">
        {song.title}
      </span>
      <Status active={song.active} />
      {/* A long list: without JavaScript a link to each file, not 30 players (decisions/008-preview-links-in-long-lists.md). */}
      <PreviewControl id={`catalogue-${song.id}`} title={song.title} src={song.previewUrl} disabled={false} fallback="link" />
      <Moves kind="song" id={song.id} name={song.title} first={first} last={last} />
      <Link to={`/mixer/catalogue/${song.id}`} className="btn-ghost" aria-label={T.editLabel(song.title)}>
        {T.edit}
      </Link>
    </li>
  );
}

function DesignRow({ design, first, last }: { design: Design; first: boolean; last: boolean }) {
  return (
    <li
      id={`design-${design.id}`}
      className="flex scroll-mt-24 flex-wrap items-center gap-3 px-4 py-3"
      data-testid="catalogue-design"
    >
      <img src={design.image} alt="" width={96} height={60} className="aspect-[8/5] w-24 shrink-0 rounded-md object-cover" />
      <span className="min-w-0 flex-1 basis-40 break-words font-display font-bold uppercase">{design.name}</span>
      <Status active={design.active} />
      <Moves kind="design" id={design.id} name={design.name} first={first} last={last} />
      <Link to={`/mixer/catalogue/designs/${design.id}`} className="btn-ghost" aria-label={T.editLabel(design.name)}>
        {T.edit}
      </Link>
    </li>
  );
}

function Moves({
  kind,
  id,
  name,
  first,
  last,
}: {
  kind: "song" | "design";
  id: string;
  name: string;
  first: boolean;
  last: boolean;
}) {
  const move = (by: -1 | 1, label: string, disabled: boolean, arrow: string) => (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        name="by"
        value={by}
        className="btn-small"
        disabled={disabled}
        aria-label={T.moveLabel(label, name)}
        title={label}
      >
        <span aria-hidden="true">{arrow}</span>
      </button>
    </Form>
  );
  return (
    <div className="flex gap-1">
      {move(-1, T.moveUp, first, "↑")}
      {move(1, T.moveDown, last, "↓")}
    </div>
  );
}

function BackgroundCard({ background }: { background: CoverBackground }) {
  const n = background.slot + 1;
  const hydrated = useHydrated();
  const [uploading, setUploading] = useState(0);
  return (
    <li id={`background-${n}`} className="scroll-mt-24 space-y-3" data-testid="catalogue-background">
      <h3 className="font-display font-bold uppercase">{T.background(n)}</h3>
      <img src={background.image} alt="" width={400} height={250} className="aspect-[8/5] w-full rounded-md object-cover" />
      <Form
        method="post"
        action={`/mixer/catalogue/backgrounds/${n}`}
        encType={hydrated ? "application/x-www-form-urlencoded" : "multipart/form-data"}
        className="space-y-3"
      >
        <input type="hidden" name="version" value={background.version} />
        <MediaField
          kind="cover"
          label={`${T.replaceImage} (${T.background(n)})`}
          fileField="imageFile"
          urlField="image"
          current={null}
          required
          staged=""
          onBusy={(busy) => setUploading((k) => k + (busy ? 1 : -1))}
        />
        <button type="submit" className="btn-ghost" disabled={uploading > 0}>
          {T.save}
        </button>
      </Form>
    </li>
  );
}
