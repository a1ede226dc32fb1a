// What the catalogue's forms may hold (the tables' checks say the same): a song's title, a design's
// name, and the shop's words. The server reads them; the pages show the answers.
import { DESIGN_NAME_MAX, SONG_TITLE_MAX } from "./catalogue";
import { CATALOGUE_COPY, WORDS_COPY } from "./copy-catalogue";
import { WORD_KEYS, WORD_LIMITS, type ShopWords } from "./shop-words";
import { hasControlCharacter, textLength } from "./text";

type Read<T> = { ok: true; value: T } | { ok: false; error: string };

function readText(value: string | null | undefined, max: number, messages: { required: string; tooLong: string }): Read<string> {
  const text = (value ?? "").trim();
  if (!text) return { ok: false, error: messages.required };
  if (textLength(text) > max) return { ok: false, error: messages.tooLong };
  if (hasControlCharacter(text)) return { ok: false, error: CATALOGUE_COPY.controlCharacters };
  return { ok: true, value: text };
}

export const readSongTitle = (value: string | null | undefined) =>
  readText(value, SONG_TITLE_MAX, {
    required: CATALOGUE_COPY.titleRequired,
    tooLong: CATALOGUE_COPY.titleTooLong(SONG_TITLE_MAX),
  });

export const readDesignName = (value: string | null | undefined) =>
  readText(value, DESIGN_NAME_MAX, {
    required: CATALOGUE_COPY.nameRequired,
    tooLong: CATALOGUE_COPY.nameTooLong(DESIGN_NAME_MAX),
  });

/** A row's version as the page read it (a positive whole number), else null. */
export function readVersion(value: string | null | undefined): number | null {
  return value && /^[1-9][0-9]{0,8}$/.test(value) ? Number(value) : null;
}

const OPTIONAL: ReadonlySet<keyof ShopWords> = new Set(["tagline", "priceNote"]);
const LINKS: ReadonlySet<keyof ShopWords> = new Set(["creatorUrl", "checkoutUrl"]);

/** An https link as typed ({code} stays as it is: the checkout's placeholder). */
function httpsLink(text: string): boolean {
  if (/\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return url.protocol === "https:" && !!url.hostname && !url.username && !url.password;
  } catch {
    return false;
  }
}

export type WordsRead =
  { ok: true; words: ShopWords } | { ok: false; errors: Partial<Record<keyof ShopWords, string>>; typed: ShopWords };

/** The seven words as typed; each refusal named by its field. */
export function readShopWords(get: (name: string) => string | null): WordsRead {
  const typed = Object.fromEntries(WORD_KEYS.map((k) => [k, (get(k) ?? "").replace(/\r\n?/g, " ")])) as ShopWords;
  const errors: Partial<Record<keyof ShopWords, string>> = {};
  const words = { ...typed };
  for (const key of WORD_KEYS) {
    const label = WORDS_COPY[key];
    const text = typed[key].trim();
    words[key] = text;
    if (!text && !OPTIONAL.has(key)) errors[key] = WORDS_COPY.required(label);
    else if (textLength(text) > WORD_LIMITS[key]) errors[key] = WORDS_COPY.tooLong(label, WORD_LIMITS[key]);
    else if (hasControlCharacter(text)) errors[key] = CATALOGUE_COPY.controlCharacters;
    else if (LINKS.has(key) && !httpsLink(text)) errors[key] = WORDS_COPY.httpsOnly(label);
  }
  return Object.keys(errors).length ? { ok: false, errors, typed } : { ok: true, words };
}
