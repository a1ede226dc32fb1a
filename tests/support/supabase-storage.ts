// The Storage API (/storage/v1) of the Supabase fake (supabase-fake.ts), in memory: buckets
// and their objects, modelled on what @supabase/storage-js sends and parses.
// - Private buckets only answer the service role: anon (and signed-in users, there being no
//   storage policies in this project) get 403 on writes and 404 on reads, as RLS on
//   storage.objects hides rows; the bucket itself is "not found" to them.
// - Upload: POST (x-upsert: true replaces, otherwise 409 Duplicate) or PUT (replaces; 404 when
//   absent) of /object/{bucket}/{path}, the raw body stored with its Content-Type and
//   Cache-Control. The object is stored only when the request body has fully arrived, as a
//   new version: an aborted request leaves the old one (Supabase switches versions on completion).
//   A body over the bucket's file_size_limit: 413, nothing stored.
// - Download: GET /object/{bucket}/{path} (also /object/authenticated/...), one byte range
//   (206, or 416 with Content-Range: bytes */size), ETag, Last-Modified.
// - Info: GET /object/info/{bucket}/{path} → FileObjectV2 (snake_case, camelCased by storage-js).
// - Remove: DELETE /object/{bucket} with { prefixes } → the removed objects (none: []).
// - List: POST /object/list/{bucket} with { prefix, limit, offset } → files and folders directly
//   under the prefix.
// - Sign: POST /object/sign/{bucket}/{path} with { expiresIn } → { signedURL: "/object/sign/...?token=JWT" };
//   GET of that URL needs no key, checks the token's signature, path and expiry against this
//   fake's clock (advance() moves it), and ?download=name answers with Content-Disposition attachment.
// - Bucket: GET /bucket/{id}.
// Errors are { statusCode, error, message } (and code where Supabase gives one), with the HTTP status.
// Not modelled: storage policies (RLS) other than the service role's, image transforms, tus
// resumable uploads, copy/move, object versions' history.
import crypto from "node:crypto";
import type http from "node:http";
import parseRange from "range-parser";

export type FakeObject = {
  id: string;
  version: string;
  data: Buffer;
  contentType: string;
  cacheControl: string;
  etag: string;
  created: Date;
  updated: Date;
};
export type FakeBucket = { id: string; public: boolean; fileSizeLimit: number | null; objects: Map<string, FakeObject> };
/** Each signed URL issued: its path, and its lifetime as asked. */
export type SignedGrant = { bucket: string; path: string; expiresIn: number; token: string };

export type FakeStorage = {
  buckets: Map<string, FakeBucket>;
  grants: SignedGrant[];
  createBucket(id: string, options?: { public?: boolean; fileSizeLimit?: number | null }): FakeBucket;
  /** Moves this fake's clock (signed URLs' expiry) forward. */
  advance(seconds: number): void;
};

type Role = "anon" | "authenticated" | "service_role" | null;
export type StorageRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  raw: Buffer;
  role: Role;
};

class StorageApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { statusCode: string; error: string; message: string; code?: string },
  ) {
    super(body.message);
  }
}
const notFound = () =>
  new StorageApiError(404, { statusCode: "404", code: "NoSuchKey", error: "not_found", message: "Object not found" });
const bucketNotFound = () =>
  new StorageApiError(404, { statusCode: "404", code: "NoSuchBucket", error: "Bucket not found", message: "Bucket not found" });
const rlsRefusal = () =>
  new StorageApiError(403, {
    statusCode: "403",
    error: "Unauthorized",
    message: "new row violates row-level security policy",
  });

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
};

