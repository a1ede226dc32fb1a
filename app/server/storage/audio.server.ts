// The content check of an uploaded tape: its first bytes name the format (file-type), and the
// whole stream is parsed as it flows to storage (music-metadata), which also gives the duration.
// Nothing is buffered beyond the first few kilobytes; the body the store reads ends only once the
// verdict is in, so a refused or oversized upload never completes a put (nothing is kept).
import { fileTypeFromBuffer } from "file-type";
import { parseFromTokenizer, parseWebStream, type IAudioMetadata } from "music-metadata";
import fsp from "node:fs/promises";
import { Readable } from "node:stream";
import { FileWindowTokenizer } from "./file-tokenizer.server";

export const NOT_AUDIO = "This file is not audio (MP3, M4A, OGG, FLAC or WAV).";

export type AudioType = { mime: "audio/mpeg" | "audio/mp4" | "audio/ogg" | "audio/flac" | "audio/wav"; ext: string };
export type AudioFacts = AudioType & { durationSeconds: number; codec: string | null };

/** The refusal shown to the mixer; the route answers 415 (or 400) and nothing is stored. */
export class NotAudioError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(NOT_AUDIO, options);
    this.name = "NotAudioError";
  }
}

/** Reading stopped at the limit; the route answers 413. */
export class TooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`The file is larger than ${Math.floor(limitBytes / (1024 * 1024))} MB.`);
    this.name = "TooLargeError";
  }
}

/** file-type's own sample size (its reasonableDetectionSizeInBytes, which its Node entry does not export). */
const HEAD_BYTES = 4100;

const MP3: AudioType = { mime: "audio/mpeg", ext: "mp3" };
const M4A: AudioType = { mime: "audio/mp4", ext: "m4a" };
const OGG: AudioType = { mime: "audio/ogg", ext: "ogg" };
/** file-type's extension → what is served. Raw AAC (ADTS) is not M4A: it is refused. */
const ACCEPTED: Record<string, AudioType> = {
  mp3: MP3,
  m4a: M4A,
  // An audio-only MP4 often carries a generic brand (isom, mp42): music-metadata then checks that it has no video.
  mp4: M4A,
  ogg: OGG,
  oga: OGG,
  opus: { mime: "audio/ogg", ext: "opus" },
  flac: { mime: "audio/flac", ext: "flac" },
  wav: { mime: "audio/wav", ext: "wav" },
};

/** What the parse must have found for the file to count as audio of that type. */
function verdict(type: AudioType, meta: IAudioMetadata): AudioFacts {
  const { duration, codec, hasVideo, hasAudio } = meta.format;
  if (!duration || !Number.isFinite(duration) || duration <= 0 || hasVideo || hasAudio === false) throw new NotAudioError();
  return { ...type, durationSeconds: duration, codec: codec ?? null };
}

/** The whole file is parsed for its duration (covers are skipped: they prove nothing about the audio). */
const PARSE_OPTIONS = { duration: true, skipCovers: true };

/** How far the parser may lag behind the upload (it skips what it does not need, so it rarely lags at all). */
const INSPECT_AHEAD_BYTES = 1024 * 1024;

/**
 * The parse of the whole file as it passes: each chunk is handed to music-metadata as it is (a Web
 * stream of the very buffers, read by its default reader), never copied into a stream of its own and
 * read back: the parser copies out only the bytes it reads, and it skips the rest (a WAV's samples).
 */
function inspection(accepted: AudioType) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let wake: (() => void) | null = null;
  let done = false;
  const resume = () => {
    wake?.();
    wake = null;
  };
  const source = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (controller = c),
      pull: resume,
      cancel: () => {
        done = true;
        resume();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: INSPECT_AHEAD_BYTES }),
  );
  const parsing = parseWebStream(source, { mimeType: accepted.mime }, PARSE_OPTIONS).finally(() => {
    done = true; // the parser may give up (or finish) before the stream ends
    resume();
  });
  parsing.catch(() => {}); // awaited by end()
  return {
    async feed(chunk: Buffer) {
      if (done) return;
      controller.enqueue(chunk);
      if ((controller.desiredSize ?? 0) <= 0) await new Promise<void>((resolve) => (wake = resolve));
    },
    async end(): Promise<IAudioMetadata> {
      if (!done) controller.close();
      try {
        return await parsing;
      } catch (cause) {
        throw new NotAudioError({ cause });
      }
    },
    stop() {
      if (done) return;
      done = true;
      controller.error(new Error("the upload stopped"));
      resume();
    },
  };
}

