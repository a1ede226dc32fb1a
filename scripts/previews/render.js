// A song rendered to samples: notes through a lowpass and an envelope, kick, snare and hats, the
// tape's wow, and a lowpass over the whole mix.
import { SR, SECONDS, N, TAU, pick, mtof, clamp, WAVES, DRUMS, BASS } from "./song.js";
import { mulberry32 } from "../art/random.js";

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

export function renderSong(song) {
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
