import { useEffect, useRef, useState } from "react";
import { data, Link, Outlet, redirect } from "react-router";
import type { Route } from "./+types/home";
import { DeckEditProvider, DeckForm } from "~/components/deck-form";
import { useOptimisticDeck } from "~/components/deck-view";
import { PreviewControl, PreviewProvider } from "~/components/previews";
import { CachedList } from "~/components/static-markup";
import { COVER_BACKGROUNDS, DESIGNS, findSong, SONGS, type Design, type Song } from "~/domain/catalogue";
import { COPY } from "~/domain/copy";
import { addBlock, applyIntent, MAX_TRACKS, NOTE_MAX, TOGGLE_KEYS, type Deck, type DeckIntent } from "~/domain/deck";
import { parseDeckIntent } from "~/domain/schemas";
import { useRootData } from "~/root";
import { commitDeck, loadDeck } from "~/server/deck.server";
import { guard, isFetch, readForm } from "~/server/http.server";
import { requireUser } from "~/server/session.server";
import { newToast } from "~/server/toast.server";

export const meta: Route.MetaFunction = () => [{ title: "Build your mixtape" }];

export async function loader({ request }: Route.LoaderArgs) {
  return guard(async () => {
    const { user, api } = await requireUser(request);
    const { deck, fresh } = await loadDeck(request, user.id);
    const headers = new Headers(api.headers);
    // A fresh deck is stored at once, so its codename and cover stay stable.
    if (fresh) headers.append("Set-Cookie", await commitDeck(request, deck));
    return data({ deck }, { headers });
  });
}

const ANCHOR: Record<DeckIntent["intent"], (i: DeckIntent) => string> = {
  add: (i) => `#song-${(i as { songId: string }).songId}`,
  remove: () => "#deck",
  move: () => "#deck",
  design: () => "#designs",
  options: () => "#options",
};

/** Every deck intent. POST/redirect/GET without JavaScript; data for fetchers. */
export async function action({ request }: Route.ActionArgs) {
  return guard(async () => {
    const { user } = await requireUser(request);
    const form = await readForm(request);
    const parsed = parseDeckIntent(form);
    if (!parsed.ok) return data({ toast: newToast("error", parsed.error) }, { status: 400 });
    const { deck } = await loadDeck(request, user.id);
    const result = applyIntent(deck, parsed.intent);
    if (!result.ok) return data({ toast: newToast("error", result.error) }, { status: 400 });
    const headers = { "Set-Cookie": await commitDeck(request, result.deck) };
    if (isFetch(form)) return data({ ok: true as const }, { headers });
    return redirect(`/${ANCHOR[parsed.intent.intent](parsed.intent)}`, {
      status: 303,
      headers,
    });
  });
}

export default function Home() {
  const { deck, busy } = useOptimisticDeck();
  const root = useRootData();
  const mixer = root?.shop.mixerName ?? "the mixer";
  return (
    <DeckEditProvider>
      <PreviewProvider>
        <h1 className="sr-only">Build your mixtape</h1>
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
          <div className="min-w-0 space-y-8">
            <SongLibrary deck={deck} />
            <DesignCarousel deck={deck} />
          </div>
          <aside className="min-w-0 space-y-6 lg:sticky lg:top-4 lg:self-start" aria-label="Your mixtape">
            <DeckPanel deck={deck} mixer={mixer} busy={busy} />
            <CoverCard deck={deck} product={root?.shop.productLabel ?? ""} />
            <OptionsPanel deck={deck} mixer={mixer} />
          </aside>
        </div>
        <MobileDeckBar deck={deck} />
        <Outlet />
      </PreviewProvider>
    </DeckEditProvider>
  );
}

function SongLibrary({ deck }: { deck: Deck }) {
  return (
    <section aria-labelledby="library-heading">
      <h2 id="library-heading" className="mb-3 font-display text-xl font-bold uppercase tracking-wider text-acid">
        Song Library
      </h2>
      <CachedList
        as="ul"
        className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-2 xl:grid-cols-3"
        component={SongCard}
        items={SONGS.map((song) => ({
          song,
          block: addBlock(deck, song.id),
          full: deck.songs.length >= MAX_TRACKS,
        }))}
        itemKey={(item) => item.song.id}
        cacheKey={(item) => `${item.song.id}:${item.block}:${item.full}`}
      />
    </section>
  );
}

