// The shop's catalogue: rows the mixers edit (public.songs, public.designs, public.cover_backgrounds),
// read once per request. SEEDED_CATALOGUE is the spec's library as the migration seeds it (its files
// made by scripts/make-previews.js and scripts/make-art.js).

/** active: on sale; a retired song stays in the decks that hold it and in the orders that sold it. */
export type Song = { id: string; title: string; thumbnail: string; previewUrl: string; active: boolean; version: number };
/** colour: one of the design's own colours, for the insights' chart. */
export type Design = { id: string; name: string; image: string; colour: string; active: boolean; version: number };
export type CoverBackground = { slot: number; image: string; version: number };
export type Catalogue = { songs: readonly Song[]; designs: readonly Design[]; backgrounds: readonly CoverBackground[] };

/** The spec's three cover background images: the cover card picks one of these slots. */
export const COVER_BACKGROUND_COUNT = 3;
export const SONG_TITLE_MAX = 80;
export const DESIGN_NAME_MAX = 40;
/** An order without a design, in the insights: the muted grey of the text beside it. */
export const NO_DESIGN_COLOUR = "#b9b2c7";

const TITLES = [
  "Static Over Babylon",
  "Pirate Frequency",
  "Neon Curfew",
  "Signal Jammer",
  "Concrete Lullaby",
  "Midnight Dub Relay",
  "Tape Hiss Heaven",
  "Rebel Broadcast",
  "Underground Transit",
  "Ghost in the Deck",
  "Cassette Insurgent",
  "Low Battery Love",
  "Rooftop Antenna",
  "Encrypted Heartbeat",
  "Basement Sunrise",
  "Riot of Reverb",
  "Analog Resistance",
  "Velvet Blackout",
  "Subway Seance",
  "Dead Air Dance",
  "Warehouse Prayer",
  "Counterfeit Moon",
  "Graffiti Radio",
  "Smuggled Bassline",
  "Sodium Streetlight",
  "Rewind the System",
  "Night Bus Anthem",
  "Off-Grid Groove",
  "Wiretap Waltz",
  "Last Transmission",
] as const;

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * What supabase/migrations/20261209000000_the_shop_is_the_djs.sql seeds (a contract test holds them equal).
 * The server's and the tests': the pure marks let the browser's bundle drop it (and its titles).
 */
export const SEEDED_CATALOGUE: Catalogue = {
  songs: /* @__PURE__ */ TITLES.map((title, i) => ({
    id: String(i + 1),
    title,
    thumbnail: `/art/thumbs/${pad(i + 1)}.svg`,
    previewUrl: `/previews/${pad(i + 1)}.mp3`,
    active: true,
    version: 1,
  })),
  designs: [
    { id: "ice-cold", name: "ice cold", image: "/art/designs/ice-cold.svg", colour: "#9fd8ff", active: true, version: 1 },
    {
      id: "system-burnout",
      name: "system burnout",
      image: "/art/designs/system-burnout.svg",
      colour: "#ff5a1f",
      active: true,
      version: 1,
    },
    {
      id: "high-voltage",
      name: "high voltage",
      image: "/art/designs/high-voltage.svg",
      colour: "#ffd23f",
      active: true,
      version: 1,
    },
    {
      id: "unicorn-mix",
      name: "unicorn mix",
      image: "/art/designs/unicorn-mix.svg",
      colour: "#ff8fab",
      active: true,
      version: 1,
    },
  ],
  backgrounds: /* @__PURE__ */ [1, 2, 3].map((n, slot) => ({ slot, image: `/art/covers/bg-${n}.svg`, version: 1 })),
};

export const findSong = (catalogue: Catalogue, id: string): Song | undefined => catalogue.songs.find((s) => s.id === id);

export const findDesign = (catalogue: Catalogue, id: string | null | undefined): Design | undefined =>
  id ? catalogue.designs.find((d) => d.id === id) : undefined;

/** The library and the carousel: what is on sale, in the mixer's order. */
export const activeSongs = (catalogue: Catalogue) => catalogue.songs.filter((s) => s.active);
export const activeDesigns = (catalogue: Catalogue) => catalogue.designs.filter((d) => d.active);

/** The cover card's image for the deck's slot; null when the slot has none. */
export const coverBackground = (catalogue: Catalogue, slot: number): string | null =>
  catalogue.backgrounds.find((b) => b.slot === slot)?.image ?? null;

// ---- Reading the database's answer (public.shop_catalogue) --------------------------------------
const isString = (v: unknown): v is string => typeof v === "string";
const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === "object") : [];
const version = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : 1);

export function readCatalogue(raw: unknown): Catalogue {
  const source = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  return {
    songs: list(source.songs).flatMap((s) =>
      isString(s.id) && isString(s.title) && isString(s.thumbnail) && isString(s.previewUrl)
        ? [
            {
              id: s.id,
              title: s.title,
              thumbnail: s.thumbnail,
              previewUrl: s.previewUrl,
              active: s.active !== false,
              version: version(s.version),
            },
          ]
        : [],
    ),
    designs: list(source.designs).flatMap((d) =>
      isString(d.id) && isString(d.name) && isString(d.image)
        ? [
            {
              id: d.id,
              name: d.name,
              image: d.image,
              colour: isString(d.colour) ? d.colour : NO_DESIGN_COLOUR,
              active: d.active !== false,
              version: version(d.version),
            },
          ]
        : [],
    ),
    backgrounds: list(source.backgrounds).flatMap((b) =>
      typeof b.slot === "number" && isString(b.image) ? [{ slot: b.slot, image: b.image, version: version(b.version) }] : [],
    ),
  };
}
