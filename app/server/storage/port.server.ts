// The Storage port: where a drop's finished tape lives (docs/decisions/012-tape-storage.md).
// The disk, S3 and Supabase adapters implement it; tests/contract/storage.contract.test.ts
// holds all three to it.
import fs from "node:fs";
import { Transform, type Readable } from "node:stream";
import type { StorageKind } from "../platform/config.server";

export type StoredObject = {
  key: string;
  size: number;
  /** Quoted, as HTTP sends it; a new one for every put, so a replaced tape never matches an old If-Range. */
  etag: string;
  /** Always the type of the key's extension (see contentTypeOf): the store never guesses. */
  contentType: string;
  modified: Date;
};

/** Inclusive offsets, as HTTP ranges count them; end may pass the last byte (it is clamped). */
export type ByteRange = { start: number; end: number };

/** An upload that was started and never finished (a crashed process, a dropped connection); since: its last write where the store knows it, else its start. */
export type PartialUpload = { id: string; key: string | null; since: Date };

export type StorageHealth = { ok: true } | { ok: false; problem: string };

export interface Storage {
  readonly kind: StorageKind;
  /**
   * Streams body to key and resolves once it is stored whole. Until then readers get the old
   * object (or none), and a failed put (the body errors, the size differs) leaves it as it was.
   * size, when known, is checked: a body of another length fails.
   */
  put(key: string, body: Readable, options?: { size?: number }): Promise<StoredObject>;
  /**
   * Stores the whole file at path as key, as put does (the same checks, the same atomic replace). The
   * file stays the caller's: the disk store links it in (no byte copied), the others stream it.
   */
  putFile(key: string, file: string, options?: { size?: number }): Promise<StoredObject>;
  /** null when there is no such object. */
  stat(key: string): Promise<StoredObject | null>;
  /**
   * The object (or one range of it) and the metadata of the very version read; "not_found", "range"
   * errors. The body is the Web stream a Response carries, so a route answers with it as it is.
   */
  read(key: string, range?: ByteRange): Promise<{ object: StoredObject; body: ReadableStream<Uint8Array> }>;
  /** Deleting what is not there is fine: erasure may run twice. */
  delete(key: string): Promise<void>;
  /**
   * A URL that downloads the object as an attachment for at most 15 minutes; null on disk,
   * where a session-bound route streams it instead (serveObject, download.server.ts).
   */
  signDownload(key: string, download: { filename: string; expiresInSeconds?: number }): Promise<string | null>;
  /** Partial uploads not written to since olderThan: the sweep removes them after PARTIAL_UPLOAD_TTL_MS. */
  partials(olderThan: Date): Promise<PartialUpload[]>;
  /** Idempotent, like delete. */
  dropPartial(id: string): Promise<void>;
  /** Readiness: the directory or bucket answers (for /readyz). */
  health(): Promise<StorageHealth>;
  close(): Promise<void>;
}

export type StorageErrorCode = "not_found" | "range" | "size" | "key" | "unavailable";

/** Every adapter's refusals, by code, so a route maps them to 404, 416, 400 or 503 alike. */
export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "StorageError";
  }
}

/** Abandoned partial uploads are removed after a day: an unfinished upload holds no disk for long. */
export const PARTIAL_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/** A signed URL lives 15 minutes at most: long enough to start a download, short enough to be useless when shared. */
export const MAX_SIGNED_SECONDS = 15 * 60;

/** The served type of each accepted extension; the content check names the extension (audio.server.ts). */
export const TYPE_OF_EXTENSION: Readonly<Record<string, string>> = {
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  flac: "audio/flac",
  wav: "audio/wav",
  // The catalogue's images, re-encoded by image.server.ts (never an uploaded file as it came).
  webp: "image/webp",
};

// Segments start with a letter or digit: no "..", no hidden names (the disk adapter's .partial), no "//".
const KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}(\/[A-Za-z0-9][A-Za-z0-9_.-]{0,127}){0,7}$/;

/** The key's content type; a key without an accepted extension is refused ("key"), in every adapter. */
export function contentTypeOf(key: string): string {
  const type = KEY.test(key) ? TYPE_OF_EXTENSION[key.slice(key.lastIndexOf(".") + 1)] : undefined;
  if (!type || !key.includes(".")) throw new StorageError("key", `not a storage key: ${JSON.stringify(key)}`);
  return type;
}

/** RFC 6266: a quoted ASCII fallback and the UTF-8 name, for the route and for signed URLs alike. */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const utf8 = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** Caps a requested lifetime at MAX_SIGNED_SECONDS (and at least one second). */
export const signedSeconds = (requested = MAX_SIGNED_SECONDS) => Math.max(1, Math.min(MAX_SIGNED_SECONDS, Math.floor(requested)));

/** The body as it flows on, failing ("size") as soon as it passes size or when it ends short of it. */
export function withLength(body: Readable, size: number | undefined): Readable {
  if (size === undefined) return body;
  let seen = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > size ? new StorageError("size", `the body is longer than its declared ${size} bytes`) : null, chunk);
    },
    flush(done) {
      done(seen < size ? new StorageError("size", `the body ended after ${seen} of its declared ${size} bytes`) : null);
    },
  });
  body.on("error", (error) => counted.destroy(error));
  return body.pipe(counted);
}

/** putFile of a store with no cheaper way in: the file read into put, 1 MiB at a time (closed whatever put's outcome). */
export async function putFileByStream(
  put: Storage["put"],
  key: string,
  file: string,
  options?: { size?: number },
): Promise<StoredObject> {
  contentTypeOf(key); // a bad key is refused before the file is opened
  const body = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
  try {
    return await put(key, body, options);
  } finally {
    body.destroy();
  }
}
