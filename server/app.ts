// The app's HTTP pipeline, the same in development (mounted in Vite's dev server) and
// production (server/index.ts), over the process's parts it is handed (server/root.ts), in this order:
//   1. the request target cut to a path (an absolute-form target keeps its path; else 400);
//   2. request log (pino-http: one line per request; the probes /healthz and /readyz below
//      info) and request id; every body's deadline, and the close after an answer that came before
//      its body did (server/bodies.ts);
//   3. security headers (helmet) with a per-request CSP nonce, and Permissions-Policy;
//   4. compression;
//   5. the tape's resumable upload (tus, /mixer/uploads): its own methods and binary bodies, with the
//      Host, cross-site and POST limit checks below, straight to React Router (its resource route
//      app/routes/mixer/uploads.ts, for mixers only); tus never asks for a ".data" URL (404);
//   6. request filters: method (405), Host (400; a probe may name any well-formed Host),
//      malformed URL or "//" path (400, 404), cross-site (403), per-address POST limit (429),
//      body length (411, 413) and form encoding (415);
//   7. static files (production; Vite serves them in development);
//   8. a resource route's page-data URL (".data") refused (server/page-data.ts);
//   9. React Router, with the request's facts in a typed context.
// A refusal is answered here: a small page of its own for browsers, plain text otherwise
// (docs/decisions/014-refusal-pages.md). docs/SECURITY.md lists these controls and their tests.
import crypto from "node:crypto";
import compression from "compression";
import express, { type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import helmet, { type HelmetOptions } from "helmet";
import { pinoHttp } from "pino-http";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { COPY, REFUSAL_COPY } from "~/domain/copy";
import { DROP_COPY } from "~/domain/copy-orders";
import { humanWait } from "~/domain/time";
import { requestContext, type RequestInfo } from "~/server/context.server";
import { rootContext, type Root } from "~/server/root.server";
import { dropLimitBytes, tapeOrigin } from "~/server/storage/index.server";
import { CATALOGUE_FORM_MAX_BYTES, serveMedia } from "~/server/services/catalogue-media.server";
import { CATALOGUE_COPY } from "~/domain/copy-catalogue";
import { Readable } from "node:stream";
import { TUS_METHODS, TUS_PATH } from "~/server/services/tus.server";
import { uploadBodyTimeoutMs } from "~/server/platform/upload.server";
import { newDbStats } from "~/server/platform/db-stats.server";
import { PAYMENT_PROVIDERS } from "~/domain/orders";
import { escapeHtml, PROBE_PATHS, WEBHOOK_BODY_LIMIT } from "~/server/platform/http.server";
import { addressKey } from "./address";
import { allowUploadBody, requestBodies } from "./bodies";
import { resourceDataUrls } from "./page-data";
import { createRequestHandler } from "@react-router/express";

export type AppOptions = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** build/client: served here in production; Vite serves it in development. */
  clientDir?: string;
  /** The process's parts (server/root.ts): built and closed by the caller, never here. */
  root: Root;
};

type Refusal = { status: number; message: string; headers?: Record<string, string> };

/** The mixer's order page, where a plain form posts the tape. */
const TAPE_UPLOAD = /^\/mixer\/orders\/[A-Z0-9]{8}$/;
/** The catalogue's plain forms (a song, a design, a cover background) and its upload with JavaScript. */
const CATALOGUE_UPLOAD = /^\/mixer\/catalogue(\/designs|\/backgrounds)?\/[A-Za-z0-9-]{1,40}$/;
/** A multipart form's boundaries and headers around the file. */
const UPLOAD_ENVELOPE_BYTES = 64 * 1024;

/** The webhook endpoints: exempt from the Origin check, the shoppers' POST limit and the form-only rule. */
const WEBHOOKS = new RegExp(`^/webhooks/(${PAYMENT_PROVIDERS.join("|")})$`);

