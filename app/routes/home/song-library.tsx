import { memo } from "react";
import { DeckForm } from "~/components/deck-form";
import { PreviewControl } from "~/components/previews";
import { activeSongs, type Catalogue, type Song } from "~/domain/catalogue";
import { HOME_COPY } from "~/domain/copy-home";
import { addBlock, MAX_TRACKS, type Deck } from "~/domain/deck";
import { FullNote } from "./deck-panel";

/** The songs on sale, in the mixer's order. */
export function SongLibrary({ deck, catalogue }: { deck: Deck; catalogue: Catalogue }) {
  const full = deck.songs.length >= MAX_TRACKS;
  return (
    <section id="library" aria-labelledby="library-heading" className="scroll-mt-4">
      <h2 id="library-heading" className="mb-3 font-display text-xl font-bold uppercase tracking-wider text-acid">
        Song Library
      </h2>
      {full ? (
        <FullNote testId="library-full" className="sticky top-0 z-30 mb-3 rounded-md border-2 border-acid px-3 py-2" />
      ) : null}
      <ul className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-2 xl:grid-cols-3">
        {activeSongs(catalogue).map((song) => (
          <SongCard key={song.id} song={song} block={addBlock(deck, song.id)} full={full} />
        ))}
      </ul>
    </section>
  );
}

/** Focus moves on instead of falling to the page when the button disables itself. */
function afterAdd(button: HTMLElement | null) {
  requestAnimationFrame(() => {
    const announcer = document.getElementById("deck-announcer");
    if (announcer && button?.dataset.addSong) announcer.textContent = HOME_COPY.added(button.dataset.addSong);
    if (!button || (document.activeElement !== button && document.activeElement !== document.body)) return;
    const all = [...document.querySelectorAll<HTMLButtonElement>("button[data-add-song]")];
    const at = all.indexOf(button as HTMLButtonElement);
    const next = [...all.slice(at + 1), ...all.slice(0, at)].find((b) => !b.disabled);
    (next ?? document.querySelector<HTMLElement>("#deck [data-review-order]"))?.focus();
  });
}

// Memoised: a tap elsewhere (an option, a design, the note) re-renders the page, not 30 cards.
const SongCard = memo(function SongCard({
  song,
  block,
  full,
}: {
  song: Song;
  block: ReturnType<typeof addBlock>;
  full: boolean;
}) {
  return (
    <li
      id={`song-${song.id}`}
      // Off-screen cards skip style and layout (their audio controls are costly): docs/performance.md. Their stand-in
      // size is the content box's (7.5rem, the padding and border come on top): exact, so a jump to #designs lands there.
      className="@container/song-card card flex scroll-mt-24 flex-col gap-3 p-3 [contain-intrinsic-size:auto_7.5rem] [content-visibility:auto]"
      data-testid="song-card"
    >
      <div className="flex items-center gap-3">
        <img
          src={song.thumbnail}
          alt=""
          width={64}
          height={64}
          loading="lazy"
          decoding="async"
          className="h-16 w-16 shrink-0 rounded-md"
        />
        <div className="min-w-0">
          <h3 className="line-clamp-2 font-bold leading-snug">{song.title}</h3>
          {block === "duplicate" ? (
            <p
              className="mt-1 inline-block rounded-full border border-teal px-2 text-xs font-bold text-teal"
              data-testid="in-mixtape"
            >
              {HOME_COPY.inMixtape}
            </p>
          ) : null}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {/* One row at every width (the player gives way), so every card is as tall as its stand-in; and the
            Add button, at the row's end, never moves under a tap as the page hydrates. A player opened without
            JavaScript takes the row, Add under it. */}
        {/* Without JavaScript a disclosure opens the browser's player: one Tab stop a song, as the play button is. */}
        <PreviewControl
          id={song.id}
          title={song.title}
          src={song.previewUrl}
          disabled={full}
          className="min-w-0 has-open:w-full"
          fallback="disclosure"
        />
        <DeckForm intent="add" fields={{ songId: song.id }} className="ml-auto shrink-0" onSent={afterAdd}>
          <button
            type="submit"
            data-add-song={song.title}
            className="btn-small whitespace-nowrap px-3"
            disabled={block !== null}
            title={full ? HOME_COPY.mixtapeFull : block === "duplicate" ? HOME_COPY.alreadyInMixtape : undefined}
            aria-label={`${HOME_COPY.addToMixtape}: ${song.title}`}
          >
            {HOME_COPY.addToMixtape}
          </button>
        </DeckForm>
      </div>
    </li>
  );
});
