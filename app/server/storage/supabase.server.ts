// Supabase Storage: a private bucket (drops), reached with the service role key through
// supabase-js's storage client, server-side only; shoppers get signed URLs. A put is one
// upsert request: Supabase stores a new version of the object and switches to it when the
// request completes, so the old one stays readable until then and a failed request leaves it.
// There are no partial uploads of ours to sweep (Supabase's own resumable uploads expire after a day).
import { createClient } from "@supabase/supabase-js";
import { Readable } from "node:stream";
import {
  contentTypeOf,
  putFileByStream,
  signedSeconds,
  StorageError,
  withLength,
  type ByteRange,
  type Storage,
  type StoredObject,
} from "./port.server";

export type SupabaseStorageOptions = { url: string; serviceKey: string; bucket?: string };

type ApiError = Error & { status?: number; statusCode?: string; code?: string };
const isNotFound = (e: ApiError) => e.status === 404 || e.statusCode === "404" || e.code === "NoSuchKey";
/** supabase-js reports an unreachable project as StorageUnknownError, without a status. */
const failed = (error: ApiError, what: string) =>
  error.status === undefined
    ? new StorageError("unavailable", `Supabase Storage did not answer (${what})`, { cause: error })
    : Object.assign(new Error(`Supabase Storage refused to ${what}: ${error.message}`), { cause: error });

const quoted = (etag: string) => (etag.startsWith('"') || etag.startsWith("W/") ? etag : `"${etag}"`);

/** The info endpoint's answer (FileObjectV2, camelCased by supabase-js). */
type Info = { size?: number; etag?: string; lastModified?: string; createdAt?: string };

export function createSupabaseStorage(options: SupabaseStorageOptions): Storage {
  const bucket = options.bucket ?? "drops";
  const client = createClient(options.url, options.serviceKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const files = () => client.storage.from(bucket);

  async function stat(key: string): Promise<StoredObject | null> {
    const contentType = contentTypeOf(key);
    const { data, error } = await files().info(key);
    if (error) {
      if (isNotFound(error as ApiError)) return null;
      throw failed(error as ApiError, "stat");
    }
    const info = data as Info;
    return {
      key,
      size: info.size ?? 0,
      etag: quoted(info.etag ?? ""),
      contentType,
      modified: new Date(info.lastModified ?? info.createdAt ?? 0),
    };
  }

  return {
    kind: "supabase",

    async put(key, body, putOptions = {}) {
      const contentType = contentTypeOf(key);
      const counted = withLength(body, putOptions.size);
      let bodyError: unknown;
      counted.once("error", (error) => (bodyError ??= error));
      const stream = Readable.toWeb(counted) as ReadableStream<Uint8Array>;
      const { error } = await files().upload(key, stream, { contentType, upsert: true });
      // The body's own failure (too long, too short, aborted) is the reason, not how fetch reported it.
      if (error) throw bodyError ?? failed(error as ApiError, "store the object");
      return (await stat(key))!;
    },

    putFile(key, file, putOptions) {
      return putFileByStream(this.put, key, file, putOptions);
    },

    stat,

    async read(key, range?: ByteRange) {
      contentTypeOf(key);
      if (range && (range.start < 0 || range.start > range.end))
        throw new StorageError("range", `bytes ${range.start}-${range.end} are not a range`);
      // Through a signed URL of a minute: its answer carries the ETag and Content-Range of the version it serves.
      const { data, error } = await files().createSignedUrl(key, 60);
      if (error || !data) {
        if (error && isNotFound(error as ApiError)) throw new StorageError("not_found", `no object at ${key}`);
        throw failed((error ?? new Error("no URL")) as ApiError, "read");
      }
      let answer: Response;
      try {
        answer = await fetch(data.signedUrl, { headers: range ? { Range: `bytes=${range.start}-${range.end}` } : {} });
      } catch (cause) {
        throw new StorageError("unavailable", "Supabase Storage did not answer (read)", { cause });
      }
      if (answer.status === 416) throw new StorageError("range", `bytes ${range?.start}-${range?.end} are not within ${key}`);
      if (answer.status === 404 || answer.status === 400) throw new StorageError("not_found", `no object at ${key}`);
      if (!answer.ok || !answer.body) throw new Error(`Supabase Storage answered ${answer.status} to a read of ${key}`);
      const length = Number(answer.headers.get("content-length") ?? 0);
      const total = Number(answer.headers.get("content-range")?.split("/")[1]);
      const object: StoredObject = {
        key,
        size: Number.isFinite(total) ? total : length,
        etag: quoted(answer.headers.get("etag") ?? ""),
        contentType: contentTypeOf(key),
        modified: new Date(answer.headers.get("last-modified") ?? 0),
      };
      return { object, body: answer.body };
    },

    async delete(key) {
      contentTypeOf(key);
      // remove() answers with what it deleted: nothing, when it was not there.
      const { error } = await files().remove([key]);
      if (error) throw failed(error as ApiError, "delete");
    },

    async signDownload(key, download) {
      contentTypeOf(key);
      // supabase-js encodes the download name twice (URLSearchParams, then encodeURI): only ASCII survives it.
      const filename = download.filename
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .replace(/[^\x20-\x7e]/g, "_");
      const { data, error } = await files().createSignedUrl(key, signedSeconds(download.expiresInSeconds), {
        download: filename,
      });
      if (error || !data) throw failed((error ?? new Error("no URL")) as ApiError, "sign a download");
      return data.signedUrl;
    },

    async partials() {
      return [];
    },

    async dropPartial() {},

    async health() {
      const { data, error } = await client.storage.getBucket(bucket);
      if (error || !data)
        return { ok: false, problem: `the bucket ${bucket} does not answer (${error?.message ?? "no bucket"})` };
      // A public bucket would serve every tape to anyone with its URL.
      if (data.public) return { ok: false, problem: `the bucket ${bucket} is public; drops need a private bucket` };
      return { ok: true };
    },

    async close() {},
  };
}