export function createApp({ build, clientDir, root }: AppOptions) {
  const { config, rateLimits } = root;
  const app = express();
  app.disable("x-powered-by");
  // Exactly one proxy hop is trusted: req.ip is the address that proxy saw, never a
  // value the client wrote into X-Forwarded-For itself.
  if (config.TRUST_PROXY) app.set("trust proxy", 1);

  // The request target as a path: an absolute-form target ("POST http://host/x") keeps
  // only its path and query, so no later step reads a host from it.
  app.use((req, res, next) => {
    const target = requestPath(req.url);
    if (target === null) return void res.status(400).type("text/plain").send(COPY.errors.badRequest);
    req.url = req.originalUrl = target;
    next();
  });

  app.use(
    pinoHttp({
      logger: root.log,
      quietReqLogger: true,
      genReqId: (_req, res) => {
        const id = crypto.randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      customAttributeKeys: { reqId: "requestId", responseTime: "ms" },
      wrapSerializers: false,
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, path: redactSecrets(req.url) }),
        res: (res: ExpressResponse) => ({ status: res.statusCode, ...(res.locals?.db ? { db: res.locals.db } : {}) }),
      },
      // A host's probes come every few seconds: below info (a readiness change is logged once, by the check).
      customLogLevel: (req, res, error) =>
        isProbe(req.url) ? "debug" : error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
      // An answer the client did not wait for (it closed the connection first).
      customSuccessMessage: (_req, res) => (res.writableFinished ? "request" : "request: the client went away"),
      customErrorMessage: () => "request failed",
    }),
  );

  app.use(
    requestBodies({
      uploadMs: uploadBodyTimeoutMs(config),
      timedOut: (req, res) => refuse(req, res, { status: 408, message: REFUSAL_COPY.slowBody }),
    }),
  );

  const headers = { http: helmet(helmetOptions(false)), https: helmet(helmetOptions(true)) };
  app.use((req, res, next) => {
    res.locals.nonce = crypto.randomBytes(16).toString("base64");
    // helmet has no Permissions-Policy (docs/decisions/013-headers.md).
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    headers[req.protocol === "https" ? "https" : "http"](req, res, next);
  });

  app.use(compression());

  const handle = createRequestHandler({ build, getLoadContext: (req, res) => contextFor(req, res) });
  const contextFor = (req: ExpressRequest, res: ExpressResponse) => {
    const context = new RouterContextProvider();
    const info: RequestInfo = {
      nonce: res.locals.nonce as string,
      clientIp: addressKey(req.ip ?? req.socket.remoteAddress),
      requestId: String(req.id),
      // What the request asks of the database, on its log line (res.db).
      dbStats: (res.locals.db = newDbStats()),
      log: req.log,
      // "close" follows the last byte of the answer (or the client going away, maybe before the route's end).
      afterResponse: (task) => void (res.closed ? setImmediate(task) : res.once("close", task)),
      allowUploadBody: () => allowUploadBody(res),
    };
    context.set(requestContext, info);
    context.set(rootContext, root);
    return context;
  };

  /** A browser's page gets a small page with the message; any other client, text. */
  const refuse = (req: ExpressRequest, res: ExpressResponse, refusal: Refusal) => {
    res.setHeader("Cache-Control", "no-store");
    for (const [key, value] of Object.entries(refusal.headers ?? {})) res.setHeader(key, value);
    const wantsPage = /\btext\/html\b/i.test(req.get("accept") ?? "") && !req.path.endsWith(".data");
    if (!wantsPage) return void res.status(refusal.status).type("text/plain").send(refusal.message);
    res.status(refusal.status).type("html").send(refusalPage(refusal.message));
  };

  /** Sec-Fetch-Site first, then Origin: true when another site sent the request. */
  const crossSite = (req: ExpressRequest, origin: string) => {
    const site = req.get("sec-fetch-site");
    const from = req.get("origin");
    const own = new Set([
      origin,
      `${req.protocol}://${req.get("host")}`,
      ...(config.SITE_URL ? [new URL(config.SITE_URL).origin] : []),
    ]);
    return (!!site && site !== "same-origin" && site !== "none") || (!!from && !own.has(from));
  };

  // The tape's resumable upload (tus-js-client, with JavaScript): POST creates, HEAD reads the offset,
  // PATCH appends application/offset+octet-stream bytes (up to DROP_MAX_MB in all), DELETE cancels.
  // Not the forms' filters below, but the same Host, cross-site and POST limit checks; who may upload is
  // the route's (the session, a mixer; an order they may change, tus.server.ts).
  app.use(async (req, res, next) => {
    if (req.path !== TUS_PATH && !req.path.startsWith(`${TUS_PATH}/`) && req.path !== `${TUS_PATH}.data`) return next();
    // A resource route's page data is refused (below, for the other routes); no tus URL ends so.
    if (req.path.endsWith(".data")) return refuse(req, res, { status: 404, message: COPY.errors.notFound });
    if (!TUS_METHODS.has(req.method))
      return refuse(req, res, { status: 405, message: REFUSAL_COPY.method, headers: { Allow: [...TUS_METHODS].join(", ") } });
    const origin = originOf(req);
    if (!origin || !hostAllowed(origin, config.allowedHosts))
      return refuse(req, res, { status: 400, message: COPY.errors.badRequest });
    if (crossSite(req, origin)) return refuse(req, res, { status: 403, message: REFUSAL_COPY.crossSite });
    if (req.method === "POST") {
      const retryAfter = await rateLimits.post(addressKey(req.ip ?? req.socket.remoteAddress));
      if (retryAfter !== null)
        return refuse(req, res, {
          status: 429,
          message: REFUSAL_COPY.tooMany(humanWait(retryAfter)),
          headers: { "Retry-After": String(retryAfter) },
        });
    }
    // Its answers are never cached: the root middleware marks a signed-in answer, answerTus a refusal.
    return handle(req, res, next);
  });

  app.use(async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD" && req.method !== "POST") {
      return refuse(req, res, { status: 405, message: REFUSAL_COPY.method, headers: { Allow: "GET, HEAD, POST" } });
    }
    const origin = originOf(req);
    // A host's probe names the pod's or machine's own address as its Host: ALLOWED_HOSTS is for browsers.
    const probe = req.method !== "POST" && isProbe(req.url);
    if (!origin || (!hostAllowed(origin, config.allowedHosts) && !probe))
      return refuse(req, res, { status: 400, message: COPY.errors.badRequest });
    try {
      decodeURIComponent(req.path);
    } catch {
      return refuse(req, res, { status: 400, message: COPY.errors.badRequest });
    }
    // No page of the app begins with "//"; the router would read it as "/".
    if (req.path.startsWith("//")) return refuse(req, res, { status: 404, message: COPY.errors.notFound });
    if (req.method !== "POST") return next();
    // A checkout's webhook: raw JSON up to 64 kB, from the provider's servers (its signature is the check).
    if (WEBHOOKS.test(req.path)) {
      if (req.get("content-length") === undefined)
        return void res.status(411).type("text/plain").send(REFUSAL_COPY.lengthRequired);
      if (!/^\d+$/.test(req.get("content-length")!) || Number(req.get("content-length")) > WEBHOOK_BODY_LIMIT)
        return void res.status(413).type("text/plain").send(REFUSAL_COPY.tooLarge);
      return next();
    }
    if (crossSite(req, origin)) return refuse(req, res, { status: 403, message: REFUSAL_COPY.crossSite });
    const retryAfter = await rateLimits.post(addressKey(req.ip ?? req.socket.remoteAddress));
    if (retryAfter !== null) {
      return refuse(req, res, {
        status: 429,
        message: REFUSAL_COPY.tooMany(humanWait(retryAfter)),
        headers: { "Retry-After": String(retryAfter) },
      });
    }
    const length = req.get("content-length");
    if (length === undefined && req.get("transfer-encoding"))
      return refuse(req, res, { status: 411, message: REFUSAL_COPY.lengthRequired });
    // The tape's plain upload (a form without JavaScript): multipart, read as a stream by the route, which
    // stops at DROP_MAX_MB; a length beyond it with the form's own envelope is refused before any byte is read.
    if (TAPE_UPLOAD.test(req.path) && /^multipart\/form-data\b/i.test(req.get("content-type") ?? "")) {
      if (!/^\d+$/.test(length ?? "") || Number(length) > dropLimitBytes(config) + UPLOAD_ENVELOPE_BYTES)
        return refuse(req, res, { status: 413, message: DROP_COPY.tooLarge(dropLimitBytes(config)) });
      return next();
    }
    // The catalogue's forms carry a preview and an image, read as streams by the route, each stopped at its own limit.
    if (CATALOGUE_UPLOAD.test(req.path) && /^multipart\/form-data\b/i.test(req.get("content-type") ?? "")) {
      if (!/^\d+$/.test(length ?? "") || Number(length) > CATALOGUE_FORM_MAX_BYTES)
        return refuse(req, res, { status: 413, message: CATALOGUE_COPY.formTooLarge(CATALOGUE_FORM_MAX_BYTES) });
      return next();
    }
    if (!/^\d*$/.test(length ?? "") || Number(length ?? 0) > config.BODY_LIMIT_BYTES) {
      return refuse(req, res, { status: 413, message: REFUSAL_COPY.tooLarge });
    }
    // Every form of the app (and React Router's fetchers) posts urlencoded; anything
    // else would only reach a parser that cannot read it.
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.get("content-type") ?? "")) {
      return refuse(req, res, { status: 415, message: REFUSAL_COPY.unsupported });
    }
    next();
  });

  // The catalogue's files from the Storage port: public, ranged, immutable (app/server/services/catalogue-media.server.ts).
  app.get(/^\/media\//, async (req, res, next) => {
    try {
      const headers = new Headers();
      for (const name of ["range", "if-range"]) if (req.get(name)) headers.set(name, req.get(name)!);
      const answer = await serveMedia(
        root.storage,
        new Request(new URL(req.originalUrl, "http://media.local"), { method: req.method, headers }),
      );
      if (!answer) return next();
      res.status(answer.status);
      answer.headers.forEach((value, key) => res.setHeader(key, value));
      if (!answer.body) return void res.end();
      const body = Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream);
      body.on("error", () => res.destroy()); // a store that fails mid-file: the client sees a cut answer, never a hang
      res.on("close", () => body.destroy());
      body.pipe(res);
    } catch (error) {
      next(error);
    }
  });

  if (clientDir) {
    // Hashed build assets never change: cached for a year.
    app.use("/assets", express.static(`${clientDir}/assets`, { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
  }
  // Files are never page data: a resource route's ".data" URL is refused before the app reads the file.
  // A POST there is a form's submission to its action with JavaScript (logout): the action's answer, never a file.
  const isResourceData = resourceDataUrls(build);
  app.use((req, res, next) => {
    if (req.method === "POST") return next();
    isResourceData(req.path).then(
      (refused) => (refused ? refuse(req, res, { status: 404, message: COPY.errors.notFound }) : next()),
      next,
    );
  });
  app.use(handle);

  // Last resort: logged with its stack, answered without one.
  app.use((error: unknown, req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
    req.log.error({ err: error instanceof Error ? error.stack : String(error) }, "unhandled error");
    if (res.headersSent) return void res.end();
    res.status(500).type("text/plain").send(COPY.errors.unexpected);
  });

  return app;
}

/** Path and query of a request target; an absolute-form target is cut to its path; null when unusable. */
export function requestPath(target: string): string | null {
  if (target.startsWith("/")) return target;
  if (!/^https?:\/\//i.test(target)) return null;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return null;
  }
}

/** The request's own origin; null when its Host header is missing or malformed. */
export function originOf(req: ExpressRequest): string | null {
  const host =
    (req.app.enabled("trust proxy") ? req.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined) ?? req.get("host");
  if (!host || !/^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host)) return null;
  return `${req.protocol}://${host.toLowerCase()}`;
}

/** ALLOWED_HOSTS (host or host:port); an empty list allows any well-formed Host. */
export function hostAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const { host, hostname } = new URL(origin);
  return allowed.includes(host) || allowed.includes(hostname);
}

