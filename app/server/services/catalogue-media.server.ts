// The catalogue's files (previews, thumbnails, designs, cover backgrounds): checked by content while
// they stream in, stored through the Storage port under a new key each time (so a changed file has a
// new URL and the old one, which orders may name, stays), and served to anyone, signed out too, with
// ranges and a year's immutable caching (decisions/024-the-shop-is-the-djs.md).
import crypto from "node:crypto";
import { Readable } from "node:stream";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";
import { getLog, reason } from "../platform/log.server";
import { bodyErrorIn } from "../platform/upload.server";
import { checkAudio, NotAudioError, TooLargeError } from "../storage/audio.server";
import { serveObject } from "../storage/download.server";
import { IMAGE_MAX_BYTES, NotImageError, readLimited, reencodeImage, type ImageUse } from "../storage/image.server";
import type { Storage } from "../storage/port.server";

export type MediaKind = "preview" | ImageUse;
export const MEDIA_KINDS: readonly MediaKind[] = ["preview", "thumbnail", "design", "cover"];
const FOLDER: Record<MediaKind, string> = { preview: "previews", thumbnail: "thumbs", design: "designs", cover: "covers" };

/** A preview is a short clip: 20 MB is minutes of it. */
export const PREVIEW_MAX_BYTES = 20 * 1024 * 1024;
/** What one form may carry: a preview and an image, and the form's own envelope. */
export const CATALOGUE_FORM_MAX_BYTES = PREVIEW_MAX_BYTES + IMAGE_MAX_BYTES + 64 * 1024;

const AUDIO_EXT = "mp3|m4a|ogg|opus|flac|wav";
/** The path of a stored catalogue file, and the key it names (only these are ever served). */
const MEDIA_PATH = new RegExp(
  `^/media/(catalogue/(previews|thumbs|designs|covers)/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.(${AUDIO_EXT}|webp))$`,
);

/** The key of a catalogue file's URL; null for anything else (a tape's key never matches). */
export function mediaKey(pathname: string): string | null {
  return MEDIA_PATH.exec(pathname)?.[1] ?? null;
}

/** A URL this server stored for that kind (a form's hidden field names one it uploaded before). */
export function isMediaUrl(kind: MediaKind, url: string): boolean {
  const match = MEDIA_PATH.exec(url);
  return !!match && match[2] === FOLDER[kind] && (kind === "preview") === (match[3] !== "webp");
}

export type StoredMedia = { ok: true; url: string; colour: string | null } | { ok: false; status: number; message: string };

/** Checks and stores one upload; a refused file keeps nothing. The caller reads no more of body after a refusal. */
export async function storeMedia(storage: Storage, kind: MediaKind, body: Readable): Promise<StoredMedia> {
  let key: string | null = null;
  try {
    if (kind === "preview") {
      const checked = checkAudio(body, { maxBytes: PREVIEW_MAX_BYTES });
      const type = await checked.type;
      key = `catalogue/${FOLDER[kind]}/${crypto.randomUUID()}.${type.ext}`;
      await Promise.all([storage.put(key, checked.body), checked.facts]);
      return { ok: true, url: `/media/${key}`, colour: null };
    }
    const image = await reencodeImage(await readLimited(body, IMAGE_MAX_BYTES), kind);
    key = `catalogue/${FOLDER[kind]}/${crypto.randomUUID()}.webp`;
    await storage.put(key, Readable.from([image.data]), { size: image.data.length });
    return { ok: true, url: `/media/${key}`, colour: image.colour };
  } catch (error) {
    if (key) await storage.delete(key).catch(() => {});
    // The form's body failed (cut off, unreadable): the form fails with it, and says so (readCatalogueForm).
    const failed = bodyErrorIn(error);
    if (failed) {
      getLog().info({ kind, why: failed.message }, "catalogue: upload body failed");
      return {
        ok: false,
        status: 400,
        message: failed.kind === "cut-off" ? CATALOGUE_COPY.uploadFailed : CATALOGUE_COPY.unreadable,
      };
    }
    if (error instanceof NotAudioError || error instanceof NotImageError)
      return { ok: false, status: 415, message: error.message };
    if (error instanceof TooLargeError)
      return {
        ok: false,
        status: 413,
        message:
          kind === "preview" ? CATALOGUE_COPY.previewTooLarge(PREVIEW_MAX_BYTES) : CATALOGUE_COPY.imageTooLarge(IMAGE_MAX_BYTES),
      };
    getLog().error({ kind, err: reason(error) }, "catalogue: file not stored");
    return { ok: false, status: 503, message: CATALOGUE_COPY.storeDown };
  }
}

/** Removes a file this server stored (a form that failed after storing it: nothing names it). */
export async function forgetMedia(storage: Storage, url: string): Promise<void> {
  const key = mediaKey(url);
  if (!key) return;
  try {
    await storage.delete(key);
  } catch (error) {
    getLog().warn({ key, err: reason(error) }, "catalogue: a file of a failed form not removed");
  }
}

/** Public and never changed in place (a new file gets a new key): any cache may keep it for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** GET or HEAD /media/catalogue/…: 200, 206 or 416; null when there is no such file (404). */
export async function serveMedia(storage: Storage, request: Request): Promise<Response | null> {
  const key = mediaKey(new URL(request.url).pathname);
  if (!key) return null;
  return serveObject(storage, key, request, { cacheControl: IMMUTABLE });
}
