import { DeckForm } from "~/components/deck-form";
import { findSong, type Catalogue, type Song } from "~/domain/catalogue";
import { HOME_COPY } from "~/domain/copy-home";
import { MAX_TRACKS, type Deck } from "~/domain/deck";
import { OPTIONS_FORM } from "./options-panel";
import { StepLinks } from "./step-bar";

export function DeckPanel({ deck, catalogue, mixer, busy }: { deck: Deck; catalogue: Catalogue; mixer: string; busy: boolean }) {
  const songs = deck.songs.map((id) => findSong(catalogue, id)!).filter(Boolean);
  return (
    <section id="deck" aria-labelledby="deck-heading" aria-busy={busy} className="card scroll-mt-24 overflow-hidden">
      <div className="flex items-center gap-3 border-b border-line bg-panel-2 px-4 py-3">
        <div className="min-w-0 flex-1">
          <h2 id="deck-heading" className="font-display text-lg font-bold uppercase tracking-wider text-acid">
            {HOME_COPY.deckTitle}
          </h2>
          <p className="font-display text-sm" data-testid="tracks-loaded" aria-live="polite">
            {HOME_COPY.tracksLoaded(songs.length, MAX_TRACKS)}
          </p>
          {/* Written by the song library's afterAdd. */}
          <p id="deck-announcer" className="sr-only" aria-live="polite" data-testid="deck-announcer" />
          <div className="mt-2 flex h-2 overflow-hidden rounded-full bg-ink" aria-hidden="true">
            <div className="bg-signal transition-all" style={{ width: `${(songs.length / MAX_TRACKS) * 100}%` }} />
          </div>
        </div>
        <Cassette loaded={songs.length} />
      </div>
      {songs.length >= MAX_TRACKS ? <FullNote testId="deck-full" className="border-b border-line px-4 py-2" /> : null}
      {songs.length === 0 ? (
        <p className="px-4 py-6 text-sm text-muted" data-testid="empty-hint">
          {HOME_COPY.emptyHint(mixer)}
        </p>
      ) : (
        <ol className="divide-y divide-line" data-testid="deck-list">
          {songs.map((song, index) => (
            <DeckRow key={song.id} song={song} index={index} count={songs.length} />
          ))}
        </ol>
      )}
      <div className="border-t border-line px-4 py-3">
        <ReviewButton deck={deck} />
      </div>
    </section>
  );
}

function DeckRow({ song, index, count }: { song: Song; index: number; count: number }) {
  return (
    <li className="flex items-center gap-2 px-3 py-2" data-testid="deck-track">
      <span className="w-6 shrink-0 text-right font-display text-sm text-muted">{index + 1}.</span>
      <span className="min-w-0 flex-1 break-words text-sm font-bold leading-snug" data-testid="deck-track-title">
        {song.title}
        {song.active ? null : (
          <span className="ml-2 rounded-full border border-signal px-2 text-xs text-signal" data-testid="deck-track-retired">
            {HOME_COPY.retiredMark}
          </span>
        )}
      </span>
      <DeckForm intent="move" fields={{ songId: song.id, to: String(index - 1) }}>
        <button
          type="submit"
          className="btn-small"
          disabled={index === 0}
          aria-label={`${HOME_COPY.moveUp}: ${song.title}`}
          title={HOME_COPY.moveUp}
        >
          <Arrow up />
        </button>
      </DeckForm>
      <DeckForm intent="move" fields={{ songId: song.id, to: String(index + 1) }}>
        <button
          type="submit"
          className="btn-small"
          disabled={index === count - 1}
          aria-label={`${HOME_COPY.moveDown}: ${song.title}`}
          title={HOME_COPY.moveDown}
        >
          <Arrow />
        </button>
      </DeckForm>
      <DeckForm intent="remove" fields={{ songId: song.id }}>
        <button type="submit" className="btn-small" aria-label={`${HOME_COPY.remove}: ${song.title}`} title={HOME_COPY.remove}>
          <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="3">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </DeckForm>
    </li>
  );
}

/** A note typed but not saved goes along, with and without JavaScript. */
function ReviewButton({ deck, className = "btn-primary w-full" }: { deck: Deck; className?: string }) {
  return (
    <button
      type="submit"
      form={OPTIONS_FORM}
      formAction="/review"
      formMethod="post"
      className={className}
      disabled={deck.songs.length === 0}
      data-review-order=""
    >
      {HOME_COPY.reviewOrder}
    </button>
  );
}

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

/** Phones have no hover. */
export function FullNote({ testId, className = "" }: { testId: string; className?: string }) {
  return (
    <p className={`flex items-center gap-2 bg-panel-2 text-sm font-bold text-acid ${className}`} data-testid={testId}>
      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor" className="shrink-0">
        <path d="M12 2 1 21h22zm-1 7h2v6h-2zm0 8h2v2h-2z" />
      </svg>
      {HOME_COPY.mixtapeFullReason}
    </p>
  );
}

/** The steps, the count and Review Order in reach: a bar on a phone; on a desktop a dock under the library, never over the deck's column. */
export function DeckBar({ deck }: { deck: Deck }) {
  return (
    <div
      className="sticky bottom-0 z-40 -mx-4 mt-6 flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-t border-line bg-ink/95 px-4 py-2 lg:mx-0 lg:mr-[25.5rem] lg:rounded-t-xl lg:border-x lg:bg-panel-2/95"
      data-testid="deck-bar"
    >
      <StepLinks className="w-full sm:w-auto" />
      <a href="#deck" className="font-display text-sm font-bold underline underline-offset-4">
        {HOME_COPY.tracksLoaded(deck.songs.length, MAX_TRACKS)}
      </a>
      <ReviewButton deck={deck} className="btn-primary" />
    </div>
  );
}
