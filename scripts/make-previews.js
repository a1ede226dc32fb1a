#!/usr/bin/env node
// Synthesizes 30 short, distinct music previews in pure JS and encodes them
// to MP3 with lamejs. Output: public/previews/01.mp3 … 30.mp3.
//
// Deterministic: every random choice comes from a PRNG seeded by the song id,
// so running the script twice produces byte-identical files.
//
// Usage: node scripts/make-previews.js
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
// lamejs 1.2.1: the package's `main` (src/js/index.js, the per-file modules)
// is broken under Node ("MPEGMode is not defined"). The bundled single-file
// build lame.all.js works, but it only declares a global `lamejs` function and
// has no module.exports, so evaluate it and return that function.
function loadLamejs() {
  const file = require.resolve("lamejs/lame.all.js");
  const src = readFileSync(file, "utf8");
  return new Function(`${src}\nreturn lamejs;`)();
}
const lamejs = loadLamejs();

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = join(ROOT, "public", "previews");

const SR = 22050; // sample rate (Hz)
const SECONDS = 7; // clip length
const KBPS = 48; // mono MP3 bitrate
const MAX_BYTES = 60 * 1024;
const N = SR * SECONDS;
const TAU = Math.PI * 2;

// ---------------------------------------------------------------- helpers

function mulberry32(seed) {
  let a = seed >>> 0;
  return function rand() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (rand, arr) => arr[Math.floor(rand() * arr.length)];
const mtof = (m) => 440 * Math.pow(2, (m - 69) / 12);
const clamp = (x, lo, hi) => (x < lo ? lo : x > hi ? hi : x);

// Oscillator shapes, phase in cycles [0, 1).
const WAVES = {
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
const DRUMS = {
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
const BASS = {
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

function designSong(id) {
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

// ---------------------------------------------------------------- rendering

function makeWow(song) {
  const rate = 0.4 + song.rand() * 0.8;
  const depth = song.wow;
  return (t) => 1 + depth * Math.sin(TAU * rate * t);
}

// Render a tonal note (oscillator → one-pole lowpass → ADSR) into buf.
function renderNote(buf, opts) {
  const {
    start, // seconds
    dur, // seconds (gate length)
    freq,
    wave,
    amp,
    attack = 0.005,
    decay = 0.1,
    sustain = 0.6,
    release = 0.08,
    cutoff = 3000,
    cutoffEnv = 0, // extra cutoff at note start, decays with `decay`
    vibrato = 0,
    detune = 0, // second oscillator detune ratio (0 = off)
    wow,
  } = opts;
  const fn = WAVES[wave];
  const s0 = Math.floor(start * SR);
  const total = Math.floor((dur + release) * SR);
  let p1 = 0;
  let p2 = 0.31;
  let y = 0;
  for (let i = 0; i < total; i++) {
    const idx = s0 + i;
    if (idx < 0) continue;
    if (idx >= N) break;
    const t = i / SR;
    // ADSR
    let env;
    if (t < attack) env = t / attack;
    else if (t < attack + decay) env = 1 - (1 - sustain) * ((t - attack) / decay);
    else env = sustain;
    if (t > dur) env *= Math.max(0, 1 - (t - dur) / release);
    const vib = vibrato ? 1 + vibrato * Math.sin(TAU * 5.5 * t) * Math.min(1, t * 3) : 1;
    const f = freq * vib * wow(idx / SR);
    p1 += f / SR;
    p1 -= Math.floor(p1);
    let x = fn(p1);
    if (detune) {
      p2 += (f * (1 + detune)) / SR;
      p2 -= Math.floor(p2);
      x = 0.6 * x + 0.6 * fn(p2);
    }
    const fc = cutoff + cutoffEnv * Math.exp(-t / Math.max(decay, 0.01));
    const a = 1 - Math.exp((-TAU * Math.min(fc, SR * 0.45)) / SR);
    y += a * (x - y);
    buf[idx] += y * env * amp;
  }
}

function renderKick(buf, start, amp) {
  const s0 = Math.floor(start * SR);
  let ph = 0;
  const len = Math.floor(0.35 * SR);
  for (let i = 0; i < len && s0 + i < N; i++) {
    const t = i / SR;
    const f = 45 + 85 * Math.exp(-t / 0.03);
    ph += f / SR;
    const env = Math.exp(-t / 0.12);
    const click = i < 40 ? (1 - i / 40) * 0.3 : 0;
    buf[s0 + i] += (Math.sin(TAU * ph) * env + click) * amp;
  }
}

function renderSnare(buf, start, amp, noise, tone) {
  const s0 = Math.floor(start * SR);
  const len = Math.floor(0.22 * SR);
  let prev = 0;
  for (let i = 0; i < len && s0 + i < N; i++) {
    const t = i / SR;
    const n = noise() * 2 - 1;
    const hp = n - prev * 0.6; // brighten the noise a little
    prev = n;
    const body = Math.sin(TAU * tone * t) * Math.exp(-t / 0.04);
    buf[s0 + i] += (hp * Math.exp(-t / 0.07) * 0.7 + body * 0.5) * amp;
  }
}

function renderHat(buf, start, amp, noise, decay) {
  const s0 = Math.floor(start * SR);
  const len = Math.floor(decay * 5 * SR);
  let prev = 0;
  for (let i = 0; i < len && s0 + i < N; i++) {
    const t = i / SR;
    const n = noise() * 2 - 1;
    const hp = n - prev; // crude highpass
    prev = n;
    buf[s0 + i] += hp * Math.exp(-t / decay) * amp;
  }
}

function scaleNote(song, degree, octaveShift = 0) {
  const sc = song.scale;
  const len = sc.length;
  const oct = Math.floor(degree / len);
  const d = ((degree % len) + len) % len;
  return song.root + 12 * (oct + octaveShift) + sc[d];
}

// Map a 7-degree progression step onto the current scale (pentatonic scales
// have only 5 degrees, so scale the index).
function chordRootDegree(song, progDegree) {
  return Math.round((progDegree * song.scale.length) / 7);
}

function renderSong(song) {
  const buf = new Float64Array(N);
  const wow = makeWow(song);
  const rand = song.rand;
  const noise = mulberry32(song.id * 7919 + 17);

  const stepDur = 60 / song.bpm / 4; // 16th note
  const barDur = stepDur * 16;
  const bars = Math.ceil(SECONDS / barDur) + 1;
  const stepTime = (bar, step) => bar * barDur + step * stepDur + (step % 2 === 1 ? song.swing * stepDur : 0);

  // --- drums
  const pat = DRUMS[song.drum];
  const snareTone = 160 + rand() * 80;
  const hatDecay = 0.012 + rand() * 0.02;
  for (let bar = song.drumsEnterBar; bar < bars; bar++) {
    for (let st = 0; st < 16; st++) {
      const t = stepTime(bar, st);
      if (t >= SECONDS) break;
      const k = pat.k[st];
      const s = pat.s[st];
      const h = pat.h[st];
      if (k !== ".") renderKick(buf, t, k === "x" ? 0.9 : 0.5);
      if (s !== ".") renderSnare(buf, t, s === "x" ? 0.45 : 0.15, noise, snareTone);
      if (h !== ".") renderHat(buf, t, h === "x" ? 0.16 : 0.08, noise, hatDecay);
    }
    // a small fill at the end of every other bar
    if (bar % 2 === 1 && rand() < 0.5) {
      renderSnare(buf, stepTime(bar, 14), 0.25, noise, snareTone);
      renderSnare(buf, stepTime(bar, 15), 0.32, noise, snareTone);
    }
  }

  // --- bass
  const bassTpl = BASS[song.bassStyle];
  for (let bar = 0; bar < bars; bar++) {
    const deg = chordRootDegree(song, song.progression[bar % song.progression.length]);
    let st = 0;
    for (const tok of bassTpl) {
      const kind = tok[0];
      const len = Number(tok.slice(1));
      if (kind !== ".") {
        let midi = scaleNote(song, deg);
        if (kind === "o") midi += 12;
        if (kind === "f") midi = scaleNote(song, deg + Math.round((4 * song.scale.length) / 7));
        const t = stepTime(bar, st);
        if (t < SECONDS) {
          renderNote(buf, {
            start: t,
            dur: len * stepDur * 0.85,
            freq: mtof(midi),
            wave: song.bassWave,
            amp: song.bassWave === "sine" ? 0.45 : 0.3,
            attack: 0.004,
            decay: 0.12,
            sustain: 0.7,
            release: 0.05,
            cutoff: 280,
            cutoffEnv: 900,
            wow,
          });
        }
      }
      st += len;
    }
  }

  // --- pad chords (triads on the progression)
  if (song.pad) {
    for (let bar = 0; bar < bars; bar++) {
      const deg = chordRootDegree(song, song.progression[bar % song.progression.length]);
      const third = Math.round((2 * song.scale.length) / 7);
      const fifth = Math.round((4 * song.scale.length) / 7);
      for (const off of [0, third, fifth]) {
        const midi = scaleNote(song, deg + off, 1);
        renderNote(buf, {
          start: bar * barDur,
          dur: barDur * 0.92,
          freq: mtof(midi),
          wave: song.padWave,
          amp: 0.07,
          attack: 0.25,
          decay: 0.3,
          sustain: 0.8,
          release: 0.35,
          cutoff: 1200,
          detune: 0.004,
          wow,
        });
      }
    }
  }

  // --- lead melody: a 2-bar seeded motif, repeated with variation
  const lead = new Float64Array(N);
  const motif = [];
  let degree = Math.floor(rand() * song.scale.length);
  for (let st = 0; st < 32;) {
    const len = pick(rand, [1, 2, 2, 2, 3, 4, 4, 6]);
    if (rand() < song.density || st === 0) {
      degree = clamp(degree + pick(rand, [-2, -1, -1, 0, 1, 1, 2, 3, -3]), -2, 9);
      motif.push({ st, len: Math.min(len, 32 - st), degree });
    }
    st += len;
  }
  const leadCutoff = song.cutoff;
  for (let rep = 0; rep * 2 < bars; rep++) {
    const transpose = rep % 2 === 1 ? pick(rand, [0, 0, 1, 2, -1]) : 0;
    for (const n of motif) {
      const bar = rep * 2 + Math.floor(n.st / 16);
      const t = stepTime(bar, n.st % 16);
      if (t >= SECONDS) continue;
      const midi = scaleNote(song, n.degree + transpose, song.leadOctave);
      renderNote(lead, {
        start: t,
        dur: n.len * stepDur * 0.9,
        freq: mtof(midi),
        wave: song.leadWave,
        amp: song.leadWave === "sine" || song.leadWave === "tri" ? 0.42 : 0.3,
        attack: 0.01,
        decay: 0.15,
        sustain: 0.55,
        release: 0.1,
        cutoff: leadCutoff,
        cutoffEnv: 1500,
        vibrato: n.len >= 4 ? 0.006 : 0,
        wow,
      });
    }
  }
  // dub-style echo on the lead (dotted 8th feedback delay)
  if (song.echo) {
    const d = Math.floor(stepDur * 3 * SR);
    for (let i = d; i < N; i++) lead[i] += lead[i - d] * 0.42;
  }
  for (let i = 0; i < N; i++) buf[i] += lead[i];

  // --- tape hiss
  let h = 0;
  for (let i = 0; i < N; i++) {
    const n = noise() * 2 - 1;
    h += 0.5 * (n - h);
    buf[i] += (n - h) * song.hiss;
  }

  // --- gentle saturation, then a master lowpass (biquad, ~7 kHz) so the MP3
  // encoder's own lowpass does not cause overshoot past our normalised peak.
  for (let i = 0; i < N; i++) buf[i] = Math.tanh(buf[i] * 1.2);
  lowpassInPlace(buf, 7000, 0.707);
  let peak = 0;
  for (let i = 0; i < N; i++) peak = Math.max(peak, Math.abs(buf[i]));
  const fadeIn = Math.floor(0.25 * SR);
  const fadeOut = Math.floor(0.9 * SR);
  // Peak at about -2 dBFS so the MP3 decoder's overshoot never clips.
  const gain = peak > 0 ? 0.79 / peak : 1;
  const pcm = new Int16Array(N);
  for (let i = 0; i < N; i++) {
    let g = gain;
    if (i < fadeIn) g *= i / fadeIn;
    if (i > N - fadeOut) g *= (N - i) / fadeOut;
    pcm[i] = Math.round(clamp(buf[i] * g, -1, 1) * 32767);
  }
  return pcm;
}

// RBJ biquad lowpass, applied in place.
function lowpassInPlace(x, fc, q) {
  const w0 = (TAU * fc) / SR;
  const alpha = Math.sin(w0) / (2 * q);
  const cw = Math.cos(w0);
  const a0 = 1 + alpha;
  const b0 = (1 - cw) / 2 / a0;
  const b1 = (1 - cw) / a0;
  const b2 = b0;
  const a1 = (-2 * cw) / a0;
  const a2 = (1 - alpha) / a0;
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const x0 = x[i];
    const y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x0;
    y2 = y1;
    y1 = y0;
    x[i] = y0;
  }
}

function encodeMp3(pcm) {
  const enc = new lamejs.Mp3Encoder(1, SR, KBPS);
  const chunks = [];
  const block = 1152;
  for (let i = 0; i < pcm.length; i += block) {
    const out = enc.encodeBuffer(pcm.subarray(i, i + block));
    if (out.length) chunks.push(Buffer.from(out.buffer, out.byteOffset, out.length));
  }
  const end = enc.flush();
  if (end.length) chunks.push(Buffer.from(end.buffer, end.byteOffset, end.length));
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------- main

mkdirSync(OUT_DIR, { recursive: true });
let failed = false;
for (let id = 1; id <= 30; id++) {
  const song = designSong(id);
  const mp3 = encodeMp3(renderSong(song));
  const name = `${String(id).padStart(2, "0")}.mp3`;
  writeFileSync(join(OUT_DIR, name), mp3);
  const ok = mp3.length <= MAX_BYTES && mp3[0] === 0xff && (mp3[1] & 0xe0) === 0xe0;
  if (!ok) failed = true;
  console.log(
    `${name}  ${(mp3.length / 1024).toFixed(1).padStart(5)} KB  ${song.bpm} bpm  ` +
      `${song.scaleName}/${song.drum}/${song.bassStyle}/${song.leadWave}${ok ? "" : "  !! INVALID"}`,
  );
}
if (failed) {
  console.error("Some previews failed validation (size or MP3 frame sync).");
  process.exit(1);
}
