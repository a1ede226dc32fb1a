#!/usr/bin/env node
// Synthesizes 30 short, distinct music previews in pure JS and encodes them
// to MP3 with lamejs. Output: public/previews/01.mp3 … 30.mp3.
//
// Deterministic: every random choice comes from a PRNG seeded by the song id,
// so running the script twice produces byte-identical files.
//
// Usage: node scripts/make-previews.js
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeMp3 } from "./previews/mp3.js";
import { renderSong } from "./previews/render.js";
import { designSong } from "./previews/song.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = join(ROOT, "public", "previews");
const MAX_BYTES = 60 * 1024;

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
