// The catalogue's image check: content decides (never the name), SVG and other formats are refused,
// a 50,000-pixel-wide image is refused before it is decoded, and what is kept is sharp's own WebP.
import { Readable } from "node:stream";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { TooLargeError } from "~/server/storage/audio.server";
import { IMAGE_TOO_LARGE, NOT_IMAGE, readLimited, reencodeImage } from "~/server/storage/image.server";

const picture = (width = 300, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: { r: 255, g: 90, b: 31 } } });

describe("reencodeImage", () => {
  it.each([
    ["JPEG", () => picture().jpeg().toBuffer()],
    ["PNG", () => picture().png().toBuffer()],
    ["WebP", () => picture().webp().toBuffer()],
    ["AVIF", () => picture().avif().toBuffer()],
  ])("takes a %s and gives the shop's WebP at the use's size, in its colour", async (_name, make) => {
    const out = await reencodeImage(await make(), "design");
    const meta = await sharp(out.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 640, 400]);
    expect(out.colour).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("keeps no metadata of the upload (a photo's EXIF, its location)", async () => {
    const tagged = await picture()
      .jpeg()
      .withExif({ IFD0: { Artist: "someone", Copyright: "x" } })
      .toBuffer();
    expect((await sharp(tagged).metadata()).exif).toBeDefined();
    const out = await reencodeImage(tagged, "thumbnail");
    expect((await sharp(out.data).metadata()).exif).toBeUndefined();
  });

  it.each([
    ["an SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>')],
    ["text named .png", Buffer.from("just some text, not a picture")],
    ["nothing", Buffer.alloc(0)],
  ])("refuses %s", async (_name, bytes) => {
    await expect(reencodeImage(bytes, "thumbnail")).rejects.toThrow(NOT_IMAGE);
  });

  it("refuses a GIF and a TIFF (not among the formats the shop takes)", async () => {
    await expect(reencodeImage(await picture().gif().toBuffer(), "thumbnail")).rejects.toThrow(NOT_IMAGE);
    await expect(reencodeImage(await picture().tiff().toBuffer(), "thumbnail")).rejects.toThrow(NOT_IMAGE);
  });

  it("refuses a 50,000-pixel-wide image with a message, before decoding it", async () => {
    const wide = await picture(50_000, 2).png().toBuffer();
    await expect(reencodeImage(wide, "cover")).rejects.toThrow(IMAGE_TOO_LARGE);
  });
});

describe("readLimited", () => {
  it("reads an upload whole up to the limit and stops past it", async () => {
    expect((await readLimited(Readable.from([Buffer.alloc(10), Buffer.alloc(5)]), 15)).length).toBe(15);
    await expect(readLimited(Readable.from([Buffer.alloc(10), Buffer.alloc(6)]), 15)).rejects.toBeInstanceOf(TooLargeError);
  });
});
