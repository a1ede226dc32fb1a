// The deck's forms. The browser replays their readers for optimistic updates; they are plain code, so no zod
// ships to the client. The forms about an order (the review's, the mixer's, the shopper's cancel) are read on
// the server only, in order-intents.ts, so the storefront's bundle carries none of them.
import { COPY } from "./copy";
import { HOME_COPY } from "./copy-home";
import {
  addTrack,
  moveTrack,
  NOTE_MAX,
  removeTrack,
  setDesign,
  setOptions,
  TOGGLE_KEYS,
  type Deck,
  type DeckResult,
  type Toggles,
} from "./deck";
import { hasControlCharacter, textLength } from "./text";
import type { Catalogue } from "./catalogue";

export type DeckIntent =
  | { intent: "add"; songId: string }
  | { intent: "remove"; songId: string }
  | { intent: "move"; songId: string; to: number }
  | { intent: "design"; designId: string | null }
  | { intent: "options"; toggles: Toggles; note: string };

/** A file never counts as a value. */
export type Fields = ReadonlyMap<string, string>;
export type Read<I> = (fields: Fields) => I | { error: string };
export type Of<K, U> = Extract<U, { intent: K }>;

const FIELD_MAX = 200;
const CHECKBOX_MAX = 10;
/** Far over its limit is a malformed request, not a typing slip. */
const NOTE_FIELD_MAX = 2000;
export const bad = { error: COPY.errors.badRequest };

export const field = (fields: Fields, name: string, max = FIELD_MAX): string | null => {
  const value = fields.get(name);
  return value !== undefined && value.length <= max ? value : null;
};
const songIntent =
  <K extends "add" | "remove">(intent: K): Read<{ intent: K; songId: string }> =>
  (fields) => {
    const songId = field(fields, "songId");
    return songId === null ? bad : { intent, songId };
  };

type DeckSpec<K extends DeckIntent["intent"]> = {
  read: Read<Of<K, DeckIntent>>;
  apply: (deck: Deck, intent: Of<K, DeckIntent>, catalogue: Catalogue) => DeckResult;
  anchor: (intent: Of<K, DeckIntent>) => string;
};

const DECK: { [K in DeckIntent["intent"]]: DeckSpec<K> } = {
  add: { read: songIntent("add"), apply: (deck, i, c) => addTrack(deck, i.songId, c), anchor: (i) => `#song-${i.songId}` },
  remove: { read: songIntent("remove"), apply: (deck, i) => removeTrack(deck, i.songId), anchor: () => "#deck" },
  move: {
    read: (fields) => {
      const songId = field(fields, "songId");
      const to = fields.get("to");
      return songId === null || to === undefined || !/^-?\d{1,3}$/.test(to) ? bad : { intent: "move", songId, to: Number(to) };
    },
    apply: (deck, i) => moveTrack(deck, i.songId, i.to),
    anchor: () => "#deck",
  },
  design: {
    read: (fields) => {
      const id = field(fields, "designId");
      return id === null ? bad : { intent: "design", designId: id === "" || id === "none" ? null : id };
    },
    apply: (deck, i, c) => setDesign(deck, i.designId, c),
    anchor: () => "#designs",
  },
  options: {
    read: (fields) => {
      const toggles = {} as Toggles;
      for (const key of TOGGLE_KEYS) {
        const value = fields.get(key) ?? "";
        if (value.length > CHECKBOX_MAX) return bad;
        toggles[key] = value === "on" || value === "true";
      }
      const raw = field(fields, "note", NOTE_FIELD_MAX);
      if (raw === null && fields.has("note")) return bad;
      const note = (raw ?? "").replace(/\r\n?/g, "\n");
      if (textLength(note) > NOTE_MAX) return { error: HOME_COPY.noteTooLong(NOTE_MAX) };
      if (hasControlCharacter(note, { newlines: true })) return { error: HOME_COPY.noteControlCharacters };
      return { intent: "options", toggles, note };
    },
    apply: (deck, i) => setOptions(deck, i.toggles, i.note),
    anchor: () => "#options",
  },
};

/** The options' reader, which the review's form shares (order-intents.ts). */
export const readOptions: Read<Of<"options", DeckIntent>> = (fields) => DECK.options.read(fields);

export const DECK_INTENTS = Object.keys(DECK) as DeckIntent["intent"][];

export type IntentParse<I> = { ok: true; intent: I } | { ok: false; error: string; unknownIntent?: true };

function fieldsOf(form: FormData | URLSearchParams): Fields {
  const fields = new Map<string, string>();
  for (const [key, value] of form.entries()) if (typeof value === "string" && !fields.has(key)) fields.set(key, value);
  return fields;
}

export function parseWith<I>(readers: Record<string, Read<I>>, form: FormData | URLSearchParams): IntentParse<I> {
  const fields = fieldsOf(form);
  const name = fields.get("intent") ?? "";
  if (!Object.hasOwn(readers, name)) return { ok: false, error: COPY.errors.unknownIntent, unknownIntent: true };
  const read = readers[name](fields);
  return read !== null && typeof read === "object" && "error" in read
    ? { ok: false, error: read.error }
    : { ok: true, intent: read as I };
}

const DECK_READERS = Object.fromEntries(Object.entries(DECK).map(([name, spec]) => [name, spec.read])) as Record<
  string,
  Read<DeckIntent>
>;

export const parseDeckIntent = (form: FormData | URLSearchParams): IntentParse<DeckIntent> => parseWith(DECK_READERS, form);

const spec = <K extends DeckIntent["intent"]>(intent: Of<K, DeckIntent>) => DECK[intent.intent] as unknown as DeckSpec<K>;

/** The catalogue of the request (or of the page, in the browser): what may be added and chosen. */
export const applyIntent = (deck: Deck, intent: DeckIntent, catalogue: Catalogue): DeckResult =>
  spec(intent).apply(deck, intent, catalogue);

export const intentAnchor = (intent: DeckIntent): string => spec(intent).anchor(intent);

/** "Save options" posts this field (its button's name): the other saves are the page's own, as the shopper types and ticks. */
export const SAVE_OPTIONS_FIELD = "save";
export const OPTIONS_ANSWER_PLACE = "options-answer";
/** The review's Transmit step shows a refused transmit (the shop closed, a stale code …) where it was pressed. */
export const TRANSMIT_ANSWER_PLACE = "transmit-answer";

/** The answer shown where the shopper is: saved options say so in their panel. */
export function intentAnswer(intent: DeckIntent, form: FormData): { message: string; place: string } | null {
  if (intent.intent !== "options") return null;
  return { message: form.has(SAVE_OPTIONS_FIELD) ? HOME_COPY.optionsSaved : HOME_COPY.saved, place: OPTIONS_ANSWER_PLACE };
}
