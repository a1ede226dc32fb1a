// The catalogue's side of tests/system/faults.test.ts: its plain forms and its one upload with
// JavaScript, each multipart with real files (the audio fixture, and pictures of random pixels made
// by sharp), and how its one form without a page refuses (303 back to the catalogue, a toast).
import sharp from "sharp";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";
import { catalogueFormEndpoint, type Endpoint } from "./bodies";
import type { Answer } from "./wire";

/** A picture of random pixels (PNG keeps them all, so it is as large as it is wide and high). */
const noise = (side: number) =>
  sharp(Buffer.from(Array.from({ length: side * side * 3 }, () => Math.floor(Math.random() * 256))), {
    raw: { width: side, height: side, channels: 3 },
  })
    .png()
    .toBuffer();

export type Pictures = { small: Buffer; large: Buffer };
export const makePictures = async (): Promise<Pictures> => ({ small: await noise(40), large: await noise(200) });

/** Cut in half, a form is cut in its last file (the ones before it stored whole) or in its only one (mid-stream to the store). */
export function catalogueForms(origin: string, audio: Buffer, pictures: Pictures): Endpoint[] {
  const unreadable = CATALOGUE_COPY.unreadable;
  const wav = { file: audio, fileName: "clip.wav", type: "audio/wav" };
  const png = (file: Buffer) => ({ file, fileName: "picture.png", type: "image/png" });
  const title = { name: "title", value: "Fault Line" };
  return [
    catalogueFormEndpoint(
      "/mixer/catalogue/new",
      origin,
      [title, { name: "previewFile", ...wav }, { name: "thumbnailFile", ...png(pictures.large) }],
      unreadable,
    ),
    catalogueFormEndpoint(
      "/mixer/catalogue/1",
      origin,
      [
        { name: "version", value: "1" },
        title,
        { name: "thumbnailFile", ...png(pictures.small) },
        { name: "previewFile", ...wav },
      ],
      unreadable,
    ),
    catalogueFormEndpoint(
      "/mixer/catalogue/designs/new",
      origin,
      [
        { name: "name", value: "Fault" },
        { name: "imageFile", ...png(pictures.large) },
      ],
      unreadable,
    ),
    catalogueFormEndpoint("/mixer/catalogue/backgrounds/1", origin, [
      { name: "version", value: "1" },
      { name: "imageFile", ...png(pictures.large) },
    ]),
    catalogueFormEndpoint("/mixer/catalogue/media?kind=preview", origin, [{ name: "file", ...wav }], unreadable),
    catalogueFormEndpoint(
      "/mixer/catalogue/media?kind=thumbnail",
      origin,
      [{ name: "file", ...png(pictures.large) }],
      unreadable,
    ),
  ];
}

/** The background's form posts to a resource route without a page: it refuses as the catalogue with an error toast (303). */
export const refusedToCatalogue = (endpoint: Endpoint, answer: Answer) =>
  endpoint.name.startsWith("POST /mixer/catalogue/backgrounds/") &&
  answer.status === 303 &&
  /\r\nlocation: \/mixer\/catalogue#background-\d\r\n/i.test(answer.text);