/** Props only (the server caches its markup: static-markup.tsx). */
function SongCard({ song, block, full }: { song: Song; block: ReturnType<typeof addBlock>; full: boolean }) {
  return (
    <li id={`song-${song.id}`} className="card flex scroll-mt-24 flex-col gap-3 p-3" data-testid="song-card">
      <div className="flex items-center gap-3">
        <img src={song.thumbnail} alt="" width={64} height={64} loading="lazy" decoding="async" className="h-16 w-16 shrink-0 rounded-md" />
        <h3 className="line-clamp-2 min-w-0 font-bold leading-snug">{song.title}</h3>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <PreviewControl id={song.id} title={song.title} src={song.previewUrl} disabled={full} />
        <DeckForm intent="add" fields={{ songId: song.id }} fetcherKey={`add-${song.id}`} className="ml-auto">
          <button
            type="submit"
            className="btn-small whitespace-nowrap px-3"
            disabled={block !== null}
            title={full ? COPY.home.mixtapeFull : block === "duplicate" ? COPY.home.alreadyInMixtape : undefined}
            aria-label={`${COPY.home.addToMixtape}: ${song.title}`}
          >
            {COPY.home.addToMixtape}
          </button>
        </DeckForm>
      </div>
    </li>
  );
}

function DesignCarousel({ deck }: { deck: Deck }) {
  return (
    <section id="designs" aria-labelledby="designs-heading" className="scroll-mt-24">
      <h2 id="designs-heading" className="mb-3 font-display text-xl font-bold uppercase tracking-wider text-acid">
        {COPY.home.chooseDesign}
      </h2>
      <CachedList
        as="ul"
        className="carousel -mx-1 flex gap-3 overflow-x-auto px-1 pb-3"
        aria-label="Cover designs"
        component={DesignCard}
        items={DESIGNS.map((design) => ({
          design,
          selected: deck.design === design.id,
        }))}
        itemKey={(item) => item.design.id}
        cacheKey={(item) => `${item.design.id}:${item.selected}`}
      />
    </section>
  );
}

/** Props only (the server caches its markup: static-markup.tsx). */
function DesignCard({ design, selected }: { design: Design; selected: boolean }) {
  return (
    <li className="w-60 shrink-0">
      <DeckForm intent="design" fields={{ designId: design.id }} fetcherKey="design">
        <button
          type="submit"
          aria-pressed={selected}
          aria-label={`Choose design: ${design.name}`}
          className={`card block w-full overflow-hidden text-left transition-colors ${
            selected ? "border-2 border-acid" : "border-2 border-line hover:border-cream"
          }`}
        >
          <img src={design.image} alt="" width={320} height={200} loading="lazy" className="aspect-[8/5] w-full" />
          <span className="flex items-center justify-between px-3 py-2 font-display text-sm font-bold uppercase">
            {design.name}
            {selected ? <span className="text-acid">Selected</span> : null}
          </span>
        </button>
      </DeckForm>
    </li>
  );
}

function DeckPanel({ deck, mixer, busy }: { deck: Deck; mixer: string; busy: boolean }) {
  const songs = deck.songs.map((id) => findSong(id)!).filter(Boolean);
  return (
    <section id="deck" aria-labelledby="deck-heading" aria-busy={busy} className="card scroll-mt-24 overflow-hidden">
      <div className="flex items-center gap-3 border-b border-line bg-panel-2 px-4 py-3">
        <div className="min-w-0 flex-1">
          <h2 id="deck-heading" className="font-display text-lg font-bold uppercase tracking-wider text-acid">
            {COPY.home.deckTitle}
          </h2>
          <p className="font-display text-sm" data-testid="tracks-loaded" aria-live="polite">
            {COPY.home.tracksLoaded(songs.length)}
          </p>
          <div className="mt-2 flex h-2 overflow-hidden rounded-full bg-ink" aria-hidden="true">
            <div className="bg-signal transition-all" style={{ width: `${(songs.length / MAX_TRACKS) * 100}%` }} />
          </div>
        </div>
        <Cassette loaded={songs.length} />
      </div>
      {songs.length === 0 ? (
        <p className="px-4 py-6 text-sm text-muted" data-testid="empty-hint">
          {COPY.home.emptyHint(mixer)}
        </p>
      ) : (
        <CachedList
          as="ol"
          className="divide-y divide-line"
          data-testid="deck-list"
          component={DeckRow}
          items={songs.map((song, index) => ({
            song,
            index,
            count: songs.length,
          }))}
          itemKey={(item) => item.song.id}
          cacheKey={(item) => `${item.song.id}:${item.index}:${item.count}`}
        />
      )}
      <div className="border-t border-line px-4 py-3">
        <ReviewButton deck={deck} />
      </div>
    </section>
  );
}

