// The browser replays these readers for optimistic updates; they are plain code, so no zod ships to the client.
import { COPY } from "./copy";
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
import { parseAmount } from "./money";
import { ORDER_CODE_RE } from "./order-code";
import { DELIVERY_URL_MAX, normalizeDeliveryUrl } from "./orders";
import { hasControlCharacter, textLength } from "./text";

export type DeckIntent =
  | { intent: "add"; songId: string }
  | { intent: "remove"; songId: string }
  | { intent: "move"; songId: string; to: number }
  | { intent: "design"; designId: string | null }
  | { intent: "options"; toggles: Toggles; note: string };

export type ReviewIntent = { intent: "generate-code" } | { intent: "transmit"; code: string } | Of<"options", DeckIntent>;

export type MixerIntent =
  | { intent: "start-mixing"; code: string }
  | { intent: "mark-sent"; code: string; deliveryUrl: string | null; message: string | null }
  | ({ intent: "mark-paid" } & MoneyFields)
  | { intent: "cancel"; code: string; from: "received" | "mixing"; reason: string | null }
  | ({ intent: "mark-refunded" } & MoneyFields);

/** A mark by hand: the amount the mixer typed (minor units), and the form's own token against a replay. */
type MoneyFields = { code: string; amount: number; currency: string; token: string };

export type ShopperIntent = { intent: "cancel"; code: string };

/** A file never counts as a value. */
type Fields = ReadonlyMap<string, string>;
type Read<I> = (fields: Fields) => I | { error: string };
type Of<K, U> = Extract<U, { intent: K }>;

const FIELD_MAX = 200;
const CHECKBOX_MAX = 10;
/** Far over its limit is a malformed request, not a typing slip. */
const NOTE_FIELD_MAX = 2000;
const bad = { error: COPY.errors.badRequest };

const field = (fields: Fields, name: string, max = FIELD_MAX): string | null => {
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
  apply: (deck: Deck, intent: Of<K, DeckIntent>) => DeckResult;
  anchor: (intent: Of<K, DeckIntent>) => string;
};

const DECK: { [K in DeckIntent["intent"]]: DeckSpec<K> } = {
  add: { read: songIntent("add"), apply: (deck, i) => addTrack(deck, i.songId), anchor: (i) => `#song-${i.songId}` },
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
    apply: (deck, i) => setDesign(deck, i.designId),
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
      if (textLength(note) > NOTE_MAX) return { error: COPY.home.noteTooLong(NOTE_MAX) };
      if (hasControlCharacter(note, { newlines: true })) return { error: COPY.home.noteControlCharacters };
      return { intent: "options", toggles, note };
    },
    apply: (deck, i) => setOptions(deck, i.toggles, i.note),
    anchor: () => "#options",
  },
};

const REVIEW: { [K in ReviewIntent["intent"]]: Read<Of<K, ReviewIntent>> } = {
  options: DECK.options.read,
  "generate-code": () => ({ intent: "generate-code" }),
  transmit: (fields) => {
    const code = (fields.get("code") ?? "").trim();
    if (code === "") return { error: COPY.review.codeRequired };
    if (!ORDER_CODE_RE.test(code)) return { error: COPY.review.codeFormat };
    return { intent: "transmit", code };
  },
};

export const MIXER_MESSAGE_MAX = 500;
export const CANCEL_REASON_MAX = 500;

function typedText(
  fields: Fields,
  name: string,
  max: number,
  tooLong: (max: number) => string,
): string | null | { error: string } {
  const raw = field(fields, name, max * 4);
  if (raw === null) return fields.has(name) ? bad : null;
  const text = raw.replace(/\r\n?/g, "\n").trim();
  if (textLength(text) > max) return { error: tooLong(max) };
  if (hasControlCharacter(text, { newlines: true })) return { error: COPY.markSent.controlCharacters };
  return text || null;
}

const orderCode = (fields: Fields): string | null => {
  const code = fields.get("code");
  return code !== undefined && ORDER_CODE_RE.test(code) ? code : null;
};
const codeIntent =
  <K extends "start-mixing" | "cancel">(intent: K): Read<{ intent: K; code: string }> =>
  (fields) => {
    const code = orderCode(fields);
    return code === null ? bad : { intent, code };
  };