export type CheckedAudio = {
  /** Settles after the first bytes: the type the key is named with, or NotAudioError/TooLargeError. */
  type: Promise<AudioType>;
  /** The upload as it arrives, to hand to Storage.put once type has resolved; fails instead of ending when refused. */
  body: Readable;
  /** The verdict on the whole file, settled when body ends. */
  facts: Promise<AudioFacts>;
};

/**
 * Checks source while it streams on. Read type first: until it resolves, body holds only the
 * first few kilobytes. Stops reading at maxBytes + 1 (TooLargeError).
 */
export function checkAudio(source: Readable, options: { maxBytes: number }): CheckedAudio {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let seen = 0;
  /** The next chunk of the source, counted against the limit (reading stops there). */
  async function next(): Promise<Buffer | null> {
    const { value, done } = await chunks.next();
    if (done) return null;
    const chunk = Buffer.isBuffer(value) ? value : Buffer.from(value);
    seen += chunk.length;
    if (seen > options.maxBytes) {
      await chunks.return?.();
      throw new TooLargeError(options.maxBytes);
    }
    return chunk;
  }

  const head: Buffer[] = [];
  let ended = false;
  const type = (async () => {
    let length = 0;
    while (length < HEAD_BYTES) {
      const chunk = await next();
      if (!chunk) {
        ended = true;
        break;
      }
      head.push(chunk);
      length += chunk.length;
    }
    const detected = await fileTypeFromBuffer(Buffer.concat(head));
    const accepted = detected && ACCEPTED[detected.ext];
    if (!accepted) {
      await chunks.return?.();
      throw new NotAudioError();
    }
    return accepted;
  })();

  let settleFacts: { resolve(f: AudioFacts): void; reject(e: unknown): void };
  const facts = new Promise<AudioFacts>((resolve, reject) => (settleFacts = { resolve, reject }));

  async function* flow(): AsyncGenerator<Buffer> {
    const accepted = await type;
    const inspector = inspection(accepted);
    try {
      for (const chunk of head) {
        await inspector.feed(chunk);
        yield chunk;
      }
      for (let chunk = ended ? null : await next(); chunk; chunk = await next()) {
        await inspector.feed(chunk);
        yield chunk;
      }
      settleFacts.resolve(verdict(accepted, await inspector.end())); // body ends only after this line: a refusal fails it instead
    } finally {
      inspector.stop();
    }
  }

  const body = Readable.from(flow(), { objectMode: false });
  body.on("error", (error) => settleFacts.reject(error));
  type.catch((error) => settleFacts.reject(error));
  facts.catch(() => {}); // a caller that awaits type alone still sees the refusal there
  return { type, body, facts };
}

/**
 * The same check of a whole file at rest (a staged tus upload, which the store then takes as it is):
 * its first bytes name the format, then the parser reads what it needs where it lies, as it reads
 * any file (random access: a WAV's samples are never read, a constant-bitrate MP3's length comes
 * from its first frames), through one window reused.
 */
export async function checkAudioFile(file: string, options: { maxBytes: number }): Promise<AudioFacts> {
  const handle = await fsp.open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size > options.maxBytes) throw new TooLargeError(options.maxBytes);
    const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    const detected = await fileTypeFromBuffer(head);
    const accepted = detected && ACCEPTED[detected.ext];
    if (!accepted) throw new NotAudioError();
    let meta: IAudioMetadata;
    try {
      meta = await parseFromTokenizer(new FileWindowTokenizer(handle, { size, mimeType: accepted.mime }), PARSE_OPTIONS);
    } catch (cause) {
      throw new NotAudioError({ cause });
    }
    return verdict(accepted, meta);
  } finally {
    await handle.close();
  }
}
