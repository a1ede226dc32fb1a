#!/usr/bin/env node
// Makes the small real audio files of tests/fixtures/audio/ (3 seconds of a chord each) and
// the non-audio ones the content check refuses. WAV is written here by hand and MP3 with
// lamejs (as make-previews.js does); FLAC, Ogg Vorbis, Opus and M4A come from Debian's ffmpeg
// (`apt-get install ffmpeg`), run once: the files are committed, so tests never need it.
// Without ffmpeg those four are left as they are, and the script says so.
//
// Usage: node scripts/make-audio-fixtures.js
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "tests", "fixtures", "audio");
const SECONDS = 3;
const MAX_BYTES = 100 * 1024;

/** A soft A-minor chord with a fade, mono, 16-bit samples. */
function chord(rate) {
  const samples = new Int16Array(rate * SECONDS);
  for (let i = 0; i < samples.length; i++) {
    const t = i / rate;
    const fade = Math.min(1, t * 8, (SECONDS - t) * 8);
    const v = [220, 261.63, 329.63].reduce((sum, f) => sum + Math.sin(2 * Math.PI * f * t), 0) / 3;
    samples[i] = Math.round(v * fade * 0.5 * 32767);
  }
  return samples;
}

function wav(samples, rate) {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28); // bytes per second
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

function mp3(samples, rate) {
  // lamejs's package main is broken under Node; its one-file build declares a global (scripts/previews/mp3.js).
  const src = readFileSync(require.resolve("lamejs/lame.all.js"), "utf8");
  const lamejs = new Function(`${src}\nreturn lamejs;`)();
  const encoder = new lamejs.Mp3Encoder(1, rate, 32);
  const parts = [];
  for (let i = 0; i < samples.length; i += 1152) parts.push(encoder.encodeBuffer(samples.subarray(i, i + 1152)));
  parts.push(encoder.flush());
  return Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.length)));
}

/** A 1×1 PNG: a real image, named .mp3 for the content check to refuse. */
function png() {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]); // 1×1, 8-bit RGB
  const pixels = zlib.deflateSync(Buffer.from([0, 0xff, 0x66, 0x00]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** An ID3 tag that claims 64 kB (more than the file), then text: file-type takes it for MP3, the parse finds no audio. */
function id3ThenText() {
  const size = 64 * 1024;
  const syncsafe = [21, 14, 7, 0].map((shift) => (size >> shift) & 0x7f);
  const header = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, ...syncsafe]); // ID3v2.3
  return Buffer.concat([header, Buffer.from("not a song. ".repeat(1000), "ascii")]);
}

function hasFfmpeg() {
  try {
    execFileSync("ffmpeg", ["-version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

mkdirSync(OUT, { recursive: true });
const write = (name, data) => writeFileSync(join(OUT, name), data);
write("tone.wav", wav(chord(8000), 8000));
write("tone.mp3", mp3(chord(22050), 22050));
write("image.mp3", png());
write("notes.txt", "Side A: the tape starts here.\nThis is text, not audio.\n");
write("id3-then-text.mp3", id3ThenText());

if (hasFfmpeg()) {
  const source = join(OUT, ".source.wav");
  writeFileSync(source, wav(chord(44100), 44100));
  const ffmpeg = (name, args) =>
    execFileSync("ffmpeg", [
      "-y",
      "-v",
      "error",
      "-i",
      source,
      "-map_metadata",
      "-1",
      "-fflags",
      "+bitexact",
      ...args,
      join(OUT, name),
    ]);
  ffmpeg("tone.flac", ["-ar", "8000", "-c:a", "flac"]);
  ffmpeg("tone.ogg", ["-ar", "22050", "-c:a", "libvorbis", "-q:a", "0"]);
  ffmpeg("tone.opus", ["-c:a", "libopus", "-b:a", "24k"]);
  ffmpeg("tone.m4a", ["-ar", "22050", "-c:a", "aac", "-b:a", "32k", "-movflags", "+faststart"]);
  rmSync(source);
} else {
  console.log("ffmpeg is not installed: tone.flac, tone.ogg, tone.opus and tone.m4a are left as they are.");
}

for (const name of ["tone.wav", "tone.mp3", "tone.flac", "tone.ogg", "tone.opus", "tone.m4a"]) {
  const size = statSync(join(OUT, name)).size;
  if (size > MAX_BYTES) throw new Error(`${name} is ${size} bytes; keep fixtures under ${MAX_BYTES}`);
  console.log(`${name}: ${size} bytes`);
}
