// The tape's content check (app/server/storage/audio.server.ts) on the real files of
// tests/fixtures/audio (scripts/make-audio-fixtures.js): the bytes decide, never the name.
import fs from "node:fs";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { checkAudio, checkAudioFile, NOT_AUDIO, NotAudioError, TooLargeError } from "~/server/storage/audio.server";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/audio");
const file = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
/** The file as an upload arrives: in chunks of 16 kB. */
const upload = (data: Buffer, chunk = 16 * 1024) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += chunk) yield data.subarray(i, i + chunk);
    })(),
  );
const MB = 1024 * 1024;

describe("the content check", () => {
  it.each([
    ["tone.mp3", "audio/mpeg", "mp3"],
    ["tone.m4a", "audio/mp4", "m4a"],
    ["tone.ogg", "audio/ogg", "ogg"],
    ["tone.opus", "audio/ogg", "opus"],
    ["tone.flac", "audio/flac", "flac"],
    ["tone.wav", "audio/wav", "wav"],
  ])("accepts %s as %s (.%s), passes its bytes on untouched and gives its length", async (name, mime, ext) => {
    const data = file(name);
    const checked = checkAudio(upload(data), { maxBytes: MB });
    expect(await checked.type).toEqual({ mime, ext });
    const [passed, facts] = await Promise.all([buffer(checked.body), checked.facts]);
    expect(passed.equals(data)).toBe(true);
    expect(facts).toMatchObject({ mime, ext });
    expect(facts.durationSeconds).toBeGreaterThan(2.9);
    expect(facts.durationSeconds).toBeLessThan(3.2);
  });

  it.each(["image.mp3", "notes.txt"])(
    "refuses %s by its first bytes, with the one message, before anything passes",
    async (name) => {
      const checked = checkAudio(upload(file(name)), { maxBytes: MB });
      await expect(checked.type).rejects.toThrow(NotAudioError);
      await expect(checked.type).rejects.toThrow(NOT_AUDIO);
      await expect(checked.facts).rejects.toThrow(NOT_AUDIO);
      await expect(buffer(checked.body)).rejects.toThrow(NOT_AUDIO);
    },
  );

  it("refuses a file that looks like MP3 at first (an ID3 tag) but holds no audio: the body fails instead of ending", async () => {
    const checked = checkAudio(upload(file("id3-then-text.mp3")), { maxBytes: MB });
    expect(await checked.type).toEqual({ mime: "audio/mpeg", ext: "mp3" });
    let ended = false;
    checked.body.on("end", () => (ended = true));
    await expect(buffer(checked.body)).rejects.toThrow(NOT_AUDIO);
    await expect(checked.facts).rejects.toThrow(NotAudioError);
    expect(ended).toBe(false);
  });

  it("stops reading at the limit with its own error (413), in the first bytes or later", async () => {
    const data = file("tone.wav");
    const early = upload(data, 1024);
    const tooSmall = checkAudio(early, { maxBytes: 2000 });
    await expect(tooSmall.type).rejects.toThrow(TooLargeError);
    expect(early.destroyed).toBe(true);

    const source = upload(data, 1024);
    const checked = checkAudio(source, { maxBytes: 20_000 });
    expect(await checked.type).toEqual({ mime: "audio/wav", ext: "wav" });
    await expect(buffer(checked.body)).rejects.toThrow(TooLargeError);
    await expect(checked.facts).rejects.toThrow(TooLargeError);
    expect(source.destroyed).toBe(true);
  });

  it("accepts a file of exactly the limit", async () => {
    const data = file("tone.mp3");
    const checked = checkAudio(upload(data), { maxBytes: data.length });
    await checked.type;
    expect((await buffer(checked.body)).length).toBe(data.length);
  });

  it("streams: the first bytes pass on while the upload is still arriving", async () => {
    const data = file("tone.wav");
    const source = new PassThrough();
    const checked = checkAudio(source, { maxBytes: MB });
    source.write(data.subarray(0, 8192));
    await checked.type;
    const first = await new Promise<Buffer>((resolve) => checked.body.once("data", resolve));
    expect(first.length).toBeGreaterThan(0);
    expect(source.writableEnded).toBe(false);
    const rest: Buffer[] = [first];
    checked.body.on("data", (c: Buffer) => rest.push(c));
    source.end(data.subarray(8192));
    await checked.facts;
    await new Promise((resolve) => checked.body.once("end", resolve));
    expect(Buffer.concat(rest).equals(data)).toBe(true);
  });

  it.each(["tone.mp3", "tone.m4a", "tone.ogg", "tone.opus", "tone.flac", "tone.wav"])(
    "checks %s at rest (a staged upload) with the same verdict as while it streams",
    async (name) => {
      const streamed = checkAudio(upload(file(name)), { maxBytes: MB });
      const [, expected] = await Promise.all([buffer(streamed.body), streamed.facts]);
      expect(await checkAudioFile(path.join(FIXTURES, name), { maxBytes: MB })).toEqual(expected);
    },
  );

  it("refuses a file at rest that is not audio, or is larger than the limit", async () => {
    await expect(checkAudioFile(path.join(FIXTURES, "notes.txt"), { maxBytes: MB })).rejects.toThrow(NotAudioError);
    await expect(checkAudioFile(path.join(FIXTURES, "id3-then-text.mp3"), { maxBytes: MB })).rejects.toThrow(NotAudioError);
    await expect(checkAudioFile(path.join(FIXTURES, "tone.wav"), { maxBytes: 20_000 })).rejects.toThrow(TooLargeError);
  });

  it("keeps every fixture small", () => {
    for (const name of fs.readdirSync(FIXTURES)) expect(fs.statSync(path.join(FIXTURES, name)).size).toBeLessThan(100 * 1024);
  });
});
