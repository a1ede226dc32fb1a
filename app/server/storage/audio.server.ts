// The content check of an uploaded tape: its first bytes name the format (file-type), and the
// whole stream is parsed as it flows to storage (music-metadata), which also gives the duration.
// Nothing is buffered beyond the first few kilobytes; the body the store reads ends only once the
// verdict is in, so a refused or oversized upload never completes a put (nothing is kept).
import { fileTypeFromBuffer } from "file-type";
import { parseStream, type IAudioMetadata } from "music-metadata";
import { once } from "node:events";
import { PassThrough, Readable } from "node:stream";

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
    const inspector = new PassThrough();
    let parsed = false;
    const parsing = parseStream(inspector, { mimeType: accepted.mime }, { duration: true, skipCovers: true }).finally(() => {
      parsed = true;
    });
    parsing.catch(() => {}); // awaited below; the parser may give up before the stream ends
    const feed = async (chunk: Buffer) => {
      if (parsed || inspector.write(chunk)) return;
      await Promise.race([once(inspector, "drain"), parsing.catch(() => {})]);
    };
    try {
      for (const chunk of head) {
        await feed(chunk);
        yield chunk;
      }
      for (let chunk = ended ? null : await next(); chunk; chunk = await next()) {
        await feed(chunk);
        yield chunk;
      }
      inspector.end();
      let meta: IAudioMetadata;
      try {
        meta = await parsing;
      } catch (cause) {
        throw new NotAudioError({ cause });
      }
      settleFacts.resolve(verdict(accepted, meta)); // body ends only after this line: a refusal fails it instead
    } finally {
      inspector.destroy();
    }
  }

  const body = Readable.from(flow(), { objectMode: false });
  body.on("error", (error) => settleFacts.reject(error));
  type.catch((error) => settleFacts.reject(error));
  facts.catch(() => {}); // a caller that awaits type alone still sees the refusal there
  return { type, body, facts };
}