/** GET /healthz or /readyz (any query). */
const isProbe = (url: string | undefined) => PROBE_PATHS.has((url ?? "").split("?")[0]);

const SECRET_PARAMS = /([?&](?:token_hash|token|code)=)[^&#]*/gi;
/** A path for the log: the values of email-link tokens are never written. */
export const redactSecrets = (path: string) => path.replace(SECRET_PARAMS, "$1[redacted]");

/**
 * helmet's headers with the CSP of every page: scripts only with the request's nonce (res.locals.nonce).
 * Over https also HSTS and upgrade-insecure-requests. docs/decisions/013-headers.md says what is on and off.
 */
function helmetOptions(https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", (_req, res) => `'nonce-${(res as ExpressResponse).locals.nonce as string}'`],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        // A signed tape URL of the store (S3, Supabase) plays in the page's player.
        "media-src": ["'self'", ...(tapeOrigin() ? [tapeOrigin()!] : [])],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "upgrade-insecure-requests": https ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: "same-origin" },
    crossOriginResourcePolicy: { policy: "same-origin" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true, preload: false } : false,
    xFrameOptions: { action: "deny" },
  };
}

/** A refusal for a browser: the message and a way home, readable without the app's CSS or JavaScript. */
export function refusalPage(message: string): string {
  const text = escapeHtml(message);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>${text}</title>
<style>
body { margin: 0; min-height: 100dvh; display: grid; place-items: center; background: #0f0d14; color: #f4ecd8; font: 1.125rem/1.5 system-ui, sans-serif; }
main { max-width: 36rem; margin: 1rem; padding: 2rem; border: 1px solid #3a3347; border-radius: 0.75rem; background: #1b1724; text-align: center; }
h1 { margin: 0 0 1.5rem; font-size: 1.5rem; color: #ffd23f; }
a { display: inline-block; padding: 0.6rem 1.2rem; border-radius: 0.5rem; background: #ffd23f; color: #0f0d14; font-weight: 700; text-decoration: none; }
a:focus-visible { outline: 3px solid #19c2b5; outline-offset: 3px; }
</style>
</head>
<body>
<main>
<h1 data-testid="error-heading">${text}</h1>
<p><a href="/">${escapeHtml(COPY.errors.goHome)}</a></p>
</main>
</body>
</html>
`;
}
