// The mixers' changes to the catalogue, from its forms: a plain multipart form without JavaScript (its
// files checked and stored as they stream in), or the same fields urlencoded with it (the files were
// uploaded before, one at a time, and the form names them). Nothing is written unless all of it is
// right; a refused save keeps what was typed and the files already stored; a body that failed keeps
// nothing.
import type { Readable } from "node:stream";
import type { RouterContextProvider } from "react-router";
import { CATALOGUE_COPY, WORDS_COPY } from "~/domain/copy-catalogue";
import { COPY } from "~/domain/copy";
import { readDesignName, readShopWords, readSongTitle, readVersion } from "~/domain/catalogue-forms";
import type { ShopWords } from "~/domain/shop-words";
import type { BackendError, BackendRequest, CatalogueOutcome } from "../backend/port.server";
import { requestContext } from "../context.server";
import { rootOf } from "../root.server";
import { getLog } from "../platform/log.server";
import { readMultipartForm } from "../platform/multipart.server";
import { bodyErrorIn, isMultipart } from "../platform/upload.server";
import { forgetMedia, isMediaUrl, storeMedia, type MediaKind, type StoredMedia } from "./catalogue-media.server";

export type CatalogueForm = { fields: Map<string, string>; uploads: Map<string, StoredMedia> };
export type FormRead = { ok: true; form: CatalogueForm } | { ok: false; status: number; message: string };

/**
 * The form's fields and its files (each stored, or refused with its reason). Call it once the sender is
 * known to be a mixer and the form's target to exist: a multipart form then takes an upload's time.
 */
export async function readCatalogueForm(
  context: Readonly<RouterContextProvider>,
  request: Request,
  files: Record<string, MediaKind>,
): Promise<FormRead> {
  if (isMultipart(request)) {
    context.get(requestContext).allowUploadBody?.();
    const stored: string[] = [];
    const handlers = Object.fromEntries(
      Object.entries(files).map(([field, kind]) => [
        field,
        async ({ body }: { body: Readable }) => {
          const answer = await storeMedia(rootOf(context).storage, kind, body);
          if (answer.ok) stored.push(answer.url);
          return answer;
        },
      ]),
    );
    try {
      const form = await readMultipartForm(request, handlers);
      return { ok: true, form: { fields: form.fields, uploads: form.files } };
    } catch (error) {
      const failed = bodyErrorIn(error);
      if (!failed) throw error;
      // No page will name the files stored before the body failed: they go.
      await Promise.all(stored.map((url) => forgetMedia(rootOf(context).storage, url)));
      getLog().info({ why: failed.message, removed: stored.length }, "catalogue: form body failed");
      const message = failed.kind === "cut-off" ? CATALOGUE_COPY.uploadFailed : CATALOGUE_COPY.unreadable;
      return { ok: false, status: 400, message };
    }
  }
  try {
    const data = await request.formData();
    const fields = new Map<string, string>();
    for (const [key, value] of data) if (typeof value === "string" && !fields.has(key)) fields.set(key, value);
    return { ok: true, form: { fields, uploads: new Map() } };
  } catch {
    return { ok: false, status: 400, message: COPY.errors.badRequest };
  }
}

export type EditAnswer =
  | { ok: true; message: string; to: string }
  | { ok: false; status: number; errors: Record<string, string>; kept: Record<string, string> };

type Picked = { url: string | null; colour: string | null; error: string | null; status: number };

