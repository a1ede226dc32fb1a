// S3-compatible storage (AWS S3, R2, MinIO, B2 …) for many app processes on one bucket. A put
// goes straight to its key: a single PutObject, or lib-storage's multipart Upload, becomes
// visible only when it completes (CompleteMultipartUpload is atomic), and a failed body aborts
// the multipart upload, so the old object stays readable. What a crash leaves behind is an
// incomplete multipart upload: partials() lists them and dropPartial() aborts them.
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  attachment,
  contentTypeOf,
  putFileByStream,
  signedSeconds,
  StorageError,
  withLength,
  type PartialUpload,
  type Storage,
  type StoredObject,
} from "./port.server";

export type S3Options = {
  bucket: string;
  /** Unset: AWS itself; R2, MinIO, B2 … give theirs. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's own chain (environment, instance role …). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** MinIO and most self-hosted stores need path-style URLs (http://host/bucket/key). */
  forcePathStyle: boolean;
  /** 5 MiB is S3's smallest part; lib-storage holds queueSize parts in memory per upload. */
  partSize?: number;
  /** A client made by s3Client(options), for tests that look at the commands sent. */
  client?: S3Client;
};

/** The SDK client of these options (the adapter's own, unless handed one). */
export const s3Client = (options: S3Options) =>
  new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
  });

type AwsError = Error & { $metadata?: { httpStatusCode?: number }; Code?: string };
const status = (error: unknown) => (error as AwsError).$metadata?.httpStatusCode;
const isNotFound = (error: unknown) =>
  status(error) === 404 || ["NotFound", "NoSuchKey"].includes((error as AwsError).name ?? "");
/** A network error has no HTTP status: the store did not answer. */
const mapped = (error: unknown, what: string) =>
  status(error) === undefined && !(error instanceof StorageError)
    ? new StorageError("unavailable", `the S3 store did not answer (${what})`, { cause: error })
    : error;

/** S3's Content-Range "bytes 0-99/1234" → 1234. */
const totalOf = (contentRange: string | undefined, fallback: number) => {
  const total = Number(contentRange?.split("/")[1]);
  return Number.isFinite(total) ? total : fallback;
};

/** The partial's id carries its key and upload id, both needed to abort it. */
const partialId = (key: string, uploadId: string) => Buffer.from(JSON.stringify([key, uploadId])).toString("base64url");
function parsePartialId(id: string): [string, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(id, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((p) => typeof p === "string"))
      return parsed as [string, string];
  } catch {
    // refused below
  }
  throw new StorageError("key", `not a partial upload: ${JSON.stringify(id)}`);
}

export function createS3Storage(options: S3Options): Storage {
  const client = options.client ?? s3Client(options);
  const Bucket = options.bucket;

  async function stat(key: string): Promise<StoredObject | null> {
    const ContentType = contentTypeOf(key);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return {
        key,
        size: head.ContentLength ?? 0,
        etag: head.ETag ?? '""',
        contentType: ContentType,
        modified: head.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw mapped(error, "stat");
    }
  }

  return {
    kind: "s3",

    async put(key, body, putOptions = {}) {
      const ContentType = contentTypeOf(key);
      // A file stream's start/end would fool lib-storage's own length guess (its part count check fails):
      // it sees our counting stream, and the length when the caller knows it.
      const Body = withLength(body, putOptions.size);
      let bodyError: unknown;
      Body.once("error", (error) => (bodyError ??= error));
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body, ContentType, ContentLength: putOptions.size },
        partSize: options.partSize ?? 5 * 1024 * 1024,
        queueSize: 2,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        throw bodyError ?? mapped(error, "put"); // the body's own failure is the reason
      }
      return (await stat(key))!;
    },

    putFile(key, file, putOptions) {
      return putFileByStream(this.put, key, file, putOptions);
    },

    stat,

    async read(key, range) {
      const ContentType = contentTypeOf(key);
      if (range && (range.start < 0 || range.start > range.end))
        throw new StorageError("range", `bytes ${range.start}-${range.end} are not a range`);
      try {
        const got = await client.send(
          new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        const object: StoredObject = {
          key,
          size: totalOf(got.ContentRange, got.ContentLength ?? 0),
          etag: got.ETag ?? '""',
          contentType: ContentType,
          modified: got.LastModified ?? new Date(0),
        };
        return { object, body: got.Body!.transformToWebStream() };
      } catch (error) {
        if (isNotFound(error)) throw new StorageError("not_found", `no object at ${key}`);
        if (status(error) === 416) throw new StorageError("range", `bytes ${range?.start}-${range?.end} are not within ${key}`);
        throw mapped(error, "read");
      }
    },

    async delete(key) {
      contentTypeOf(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (error) {
        if (!isNotFound(error)) throw mapped(error, "delete");
      }
    },

    async signDownload(key, download) {
      const command = new GetObjectCommand({
        Bucket,
        Key: key,
        ResponseContentDisposition: attachment(download.filename),
        ResponseContentType: contentTypeOf(key),
      });
      return getSignedUrl(client, command, { expiresIn: signedSeconds(download.expiresInSeconds) });
    },

    async partials(olderThan) {
      const found: PartialUpload[] = [];
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      try {
        do {
          const page = await client.send(new ListMultipartUploadsCommand({ Bucket, KeyMarker, UploadIdMarker }));
          for (const u of page.Uploads ?? [])
            if (u.Key && u.UploadId && u.Initiated && u.Initiated < olderThan)
              found.push({ id: partialId(u.Key, u.UploadId), key: u.Key, since: u.Initiated });
          ({ NextKeyMarker: KeyMarker, NextUploadIdMarker: UploadIdMarker } = page.IsTruncated ? page : {});
        } while (KeyMarker);
      } catch (error) {
        throw mapped(error, "list partial uploads");
      }
      return found;
    },

    async dropPartial(id) {
      const [Key, UploadId] = parsePartialId(id);
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }));
      } catch (error) {
        if (!isNotFound(error)) throw mapped(error, "abort a partial upload");
      }
    },

    async health() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
        return { ok: true };
      } catch (error) {
        return { ok: false, problem: `the bucket ${Bucket} does not answer (${status(error) ?? (error as Error).name})` };
      }
    },

    async close() {
      if (!options.client) client.destroy();
    },
  };
}
