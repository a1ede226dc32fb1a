// Pure functions only: the browser replays the same rules for optimistic updates.
import { COVER_BACKGROUND_COUNT, findDesign, findSong, type Catalogue } from "./catalogue";
import { generateCodename, generateCoverNumber } from "./codename";
import { HOME_COPY, TOGGLE_COPY, DECK_COPY } from "./copy-home";
import type { RandomInt } from "./random";
import { textLength } from "./text";

export const MAX_TRACKS = 10;
export const NOTE_MAX = 120;
export const TOGGLE_KEYS = ["Aikavoice", "djIntro", "retronoise"] as const;
export type ToggleKey = (typeof TOGGLE_KEYS)[number];
export type Toggles = Record<ToggleKey, boolean>;

export type Deck = {
  /** A deck of another user is discarded. */
  uid: string;
  songs: string[];
  design: string | null;
  toggles: Toggles;
  note: string;
  code: string | null;
  codename: string;
  coverNo: number;
  coverBg: number;
};

export function readToggles(value: unknown): Toggles {
  const source = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  return Object.fromEntries(TOGGLE_KEYS.map((key) => [key, source[key] === true])) as Toggles;
}

export const EMPTY_TOGGLES: Readonly<Toggles> = readToggles({});

export function freshDeck(uid: string, randomInt: RandomInt): Deck {
  return {
    uid,
    songs: [],
    design: null,
    toggles: { ...EMPTY_TOGGLES },
    note: "",
    code: null,
    codename: generateCodename(randomInt),
    coverNo: generateCoverNumber(randomInt),
    coverBg: randomInt(COVER_BACKGROUND_COUNT),
  };
}

export type DeckResult = { ok: true; deck: Deck } | { ok: false; error: string };
const ok = (deck: Deck): DeckResult => ({ ok: true, deck });
const fail = (error: string): DeckResult => ({ ok: false, error });

export type AddBlock = "full" | "duplicate" | null;
export function addBlock(deck: Pick<Deck, "songs">, songId: string): AddBlock {
  if (deck.songs.includes(songId)) return "duplicate";
  if (deck.songs.length >= MAX_TRACKS) return "full";
  return null;
}

/** A retired song stays in the decks that hold it, and is never added again. */
export function addTrack(deck: Deck, songId: string, catalogue: Catalogue): DeckResult {
  const song = findSong(catalogue, songId);
  if (!song) return fail(DECK_COPY.unknownSong);
  if (!song.active && !deck.songs.includes(songId)) return fail(DECK_COPY.retired(song.title));
  const block = addBlock(deck, songId);
  if (block === "duplicate") return fail(DECK_COPY.duplicate);
  if (block === "full") return fail(DECK_COPY.full(MAX_TRACKS));
  return ok({ ...deck, songs: [...deck.songs, songId] });
}

export function removeTrack(deck: Deck, songId: string): DeckResult {
  if (!deck.songs.includes(songId)) return fail(DECK_COPY.notInDeck);
  return ok({ ...deck, songs: deck.songs.filter((id) => id !== songId) });
}

export function moveTrack(deck: Deck, songId: string, to: number): DeckResult {
  const from = deck.songs.indexOf(songId);
  if (from === -1) return fail(DECK_COPY.notInDeck);
  if (!Number.isInteger(to) || to < 0 || to >= deck.songs.length) return fail(DECK_COPY.moveOutOfRange);
  if (from === to) return ok(deck);
  const songs = [...deck.songs];
  songs.splice(from, 1);
  songs.splice(to, 0, songId);
  return ok({ ...deck, songs });
}

/** A retired design stays chosen where it was, and is never chosen again. */
export function setDesign(deck: Deck, designId: string | null, catalogue: Catalogue): DeckResult {
  const design = designId === null ? null : findDesign(catalogue, designId);
  if (design === undefined) return fail(DECK_COPY.unknownDesign);
  if (design && !design.active && deck.design !== design.id) return fail(DECK_COPY.designRetired(design.name));
  return ok({ ...deck, design: designId });
}

export function setOptions(deck: Deck, toggles: Toggles, note: string): DeckResult {
  if (textLength(note) > NOTE_MAX) return fail(HOME_COPY.noteTooLong(NOTE_MAX));
  return ok({ ...deck, toggles: readToggles(toggles), note });
}

export function setCode(deck: Deck, code: string): Deck {
  return { ...deck, code };
}

/** The design, codename and cover stay: a decision documented in docs/behaviour.md. */
export function afterTransmit(deck: Deck): Deck {
  return { ...deck, songs: [], toggles: { ...EMPTY_TOGGLES }, note: "", code: null };
}

export const enabledToggleKeys = (toggles: Toggles): ToggleKey[] => TOGGLE_KEYS.filter((k) => toggles[k]);

export const optionLabels = (toggles: Toggles, mixer: string): string[] =>
  enabledToggleKeys(toggles).map((k) => TOGGLE_COPY[k](mixer));
