// A preview's music (scripts/make-previews.js): the clip's format, the waves, scales, progressions,
// drum patterns and bass rhythms, and the song each id gets from its seeded random.
import { mulberry32 } from "../art/random.js";

export const SR = 22050; // sample rate (Hz)
export const SECONDS = 7; // clip length
export const KBPS = 48; // mono MP3 bitrate
export const N = SR * SECONDS;
export const TAU = Math.PI * 2;

export const pick = (rand, arr) => arr[Math.floor(rand() * arr.length)];
export const mtof = (m) => 440 * Math.pow(2, (m - 69) / 12);
export const clamp = (x, lo, hi) => (x < lo ? lo : x > hi ? hi : x);

// Oscillator shapes, phase in cycles [0, 1).
export const WAVES = {
  sine: (p) => Math.sin(TAU * p),
  tri: (p) => 1 - 4 * Math.abs(p - 0.5),
  saw: (p) => 2 * p - 1,
  square: (p) => (p < 0.5 ? 0.8 : -0.8),
  pulse: (p) => (p < 0.25 ? 0.8 : -0.8),
  organ: (p) => 0.6 * Math.sin(TAU * p) + 0.3 * Math.sin(TAU * 2 * p) + 0.15 * Math.sin(TAU * 3 * p),
  fm: (p) => Math.sin(TAU * p + 1.3 * Math.sin(TAU * 2 * p)),
};

const SCALES = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  mixolydian: [0, 2, 4, 5, 7, 9, 10],
  phrygian: [0, 1, 3, 5, 7, 8, 10],
  harmonicMinor: [0, 2, 3, 5, 7, 8, 11],
  pentaMinor: [0, 3, 5, 7, 10],
  pentaMajor: [0, 2, 4, 7, 9],
};

// Scale-degree progressions (0-based degrees of a 7-note scale).
const PROGRESSIONS = [
  [0, 5, 3, 4],
  [0, 3, 4, 3],
  [0, 6, 5, 6],
  [0, 0, 3, 4],
  [0, 4, 5, 3],
  [0, 2, 3, 0],
  [0, 3, 0, 4],
  [5, 3, 0, 4],
];

// 16-step drum patterns. x = hit, o = soft/ghost hit.
export const DRUMS = {
  four: { k: "x...x...x...x...", s: "....x.......x...", h: "..x...x...x...x." },
  breakbeat: { k: "x.........x..x..", s: "....x..o.o..x...", h: "x.x.x.x.x.x.x.x." },
  onedrop: { k: "........x.......", s: "........x.......", h: "..x...x...x...x." },
  halftime: { k: "x......x..x.....", s: "........x.......", h: "x.x.x.x.x.x.x.x." },
  boombap: { k: "x.....x...x.....", s: "....x.......x..o", h: "x.x.x.x.x.x.x.x." },
  electro: { k: "x..x..x...x..x..", s: "....x.......x...", h: "xoxoxoxoxoxoxoxo" },
  shuffle: { k: "x.....x.x.......", s: "....x.......x...", h: "x.xxx.xxx.xxx.xx" },
  motorik: { k: "x...x...x...x...", s: "....x.......x...", h: "xoxoxoxoxoxoxoxo" },
};

// Bass rhythm templates over 16 steps: digit = step length in 16ths,
// '.' = rest. 'r' root, 'o' octave up, 'f' fifth.
export const BASS = {
  pump: ["r2", "o2", "r2", "o2", "r2", "o2", "r2", "o2"],
  dub: ["r6", ".2", "f4", "r4"],
  walk: ["r4", "f4", "o4", "f4"],
  synco: ["r3", "r3", "f2", ".2", "r3", "o3"],
  drone: ["r8", "f8"],
  eighths: ["r2", "r2", "r2", "r2", "f2", "f2", "o2", "r2"],
};

// ---------------------------------------------------------------- song design

const STYLE_NAMES = Object.keys(DRUMS);
const BASS_NAMES = Object.keys(BASS);
const SCALE_NAMES = Object.keys(SCALES);
const LEAD_WAVES = ["square", "saw", "tri", "pulse", "organ", "fm", "sine"];
const BASS_WAVES = ["saw", "square", "sine", "tri"];

export function designSong(id) {
  const rand = mulberry32(0x9e3779b1 ^ (id * 2654435761));
  // Spread tempos evenly over 80–140 bpm with a scrambled order.
  const bpm = 80 + ((id * 17) % 31) * 2;
  const drum = STYLE_NAMES[(id * 5) % STYLE_NAMES.length];
  const bassStyle = BASS_NAMES[(id * 7 + 3) % BASS_NAMES.length];
  const scaleName = SCALE_NAMES[(id * 3 + Math.floor(rand() * 3)) % SCALE_NAMES.length];
  const root = 36 + ((id * 5) % 12); // bass root, MIDI C2..B2
  return {
    id,
    rand,
    bpm,
    drum,
    bassStyle,
    scaleName,
    scale: SCALES[scaleName],
    root,
    progression: PROGRESSIONS[(id * 3 + 1) % PROGRESSIONS.length],
    leadWave: LEAD_WAVES[(id + Math.floor(id / 7)) % LEAD_WAVES.length],
    bassWave: BASS_WAVES[(id * 3) % BASS_WAVES.length],
    swing: drum === "shuffle" || drum === "boombap" ? 0.28 : rand() < 0.3 ? 0.15 : 0,
    leadOctave: 2 + (rand() < 0.5 ? 1 : 0), // octaves above bass root
    density: 0.55 + rand() * 0.35,
    pad: rand() < 0.6,
    padWave: pick(rand, ["tri", "sine", "organ", "saw"]),
    echo: drum === "onedrop" || rand() < 0.35,
    drumsEnterBar: rand() < 0.25 ? 1 : 0,
    hiss: 0.004 + rand() * 0.01,
    wow: rand() * 0.006,
    cutoff: 900 + rand() * 2600,
  };
}
