// The fixed catalogue: 30 songs, 4 cover designs, 3 cover-card backgrounds.
// Assets are generated in the repo by scripts/make-previews.js and scripts/make-art.js.

export type Song = { id: string; title: string; thumbnail: string; previewUrl: string };
export type Design = { id: string; name: string; image: string };

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

export const SONGS: readonly Song[] = TITLES.map((title, i) => ({
  id: String(i + 1),
  title,
  thumbnail: `/art/thumbs/${pad(i + 1)}.svg`,
  previewUrl: `/previews/${pad(i + 1)}.mp3`,
}));

const SONGS_BY_ID = new Map(SONGS.map((s) => [s.id, s]));
export const findSong = (id: string): Song | undefined => SONGS_BY_ID.get(id);

export const DESIGNS: readonly Design[] = [
  { id: "ice-cold", name: "ice cold", image: "/art/designs/ice-cold.svg" },
  { id: "system-burnout", name: "system burnout", image: "/art/designs/system-burnout.svg" },
  { id: "high-voltage", name: "high voltage", image: "/art/designs/high-voltage.svg" },
  { id: "unicorn-mix", name: "unicorn mix", image: "/art/designs/unicorn-mix.svg" },
];

export const findDesign = (id: string | null | undefined): Design | undefined =>
  id ? DESIGNS.find((d) => d.id === id) : undefined;

export const COVER_BACKGROUNDS = ["/art/covers/bg-1.svg", "/art/covers/bg-2.svg", "/art/covers/bg-3.svg"] as const;