/** Props only (the server caches its markup: static-markup.tsx). */
function DeckRow({ song, index, count }: { song: Song; index: number; count: number }) {
  return (
    <li className="flex items-center gap-2 px-3 py-2" data-testid="deck-track">
      <span className="w-6 shrink-0 text-right font-display text-sm text-muted">{index + 1}.</span>
      <span className="min-w-0 flex-1 truncate text-sm font-bold">{song.title}</span>
      <DeckForm intent="move" fields={{ songId: song.id, to: String(index - 1) }} fetcherKey={`move-${song.id}`}>
        <button
          type="submit"
          className="btn-small"
          disabled={index === 0}
          aria-label={`${COPY.home.moveUp}: ${song.title}`}
          title={COPY.home.moveUp}
        >
          <Arrow up />
        </button>
      </DeckForm>
      <DeckForm intent="move" fields={{ songId: song.id, to: String(index + 1) }} fetcherKey={`move-${song.id}`}>
        <button
          type="submit"
          className="btn-small"
          disabled={index === count - 1}
          aria-label={`${COPY.home.moveDown}: ${song.title}`}
          title={COPY.home.moveDown}
        >
          <Arrow />
        </button>
      </DeckForm>
      <DeckForm intent="remove" fields={{ songId: song.id }} fetcherKey={`remove-${song.id}`}>
        <button type="submit" className="btn-small" aria-label={`${COPY.home.remove}: ${song.title}`} title={COPY.home.remove}>
          <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="3">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </DeckForm>
    </li>
  );
}

function ReviewButton({ deck, className = "btn-primary w-full" }: { deck: Deck; className?: string }) {
  if (deck.songs.length === 0) {
    return (
      <button type="button" className={className} disabled>
        {COPY.home.reviewOrder}
      </button>
    );
  }
  return (
    <Link to="/review" className={className} preventScrollReset>
      {COPY.home.reviewOrder}
    </Link>
  );
}

/** The deck as a cassette: tape winds from the right reel to the left as tracks load. */
function Cassette({ loaded }: { loaded: number }) {
  const left = 6 + loaded * 0.6; // reel radius grows with the tape on it
  const right = 12 - loaded * 0.6;
  return (
    <svg width="96" height="62" viewBox="0 0 96 62" aria-hidden="true" className="shrink-0">
      <rect x="1" y="1" width="94" height="60" rx="6" fill="#f4ecd8" stroke="#0f0d14" strokeWidth="2" />
      <rect x="8" y="7" width="80" height="10" rx="2" fill="#ff5a1f" />
      <rect x="16" y="22" width="64" height="26" rx="13" fill="#0f0d14" />
      <circle cx="32" cy="35" r={left} fill="#3a3347" />
      <circle cx="64" cy="35" r={right} fill="#3a3347" />
      <circle cx="32" cy="35" r="5" fill="#f4ecd8" />
      <circle cx="64" cy="35" r="5" fill="#f4ecd8" />
      <path d="M24 61l6-8h36l6 8" fill="none" stroke="#0f0d14" strokeWidth="2" />
    </svg>
  );
}

const Arrow = ({ up = false }: { up?: boolean }) => (
  <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor" className={up ? "" : "rotate-180"}>
    <path d="M12 4l8 10h-5v6H9v-6H4z" />
  </svg>
);

