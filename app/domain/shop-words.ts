// The shop's words: what the mixer saved in Shop Settings wins; until then, the environment's (config.server.ts).

export type ShopWords = {
  mixerName: string;
  productLabel: string;
  title: string;
  tagline: string;
  /** What the "+" of "$10+" means, beside it. */
  priceNote: string;
  creatorUrl: string;
  checkoutUrl: string;
};

/** The table's check says the same (shop_settings_words, shop_settings_urls). */
export const WORD_LIMITS = {
  title: 60,
  tagline: 200,
  mixerName: 40,
  productLabel: 40,
  priceNote: 120,
  creatorUrl: 2000,
  checkoutUrl: 2000,
} as const satisfies Record<keyof ShopWords, number>;

export const WORD_KEYS = Object.keys(WORD_LIMITS) as (keyof ShopWords)[];

/** Each saved word (public.shop_catalogue's `words`) over the default; a word never saved is null there. */
export function shopWordsOver(defaults: ShopWords, saved: unknown): ShopWords {
  const source = saved && typeof saved === "object" ? (saved as Record<string, unknown>) : {};
  const words = { ...defaults };
  for (const key of WORD_KEYS) {
    const value = source[key];
    if (typeof value === "string") words[key] = value;
  }
  return words;
}