export function createFakeStorage(keys: {
  sign(payload: object): string;
  verify(token: string): Record<string, unknown> | "invalid" | "expired";
}) {
  const buckets = new Map<string, FakeBucket>();
  const grants: SignedGrant[] = [];
  let offsetSeconds = 0;
  const nowSeconds = () => Math.floor(Date.now() / 1000) + offsetSeconds;

  const storage: FakeStorage = {
    buckets,
    grants,
    createBucket(id, options = {}) {
      const bucket = { id, public: options.public ?? false, fileSizeLimit: options.fileSizeLimit ?? null, objects: new Map() };
      buckets.set(id, bucket);
      return bucket;
    },
    advance(seconds) {
      offsetSeconds += seconds;
    },
  };

  /** "bucket/some/path" → the bucket (visible to this role) and the object's path. */
  const locate = (rest: string, role: Role) => {
    const slash = rest.indexOf("/");
    const bucket = buckets.get(slash < 0 ? rest : rest.slice(0, slash));
    if (!bucket || (!bucket.public && role !== "service_role")) throw bucketNotFound();
    return { bucket, path: slash < 0 ? "" : decodeURIComponent(rest.slice(slash + 1)) };
  };

  const fileObject = (bucket: FakeBucket, path: string, o: FakeObject) => ({
    name: path,
    bucket_id: bucket.id,
    id: o.id,
    updated_at: o.updated.toISOString(),
    created_at: o.created.toISOString(),
    last_accessed_at: o.updated.toISOString(),
    metadata: {
      eTag: o.etag,
      size: o.data.length,
      mimetype: o.contentType,
      cacheControl: o.cacheControl,
      lastModified: o.updated.toISOString(),
      contentLength: o.data.length,
      httpStatusCode: 200,
    },
  });

  /** The object's bytes, or one range of them, as the Storage API streams a download. */
  function serve(r: StorageRequest, res: http.ServerResponse, o: FakeObject, download: string | null) {
    const headers: Record<string, string> = {
      "Content-Type": o.contentType,
      "Cache-Control": o.cacheControl,
      ETag: o.etag,
      "Last-Modified": o.updated.toUTCString(),
      "Accept-Ranges": "bytes",
    };
    if (download !== null) headers["Content-Disposition"] = `attachment; filename=${JSON.stringify(download)}`;
    const ranges = r.headers.range ? parseRange(o.data.length, r.headers.range) : null;
    if (ranges === -1) {
      res.writeHead(416, { ...headers, "Content-Range": `bytes */${o.data.length}` });
      return res.end();
    }
    if (ranges && ranges !== -2 && ranges.length === 1) {
      const { start, end } = ranges[0];
      res.writeHead(206, {
        ...headers,
        "Content-Range": `bytes ${start}-${end}/${o.data.length}`,
        "Content-Length": String(end - start + 1),
      });
      return res.end(o.data.subarray(start, end + 1));
    }
    res.writeHead(200, { ...headers, "Content-Length": String(o.data.length) });
    res.end(o.data);
  }

  async function route(r: StorageRequest, res: http.ServerResponse) {
    const p = r.path.slice("/storage/v1".length);
    const body = (() => {
      if (!r.headers["content-type"]?.includes("application/json")) return {};
      return JSON.parse(r.raw.toString("utf8") || "{}") as Record<string, unknown>;
    })();

    // A signed URL is opened by a browser: no key, the token decides.
    if (r.method === "GET" && p.startsWith("/object/sign/")) {
      const payload = keys.verify(r.query.token ?? "");
      const rest = p.slice("/object/sign/".length);
      const url = decodeURIComponent(rest);
      if (payload === "invalid" || payload === "expired" || payload.url !== url)
        throw new StorageApiError(400, { statusCode: "400", error: "InvalidJWT", message: "invalid signature" });
      if (typeof payload.exp !== "number" || payload.exp <= nowSeconds())
        throw new StorageApiError(400, { statusCode: "400", error: "InvalidJWT", message: "jwt expired" });
      const slash = url.indexOf("/");
      const o = buckets.get(url.slice(0, slash))?.objects.get(url.slice(slash + 1));
      if (!o) throw notFound();
      const download = r.query.download === undefined ? null : r.query.download || url.slice(url.lastIndexOf("/") + 1);
      return serve(r, res, o, download);
    }
    if (!r.role)
      throw new StorageApiError(400, {
        statusCode: "400",
        error: "Error",
        message: "headers must have required property 'authorization'",
      });

    if (r.method === "GET" && p.startsWith("/bucket/")) {
      const { bucket } = locate(decodeURIComponent(p.slice("/bucket/".length)), r.role);
      return json(res, 200, {
        id: bucket.id,
        name: bucket.id,
        owner: "",
        public: bucket.public,
        file_size_limit: bucket.fileSizeLimit,
        allowed_mime_types: null,
        created_at: new Date(0).toISOString(),
        updated_at: new Date(0).toISOString(),
      });
    }
    if (r.method === "POST" && p.startsWith("/object/sign/")) {
      const { bucket, path } = locate(p.slice("/object/sign/".length), r.role);
      if (!bucket.objects.has(path)) throw notFound();
      const expiresIn = Number(body.expiresIn);
      const url = `${bucket.id}/${path}`;
      const token = keys.sign({ url, iat: nowSeconds(), exp: nowSeconds() + expiresIn });
      grants.push({ bucket: bucket.id, path, expiresIn, token });
      return json(res, 200, {
        signedURL: `/object/sign/${bucket.id}/${encodeURIComponent(path).replace(/%2F/g, "/")}?token=${token}`,
      });
    }
    if (r.method === "POST" && p.startsWith("/object/list/")) {
      const { bucket } = locate(p.slice("/object/list/".length), r.role);
      const prefix = typeof body.prefix === "string" && body.prefix ? body.prefix.replace(/\/?$/, "/") : "";
      const entries = new Map<string, unknown>();
      for (const [path, o] of [...bucket.objects].sort(([a], [b]) => a.localeCompare(b))) {
        if (!path.startsWith(prefix)) continue;
        const rest = path.slice(prefix.length);
        const folder = rest.includes("/") ? rest.slice(0, rest.indexOf("/")) : null;
        if (folder)
          entries.set(folder, {
            name: folder,
            id: null,
            updated_at: null,
            created_at: null,
            last_accessed_at: null,
            metadata: null,
          });
        else entries.set(rest, { ...fileObject(bucket, path, o), name: rest, bucket_id: undefined });
      }
      const offset = Number(body.offset ?? 0);
      return json(res, 200, [...entries.values()].slice(offset, offset + Number(body.limit ?? 100)));
    }
    if (r.method === "GET" && p.startsWith("/object/info/")) {
      const { bucket, path } = locate(p.slice("/object/info/".length), r.role);
      const o = bucket.objects.get(path);
      if (!o) throw notFound();
      return json(res, 200, {
        id: o.id,
        version: o.version,
        name: path,
        bucket_id: bucket.id,
        size: o.data.length,
        content_type: o.contentType,
        cache_control: o.cacheControl,
        etag: o.etag,
        last_modified: o.updated.toISOString(),
        created_at: o.created.toISOString(),
        metadata: {},
      });
    }
    if (r.method === "GET" && p.startsWith("/object/")) {
      const rest = p.slice("/object/".length).replace(/^authenticated\//, "");
      const { bucket, path } = locate(rest, r.role);
      const o = bucket.objects.get(path);
      if (!o) throw notFound();
      return serve(r, res, o, null);
    }
    if (r.method === "DELETE" && p.startsWith("/object/")) {
      const { bucket } = locate(p.slice("/object/".length), r.role);
      if (r.role !== "service_role" && !bucket.public) throw rlsRefusal();
      const removed = [];
      for (const path of Array.isArray(body.prefixes) ? (body.prefixes as string[]) : []) {
        const o = bucket.objects.get(path);
        if (!o) continue;
        bucket.objects.delete(path);
        removed.push(fileObject(bucket, path, o));
      }
      return json(res, 200, removed);
    }
    if ((r.method === "POST" || r.method === "PUT") && p.startsWith("/object/")) {
      const { bucket, path } = locate(p.slice("/object/".length), r.role);
      if (r.role !== "service_role") throw rlsRefusal();
      const old = bucket.objects.get(path);
      if (r.method === "POST" && old && r.headers["x-upsert"] !== "true")
        throw new StorageApiError(409, { statusCode: "409", error: "Duplicate", message: "The resource already exists" });
      if (r.method === "PUT" && !old) throw notFound();
      if (bucket.fileSizeLimit !== null && r.raw.length > bucket.fileSizeLimit)
        throw new StorageApiError(413, {
          statusCode: "413",
          error: "Payload too large",
          message: "The object exceeded the maximum allowed size",
        });
      const now = new Date(Date.now() + offsetSeconds * 1000);
      const o: FakeObject = {
        id: old?.id ?? crypto.randomUUID(),
        version: crypto.randomUUID(),
        data: r.raw,
        contentType: r.headers["content-type"] ?? "application/octet-stream",
        cacheControl: r.headers["cache-control"] ?? "max-age=3600",
        etag: `"${crypto.createHash("md5").update(r.raw).digest("hex")}"`,
        created: old?.created ?? now,
        updated: now,
      };
      bucket.objects.set(path, o);
      return json(res, 200, { Id: o.version, Key: `${bucket.id}/${path}` });
    }
    throw new StorageApiError(404, {
      statusCode: "404",
      error: "not_found",
      message: `${r.method} ${p} is not served by this fake`,
    });
  }

  return {
    storage,
    async handle(r: StorageRequest, res: http.ServerResponse) {
      try {
        await route(r, res);
      } catch (e) {
        if (res.headersSent) return;
        if (e instanceof StorageApiError) return json(res, e.status, e.body);
        return json(res, 500, { statusCode: "500", error: "internal", message: e instanceof Error ? e.message : String(e) });
      }
    },
  };
}