const moneyIntent =
  <K extends "mark-paid" | "mark-refunded">(intent: K): Read<{ intent: K } & MoneyFields> =>
  (fields) => {
    const code = orderCode(fields);
    const currency = (field(fields, "currency") ?? "").trim().toUpperCase();
    const token = field(fields, "token");
    const typed = field(fields, "amount", 40);
    if (code === null || !/^[A-Z]{3}$/.test(currency) || token === null || !/^[A-Za-z0-9-]{8,64}$/.test(token) || typed === null)
      return bad;
    const amount = parseAmount(typed, currency);
    return amount === null ? { error: COPY.money.amountInvalid(currency) } : { intent, code, amount, currency, token };
  };

const MIXER: { [K in MixerIntent["intent"]]: Read<Of<K, MixerIntent>> } = {
  "start-mixing": codeIntent("start-mixing"),
  "mark-paid": moneyIntent("mark-paid"),
  "mark-sent": (fields) => {
    const code = orderCode(fields);
    const link = field(fields, "deliveryUrl", DELIVERY_URL_MAX * 2);
    if (code === null || (link === null && fields.has("deliveryUrl"))) return bad;
    const deliveryUrl = !link?.trim() ? null : normalizeDeliveryUrl(link);
    if (deliveryUrl === null && link?.trim()) return { error: COPY.markSent.deliveryLinkInvalid };
    const message = typedText(fields, "message", MIXER_MESSAGE_MAX, COPY.markSent.messageTooLong);
    if (message !== null && typeof message === "object") return message;
    return { intent: "mark-sent", code, deliveryUrl, message };
  },
  "mark-refunded": moneyIntent("mark-refunded"),
  cancel: (fields) => {
    const code = orderCode(fields);
    const from = fields.get("from");
    if (code === null || (from !== "received" && from !== "mixing")) return bad;
    const reason = typedText(fields, "reason", CANCEL_REASON_MAX, COPY.cancelReasonTooLong);
    if (reason !== null && typeof reason === "object") return reason;
    return { intent: "cancel", code, from, reason };
  },
};

const SHOPPER: { [K in ShopperIntent["intent"]]: Read<Of<K, ShopperIntent>> } = { cancel: codeIntent("cancel") };

export const DECK_INTENTS = Object.keys(DECK) as DeckIntent["intent"][];

export type IntentParse<I> = { ok: true; intent: I } | { ok: false; error: string; unknownIntent?: true };

function fieldsOf(form: FormData | URLSearchParams): Fields {
  const fields = new Map<string, string>();
  for (const [key, value] of form.entries()) if (typeof value === "string" && !fields.has(key)) fields.set(key, value);
  return fields;
}

function parseWith<I>(readers: Record<string, Read<I>>, form: FormData | URLSearchParams): IntentParse<I> {
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

export const parseReviewIntent = (form: FormData | URLSearchParams): IntentParse<ReviewIntent> =>
  parseWith(REVIEW as unknown as Record<string, Read<ReviewIntent>>, form);

export const parseMixerIntent = (form: FormData | URLSearchParams): IntentParse<MixerIntent> =>
  parseWith(MIXER as unknown as Record<string, Read<MixerIntent>>, form);

export const parseShopperIntent = (form: FormData | URLSearchParams): IntentParse<ShopperIntent> =>
  parseWith(SHOPPER as unknown as Record<string, Read<ShopperIntent>>, form);

export const mixerAnchor = (intent: MixerIntent) => `#order-${intent.code}`;

/** Where the queue shows a console action's answer: the order's card, or what stands in its place. */
export const cardAnswerPlace = (code: string) => `order-${code}`;
export const cardOfAnswerPlace = (place: string | undefined): string | null =>
  place?.startsWith("order-") ? place.slice("order-".length) : null;

const spec = <K extends DeckIntent["intent"]>(intent: Of<K, DeckIntent>) => DECK[intent.intent] as unknown as DeckSpec<K>;

export const applyIntent = (deck: Deck, intent: DeckIntent): DeckResult => spec(intent).apply(deck, intent);

export const intentAnchor = (intent: DeckIntent): string => spec(intent).anchor(intent);

/** "Save options" posts this field (its button's name): the other saves are the page's own, as the shopper types and ticks. */
export const SAVE_OPTIONS_FIELD = "save";
export const OPTIONS_ANSWER_PLACE = "options-answer";

/** The answer shown where the shopper is: saved options say so in their panel. */
export function intentAnswer(intent: DeckIntent, form: FormData): { message: string; place: string } | null {
  if (intent.intent !== "options") return null;
  return { message: form.has(SAVE_OPTIONS_FIELD) ? COPY.home.optionsSaved : COPY.home.saved, place: OPTIONS_ANSWER_PLACE };
}
