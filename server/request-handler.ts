// Serves React Router's answers in one piece: entry.server renders each document into
// one buffer, so every answer is read whole, compressed in one synchronous call when it
// is worth it, and sent with a Content-Length (cheaper than streaming it through
// compression middleware: docs/performance.md). Event streams and downloads are piped as they come.
import zlib from "node:zlib";
import { writeReadableStreamToWritable } from "@react-router/node";
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from "express";
import { createRequestHandler as createRouterHandler, type RouterContextProvider, type ServerBuild } from "react-router";

/** Smaller bodies go out as they are: the headers would outweigh the saving. */
const MIN_COMPRESS_BYTES = 1024;
// React Router's data requests answer text/x-script (turbo-stream).
const COMPRESSIBLE = /^(text\/(?!event-stream)|application\/(json|javascript|xml)|image\/svg\+xml)/i;
// The `compression` middleware's levels: the same bytes on the wire as static files.
const BROTLI = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
};
const GZIP = { level: 6 };

/** The encoding for an Accept-Encoding header: brotli, else gzip, else none (q-values and `*` honoured). */
export function pickEncoding(header: string | undefined): "br" | "gzip" | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (name: string) => q.get(name) ?? q.get("*") ?? 0;
  const br = weight("br");
  const gzip = weight("gzip");
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return null;
}

function encode(req: ExpressRequest, res: ExpressResponse, response: Response, body: Buffer): Buffer {
  const type = response.headers.get("content-type") ?? "";
  if (!COMPRESSIBLE.test(type) || response.headers.has("content-encoding")) return body;
  if (/\bno-transform\b/i.test(response.headers.get("cache-control") ?? "")) return body;
  res.append("Vary", "Accept-Encoding");
  if (body.length < MIN_COMPRESS_BYTES) return body;
  const encoding = pickEncoding(req.headers["accept-encoding"]);
  if (!encoding) return body;
  res.setHeader("Content-Encoding", encoding);
  return encoding === "br" ? zlib.brotliCompressSync(body, BROTLI) : zlib.gzipSync(body, GZIP);
}

/** The request's own origin; null when its Host header is missing or malformed. */
export function originOf(req: ExpressRequest): string | null {
  const host =
    (req.app.enabled("trust proxy") ? req.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined) ?? req.get("host");
  if (!host || !/^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host)) return null;
  return `${req.protocol}://${host.toLowerCase()}`;
}

/** The Fetch Request React Router reads. `as` replaces the method and URL (a refusal page). */
async function toRequest(req: ExpressRequest, signal: AbortSignal, as?: { url: string }): Promise<Request> {
  const origin = originOf(req) ?? "http://localhost";
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  if (as) return new Request(new URL(origin + as.url), { method: "GET", headers, signal });
  const init: RequestInit = { method: req.method, headers, signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    // The request filters have already capped the body (Content-Length ≤ the limit).
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    init.body = Buffer.concat(chunks);
  }
  // Joined, never resolved: a path such as "//x" stays a path on this origin.
  return new Request(new URL(origin + req.originalUrl), init);
}

export type RouterHandler = (
  req: ExpressRequest,
  res: ExpressResponse,
  next: NextFunction,
  options: { context: RouterContextProvider; as?: { url: string } },
) => Promise<void>;

/** React Router's handler for a build (a function in development: rebuilt on change). */
export function createRequestHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode = process.env.NODE_ENV,
): RouterHandler {
  const handle = createRouterHandler(build, mode);
  return async (req, res, next, { context, as }) => {
    try {
      // Loaders and actions see an aborted signal when the client goes away.
      const controller = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) controller.abort();
      });
      const response = await handle(await toRequest(req, controller.signal, as), context);
      if (res.destroyed || res.writableEnded) return void (await response.body?.cancel());
      res.status(response.status);
      if (response.statusText) res.statusMessage = response.statusText;
      for (const [key, value] of response.headers) res.append(key, value);
      if (!response.body) return void res.end();
      // Streams and downloads go out as they are produced.
      if (
        /^text\/event-stream/i.test(response.headers.get("content-type") ?? "") ||
        /^attachment/i.test(response.headers.get("content-disposition") ?? "")
      ) {
        res.flushHeaders();
        return void (await writeReadableStreamToWritable(response.body, res));
      }
      const body = encode(req, res, response, Buffer.from(await response.arrayBuffer()));
      res.setHeader("Content-Length", body.length);
      res.end(body);
    } catch (error) {
      if (res.destroyed || res.writableEnded) return;
      next(error);
    }
  };
}
