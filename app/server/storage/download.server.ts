// The answer of a session-bound download route (disk has no signed URLs): 200, 206 with one
// range, or 416, with Accept-Ranges, ETag and Content-Range, so audio players can seek and an
// interrupted download resumes. The route checks who asks; this only answers.
import parseRange from "range-parser";
import { attachment, StorageError, type ByteRange, type Storage, type StoredObject } from "./port.server";

export type RangePlan = { status: 200 } | { status: 206; range: ByteRange } | { status: 416 };

/**
 * One range is served; several (rare from players) and malformed headers get the whole object,
 * as RFC 9110 allows. If-Range naming another version also gets the whole object.
 */
export function planRange(object: StoredObject, range: string | null, ifRange: string | null): RangePlan {
  if (!range) return { status: 200 };
  if (ifRange && ifRange !== object.etag && ifRange !== object.modified.toUTCString()) return { status: 200 };
  const parsed = parseRange(object.size, range, { combine: true });
  if (parsed === -1) return { status: 416 };
  if (parsed === -2 || parsed.type !== "bytes" || parsed.length !== 1) return { status: 200 };
  return { status: 206, range: { start: parsed[0].start, end: parsed[0].end } };
}

/** Private by default (a tape: its shopper and the mixers only); the catalogue's public files say their own. */
function headersOf(object: StoredObject, filename: string | undefined, cacheControl = "private, no-cache"): Headers {
  const headers = new Headers({
    "Accept-Ranges": "bytes",
    ETag: object.etag,
    "Last-Modified": object.modified.toUTCString(),
    "Content-Type": object.contentType,
    // Only the signed-in shopper and the mixers may fetch it: no shared cache keeps a copy (nosniff comes with every answer: helmet).
    "Cache-Control": cacheControl,
  });
  if (filename) headers.set("Content-Disposition", attachment(filename));
  return headers;
}

/** The answer to GET or HEAD of key; null when there is no such object (the route's 404). */
export async function serveObject(
  storage: Storage,
  key: string,
  request: Request,
  options: { filename?: string; cacheControl?: string } = {},
): Promise<Response | null> {
  const range = request.headers.get("range");
  const ifRange = request.headers.get("if-range");
  // Twice at most: a put may replace the object between the stat and the read.
  for (let attempt = 0; ; attempt++) {
    const object = await storage.stat(key);
    if (!object) return null;
    const plan = planRange(object, range, ifRange);
    const headers = headersOf(object, options.filename, options.cacheControl);
    if (plan.status === 416) {
      headers.set("Content-Range", `bytes */${object.size}`);
      return new Response(null, { status: 416, headers });
    }
    const span = plan.status === 206 ? plan.range : { start: 0, end: object.size - 1 };
    headers.set("Content-Length", String(span.end - span.start + 1));
    if (plan.status === 206) headers.set("Content-Range", `bytes ${span.start}-${span.end}/${object.size}`);
    if (request.method === "HEAD") return new Response(null, { status: plan.status, headers });
    if (object.size === 0) return new Response(null, { status: 200, headers });
    let read: Awaited<ReturnType<Storage["read"]>>;
    try {
      read = await storage.read(key, plan.status === 206 ? plan.range : undefined);
    } catch (error) {
      if (error instanceof StorageError && error.code === "not_found") return null;
      if (error instanceof StorageError && error.code === "range" && attempt === 0) continue;
      throw error;
    }
    if (read.object.etag !== object.etag && attempt === 0) {
      await read.body.cancel();
      continue;
    }
    // The store's own Web stream, as it is: on disk, the file's reads (no Node stream to convert).
    return new Response(read.body, { status: plan.status, headers });
  }
}