/** The file a form names: a new upload (or its refusal), else one stored before (its hidden field), else none. */
function pickFile(form: CatalogueForm, fileField: string, urlField: string, kind: MediaKind): Picked {
  const upload = form.uploads.get(fileField);
  if (upload && !upload.ok) return { url: null, colour: null, error: upload.message, status: upload.status };
  if (upload?.ok) return { url: upload.url, colour: upload.colour, error: null, status: 200 };
  const named = form.fields.get(urlField) ?? "";
  if (named && isMediaUrl(kind, named)) {
    const colour = form.fields.get("colour") ?? "";
    return { url: named, colour: /^#[0-9a-f]{6}$/.test(colour) ? colour : null, error: null, status: 200 };
  }
  return { url: null, colour: null, error: named ? COPY.errors.badRequest : null, status: 400 };
}

const refused = (status: number, errors: Record<string, string>, kept: Record<string, string>): EditAnswer => ({
  ok: false,
  status,
  errors,
  kept,
});

/** A change the database did not take: why, in the mixer's words. */
function notTaken(outcome: CatalogueOutcome | null, error: BackendError | null, kept: Record<string, string>): EditAnswer {
  if (outcome === "changed") return refused(409, { form: CATALOGUE_COPY.changedMeanwhile }, kept);
  if (outcome === "last") return refused(409, { form: CATALOGUE_COPY.lastSong }, kept);
  if (outcome === "missing") return refused(404, { form: CATALOGUE_COPY.notFound }, kept);
  getLog().error({ code: error?.code, err: error?.message }, "catalogue: change not saved");
  return refused(error?.code === "23514" ? 400 : 503, { form: CATALOGUE_COPY.notSaved }, kept);
}

/** Save (id) or add (null) a song from its form. */
export async function saveSongForm(api: BackendRequest, id: string | null, form: CatalogueForm): Promise<EditAnswer> {
  const title = readSongTitle(form.fields.get("title"));
  const preview = pickFile(form, "previewFile", "preview", "preview");
  const thumbnail = pickFile(form, "thumbnailFile", "thumbnail", "thumbnail");
  const kept = { title: form.fields.get("title") ?? "", preview: preview.url ?? "", thumbnail: thumbnail.url ?? "" };
  const errors: Record<string, string> = {};
  if (!title.ok) errors.title = title.error;
  if (preview.error) errors.preview = preview.error;
  else if (id === null && !preview.url) errors.preview = CATALOGUE_COPY.previewRequired;
  if (thumbnail.error) errors.thumbnail = thumbnail.error;
  else if (id === null && !thumbnail.url) errors.thumbnail = CATALOGUE_COPY.thumbnailRequired;
  if (!title.ok || Object.keys(errors).length)
    return refused(Math.max(preview.error ? preview.status : 400, thumbnail.error ? thumbnail.status : 400), errors, kept);
  if (id === null) {
    const added = await api.addSong({ title: title.value, thumbnail: thumbnail.url!, previewUrl: preview.url! });
    if (!added.id) return notTaken(null, added.error, kept);
    return { ok: true, message: CATALOGUE_COPY.songAdded(title.value), to: `/mixer/catalogue#song-${added.id}` };
  }
  const version = readVersion(form.fields.get("version"));
  if (version === null) return refused(400, { form: COPY.errors.badRequest }, kept);
  const { outcome, error } = await api.saveSong({
    id,
    version,
    title: title.value,
    thumbnail: thumbnail.url,
    previewUrl: preview.url,
  });
  if (outcome !== "saved") return notTaken(outcome, error, kept);
  return { ok: true, message: CATALOGUE_COPY.saved, to: `/mixer/catalogue#song-${id}` };
}

/** Save (id) or add (null) a design from its form. */
export async function saveDesignForm(api: BackendRequest, id: string | null, form: CatalogueForm): Promise<EditAnswer> {
  const name = readDesignName(form.fields.get("name"));
  const image = pickFile(form, "imageFile", "image", "design");
  const kept = { name: form.fields.get("name") ?? "", image: image.url ?? "", colour: image.colour ?? "" };
  const errors: Record<string, string> = {};
  if (!name.ok) errors.name = name.error;
  if (image.error) errors.image = image.error;
  else if (id === null && !image.url) errors.image = CATALOGUE_COPY.imageRequired;
  if (!name.ok || Object.keys(errors).length) return refused(image.error ? image.status : 400, errors, kept);
  if (id === null) {
    const added = await api.addDesign({ name: name.value, image: image.url!, colour: image.colour ?? "#b9b2c7" });
    if (!added.id) return notTaken(null, added.error, kept);
    return { ok: true, message: CATALOGUE_COPY.designAdded(name.value), to: `/mixer/catalogue#design-${added.id}` };
  }
  const version = readVersion(form.fields.get("version"));
  if (version === null) return refused(400, { form: COPY.errors.badRequest }, kept);
  const { outcome, error } = await api.saveDesign({ id, version, name: name.value, image: image.url, colour: image.colour });
  if (outcome !== "saved") return notTaken(outcome, error, kept);
  return { ok: true, message: CATALOGUE_COPY.saved, to: `/mixer/catalogue#design-${id}` };
}

/** Replace one of the cover card's three backgrounds. */
export async function saveBackgroundForm(api: BackendRequest, slot: number, form: CatalogueForm): Promise<EditAnswer> {
  const image = pickFile(form, "imageFile", "image", "cover");
  const kept = { image: image.url ?? "" };
  if (image.error || !image.url)
    return refused(image.error ? image.status : 400, { image: image.error ?? CATALOGUE_COPY.imageRequired }, kept);
  const version = readVersion(form.fields.get("version"));
  if (version === null) return refused(400, { form: COPY.errors.badRequest }, kept);
  const { outcome, error } = await api.saveCoverBackground(slot, version, image.url);
  if (outcome !== "saved") return notTaken(outcome, error, kept);
  return { ok: true, message: CATALOGUE_COPY.backgroundSaved(slot + 1), to: `/mixer/catalogue#background-${slot + 1}` };
}

/** Retire or bring back a song or a design (the last song on sale stays). */
export async function setOnSale(
  api: BackendRequest,
  kind: "song" | "design",
  row: { id: string; name: string },
  form: CatalogueForm,
  active: boolean,
): Promise<EditAnswer> {
  const version = readVersion(form.fields.get("version"));
  if (version === null) return refused(400, { form: COPY.errors.badRequest }, {});
  const { outcome, error } =
    kind === "song" ? await api.setSongActive(row.id, version, active) : await api.setDesignActive(row.id, version, active);
  if (outcome !== "saved") return notTaken(outcome, error, {});
  const message =
    kind === "song"
      ? active
        ? CATALOGUE_COPY.songBack(row.name)
        : CATALOGUE_COPY.songRetired(row.name)
      : active
        ? CATALOGUE_COPY.designBack(row.name)
        : CATALOGUE_COPY.designRetired(row.name);
  return { ok: true, message, to: `/mixer/catalogue#${kind}-${row.id}` };
}

export type WordsAnswer =
  | { ok: true; message: string }
  | { ok: false; status: number; errors: Partial<Record<keyof ShopWords | "form", string>>; typed: ShopWords };

export async function saveWordsForm(api: BackendRequest, fields: { get(name: string): unknown }): Promise<WordsAnswer> {
  const read = readShopWords((name) => {
    const value = fields.get(name);
    return typeof value === "string" ? value : null;
  });
  if (!read.ok) return { ok: false, status: 400, errors: read.errors, typed: read.typed };
  const { saved, error } = await api.saveShopWords(read.words);
  if (!saved) {
    getLog().error({ code: error?.code, err: error?.message }, "shop words: not saved");
    return {
      ok: false,
      status: error?.code === "23514" ? 400 : 503,
      errors: { form: CATALOGUE_COPY.notSaved },
      typed: read.words,
    };
  }
  return { ok: true, message: WORDS_COPY.saved };
}

/** Move up (-1) or down (+1) in the storefront's order; false when nothing moved. */
export async function moveInCatalogue(api: BackendRequest, kind: "song" | "design", id: string, by: -1 | 1): Promise<boolean> {
  const { moved, error } = await api.moveInCatalogue(kind, id, by);
  if (error) getLog().error({ code: error.code, err: error.message }, "catalogue: move not saved");
  return moved || !error;
}
