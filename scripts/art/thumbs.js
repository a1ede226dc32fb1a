// The 160x160 song thumbnails: each song's title, tag and colours, its motif, its number.
import { MOTIFS_1 } from "./motifs-1.js";
import { MOTIFS_2 } from "./motifs-2.js";
import { K, P, C, O, Y, T, M, G, MONO, esc, svg } from "./svg.js";
import { mulberry32 } from "./random.js";

const SONGS = [
  // [title, tag, bg, a, b, c]
  ["Static Over Babylon", "BABYLON", P, O, Y, G],
  ["Pirate Frequency", "PIRATE FM", T, C, O, K],
  ["Neon Curfew", "CURFEW", K, M, T, Y],
  ["Signal Jammer", "JAMMER", Y, K, M, T],
  ["Concrete Lullaby", "CONCRETE", G, C, P, Y],
  ["Midnight Dub Relay", "DUB RELAY", K, C, O, T],
  ["Tape Hiss Heaven", "HISS", C, P, O, Y],
  ["Rebel Broadcast", "REBEL", O, Y, K, C],
  ["Underground Transit", "TRANSIT", C, M, T, O],
  ["Ghost in the Deck", "GHOST", P, G, C, T],
  ["Cassette Insurgent", "INSURGENT", M, K, C, Y],
  ["Low Battery Love", "LOW BATT", T, K, O, M],
  ["Rooftop Antenna", "ANTENNA", K, C, Y, P],
  ["Encrypted Heartbeat", "ENCRYPTED", P, T, M, C],
  ["Basement Sunrise", "SUNRISE", P, Y, O, M],
  ["Riot of Reverb", "REVERB", Y, K, M, O],
  ["Analog Resistance", "ANALOG", C, K, O, M],
  ["Velvet Blackout", "VELVET", K, M, P, C],
  ["Subway Seance", "SEANCE", K, T, C, M],
  ["Dead Air Dance", "DEAD AIR", O, K, C, Y],
  ["Warehouse Prayer", "PRAYER", P, Y, G, C],
  ["Counterfeit Moon", "MOON", K, Y, M, C],
  ["Graffiti Radio", "GRAFFITI", G, M, Y, T],
  ["Smuggled Bassline", "BASSLINE", K, T, Y, M],
  ["Sodium Streetlight", "SODIUM", P, O, Y, G],
  ["Rewind the System", "REWIND", T, K, C, O],
  ["Night Bus Anthem", "NIGHT BUS", M, Y, K, C],
  ["Off-Grid Groove", "OFF-GRID", C, K, O, T],
  ["Wiretap Waltz", "WIRETAP", O, C, K, Y],
  ["Last Transmission", "LAST TX", K, O, M, C],
];

const MOTIFS = { ...MOTIFS_1, ...MOTIFS_2 };

export function thumb(id) {
  const [title, tag, bg, a, b, c] = SONGS[id - 1];
  const num = String(id).padStart(2, "0");
  const motif = MOTIFS[title];
  if (!motif) throw new Error(`no motif for ${title}`);
  const ctx = { id, p: `t${num}`, bg, a, b, c, rand: mulberry32(id * 1013904223) };
  const tagW = tag.length * 7 + 10;
  const badgeFill = bg === K ? C : K;
  const badgeText = bg === K ? K : C;
  return svg(
    160,
    160,
    `${num} — ${title}`,
    `<rect width="160" height="160" fill="${bg}"/>` +
      motif(ctx) +
      `<g font-family="${MONO}" font-weight="700">` +
      `<rect x="8" y="8" width="38" height="24" fill="${badgeFill}"/>` +
      `<text x="27" y="26" font-size="17" text-anchor="middle" fill="${badgeText}">${num}</text>` +
      `<rect x="${152 - tagW}" y="136" width="${tagW}" height="16" fill="${badgeFill}"/>` +
      `<text x="147" y="148" font-size="10" letter-spacing="1" text-anchor="end" fill="${badgeText}">${esc(tag)}</text>` +
      `</g>`,
  );
}
