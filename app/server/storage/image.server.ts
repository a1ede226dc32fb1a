// The content check of an uploaded image (a song's thumbnail, a design, a cover background): sharp
// reads it by its content (never its name), refuses what is not JPEG, PNG, WebP or AVIF (SVG above
// all: it is a document that can carry script) and anything larger than MAX_SIDE on a side before
// decoding a pixel, then re-encodes it to a WebP of the size the shop shows. What is stored is
// always sharp's own output, never the uploaded bytes.
import type { Readable } from "node:stream";
import sharp, { type Metadata } from "sharp";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";
import { TooLargeError } from "./audio.server";

export const NOT_IMAGE = CATALOGUE_COPY.notImage;
/** Wider or taller than this is refused: a poster, or a decompression bomb. */
export const MAX_SIDE = 8000;
export const IMAGE_TOO_LARGE = CATALOGUE_COPY.imageTooWide(MAX_SIDE);
/** What an upload may weigh before it is decoded. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** sharp's own guard (limitInputPixels): nothing it decodes has more pixels than this. */
const MAX_PIXELS = 40_000_000;

export class NotImageError extends Error {
  constructor(message: string = NOT_IMAGE, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "NotImageError";
  }
}

/** Each use's size on the page (twice for dense screens), cropped to fill. */
export const IMAGE_SIZES = {
  thumbnail: { width: 256, height: 256 },
  design: { width: 640, height: 400 },
  cover: { width: 800, height: 500 },
} as const;
export type ImageUse = keyof typeof IMAGE_SIZES;

/** Formats sharp names by content; AVIF is HEIF with the AV1 codec (a HEIC photo is refused). */
function accepted(meta: Metadata): boolean {
  if (meta.format === "jpeg" || meta.format === "png" || meta.format === "webp") return true;
  return meta.format === "heif" && meta.compression === "av1";
}

/** The upload whole (images are small), refusing at maxBytes + 1. */
export async function readLimited(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let seen = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    seen += buffer.length;
    if (seen > maxBytes) {
      body.destroy();
      throw new TooLargeError(maxBytes);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export type Reencoded = {
  data: Buffer;
  width: number;
  height: number;
  /** The image's dominant colour, #rrggbb. */ colour: string;
};

/** Checks the bytes as an image and makes the shop's WebP of it; NotImageError (with the reason) otherwise. */
export async function reencodeImage(input: Buffer, use: ImageUse): Promise<Reencoded> {
  const options = { limitInputPixels: MAX_PIXELS, failOn: "error" as const };
  let meta: Metadata;
  try {
    meta = await sharp(input, options).metadata();
  } catch (cause) {
    throw new NotImageError(NOT_IMAGE, { cause });
  }
  if (!accepted(meta)) throw new NotImageError();
  if (!meta.width || !meta.height) throw new NotImageError();
  if (meta.width > MAX_SIDE || meta.height > MAX_SIDE) throw new NotImageError(IMAGE_TOO_LARGE);
  const { width, height } = IMAGE_SIZES[use];
  try {
    // rotate(): the camera's orientation applied; the output carries no metadata (no location, no EXIF).
    const pipeline = sharp(input, { ...options, animated: false })
      .rotate()
      .resize(width, height, { fit: "cover" });
    const [data, stats] = await Promise.all([pipeline.clone().webp({ quality: 82 }).toBuffer(), pipeline.clone().stats()]);
    const { r, g, b } = stats.dominant;
    const colour = `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
    return { data, width, height, colour };
  } catch (cause) {
    if (cause instanceof Error && /pixel limit/i.test(cause.message)) throw new NotImageError(IMAGE_TOO_LARGE, { cause });
    throw new NotImageError(NOT_IMAGE, { cause });
  }
}