export function CoverCard({ deck, product }: { deck: Deck; product: string }) {
  const img = useRef<HTMLImageElement>(null);
  const [broken, setBroken] = useState(false);
  useEffect(() => {
    // An image that failed before hydration fired its error event unseen.
    if (img.current?.complete && img.current.naturalWidth === 0) setBroken(true);
  }, []);
  return (
    <section aria-label="Mixtape cover" className="card relative overflow-hidden" data-testid="cover-card">
      <div className="relative aspect-[8/5] bg-panel-2">
        {broken ? null : (
          <img
            ref={img}
            src={COVER_BACKGROUNDS[deck.coverBg]}
            alt=""
            width={400}
            height={250}
            className="absolute inset-0 h-full w-full object-cover"
            data-testid="cover-bg"
            onError={() => setBroken(true)}
          />
        )}
        <div className="absolute inset-0 flex flex-col justify-between bg-gradient-to-t from-ink/90 via-ink/30 to-ink/60 p-4">
          <p className="font-display text-xs font-bold uppercase tracking-[0.3em] text-acid">{product}</p>
          <div>
            <p className="font-display text-2xl font-bold uppercase text-cream" data-testid="cover-codename">
              {deck.codename}
            </p>
            <p className="font-display text-sm text-cream" data-testid="cover-number">
              {COPY.home.coverNo} {deck.coverNo}
            </p>
          </div>
        </div>
      </div>
      <p className="flex items-center justify-between px-4 py-2 text-sm">
        <span className="text-muted">{COPY.home.codename}</span>
        <span className="font-display font-bold text-acid" data-testid="codename">
          {deck.codename}
        </span>
      </p>
    </section>
  );
}

function OptionsPanel({ deck, mixer }: { deck: Deck; mixer: string }) {
  const [note, setNote] = useState(deck.note);
  const lastSaved = useRef(deck.note);
  useEffect(() => {
    if (deck.note !== lastSaved.current) {
      lastSaved.current = deck.note;
      setNote(deck.note);
    }
  }, [deck.note]);
  return (
    <section id="options" aria-labelledby="options-heading" className="card scroll-mt-24 p-4">
      <h2 id="options-heading" className="font-display text-lg font-bold uppercase tracking-wider text-acid">
        Options
      </h2>
      <DeckForm
        intent="options"
        fetcherKey="options"
        className="mt-3 space-y-3"
        onChange={(e) => {
          // With JavaScript a toggle saves itself; the note saves with the button.
          const target = e.target as HTMLInputElement;
          if (target.type === "checkbox") target.form?.requestSubmit();
        }}
      >
        <fieldset className="space-y-2">
          <legend className="sr-only">Options</legend>
          {TOGGLE_KEYS.map((key) => (
            <label key={key} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-1 hover:bg-panel-2">
              <input
                type="checkbox"
                name={key}
                defaultChecked={deck.toggles[key]}
                key={`${key}-${deck.toggles[key]}`}
                className="h-5 w-5 accent-signal"
              />
              <span>{COPY.toggles[key](mixer)}</span>
            </label>
          ))}
        </fieldset>
        <div>
          <label htmlFor="note" className="label">
            {COPY.home.noteLabel(mixer)}
          </label>
          <textarea
            id="note"
            name="note"
            rows={3}
            maxLength={NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder={COPY.home.notePlaceholder}
            className="field resize-none"
            aria-describedby="note-count"
          />
          <p id="note-count" className="mt-1 text-right text-xs text-muted">
            {note.length} / {NOTE_MAX}
          </p>
        </div>
        <button type="submit" className="btn-ghost w-full">
          {COPY.home.saveOptions}
        </button>
      </DeckForm>
    </section>
  );
}

function MobileDeckBar({ deck }: { deck: Deck }) {
  return (
    <div
      className="sticky bottom-0 z-40 -mx-4 mt-6 flex items-center justify-between gap-3 border-t border-line bg-ink/95 px-4 py-2 lg:hidden"
      data-testid="mobile-deck-bar"
    >
      <a href="#deck" className="font-display text-sm font-bold underline underline-offset-4">
        {COPY.home.tracksLoaded(deck.songs.length)}
      </a>
      <ReviewButton deck={deck} className="btn-primary" />
    </div>
  );
}
