// The HTTP server around the React Router build: compression, static files with
// immutable caching, security headers with a per-request CSP nonce, and on every
// non-GET request, before the app sees it: POST only (405), a same-origin check (403),
// a global per-address rate limit (429), a body size limit (413) and the one form
// encoding the app's forms use (415). Each refusal is a short page (text for non-HTML clients)
// that says what happened. docs/SECURITY.md lists these controls and their tests.
import crypto from "node:crypto";
import path from "node:path";
import express from "express";
import compression from "compression";
import { createRequestHandler } from "./router-handler.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const MESSAGES = {
  crossSite: "Cross-site requests are not allowed.",
  tooMany: "Too many requests from your address. Please wait a minute and try again.",
  tooLarge: "The request is too large.",
  lengthRequired: "A Content-Length header is required.",
  unsupported: "Unsupported form encoding: send the form as application/x-www-form-urlencoded.",
  method: "This method is not allowed here: pages answer GET, forms POST.",
};

/**
 * @param {object} options
 * @param {unknown} options.build the React Router server build
 * @param {string} options.clientDir build/client
 * @param {number} [options.bodyLimit] largest request body in bytes (16 KiB)
 * @param {boolean} [options.trustProxy] behind one reverse proxy (X-Forwarded-*)
 * @param {string} [options.siteUrl] the public origin (SITE_URL), also accepted as Origin
 * @param {(ip: string) => Promise<number | null>} [options.limitPost] the global POST
 *   limit per client address (app/server/rate-limit.server.ts, through the build):
 *   Retry-After seconds when over, else null
 */
export function createApp({
  build,
  clientDir,
  bodyLimit = 16 * 1024,
  trustProxy = false,
  siteUrl,
  limitPost = async () => null,
}) {
  const app = express();
  app.disable("x-powered-by");
  // Exactly one proxy hop is trusted: req.ip is the address that proxy saw, never a
  // value the client wrote into X-Forwarded-For itself.
  if (trustProxy) app.set("trust proxy", 1);

  app.use((req, res, next) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.nonce = nonce;
    const https = req.protocol === "https";
    res.setHeader(
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "media-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        ...(https ? ["upgrade-insecure-requests"] : []),
      ].join("; "),
    );
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    if (https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    // The client address for rate limits, always overwriting whatever the client sent.
    req.headers["x-mixtape-client-ip"] = addressKey(req.ip ?? req.socket.remoteAddress);
    next();
  });

  // Static files go through the `compression` middleware; pages and data requests are
  // compressed whole by router-handler.js.
  const compress = compression();
  // Hashed build assets never change: cache them for a year.
  app.use("/assets", compress, express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
  const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
  // Only paths that name a file (an extension) can be static: pages skip the fs stat.
  app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? compress(req, res, () => publicFiles(req, res, next)) : next()));

  app.use(async (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (req.method !== "POST") {
      res.setHeader("Allow", "GET, HEAD, POST");
      return refuse(req, res, 405, MESSAGES.method);
    }
    // Cross-site requests: Sec-Fetch-Site first, then Origin.
    const site = req.get("sec-fetch-site");
    const origin = req.get("origin");
    if ((site && site !== "same-origin" && site !== "none") || (origin && !ownOrigins(req, trustProxy, siteUrl).has(origin))) {
      return refuse(req, res, 403, MESSAGES.crossSite);
    }
    const retryAfter = await limitPost(req.headers["x-mixtape-client-ip"]);
    if (retryAfter !== null) {
      res.setHeader("Retry-After", String(retryAfter));
      return refuse(req, res, 429, MESSAGES.tooMany);
    }
    const length = req.get("content-length");
    if (length === undefined && req.get("transfer-encoding")) return refuse(req, res, 411, MESSAGES.lengthRequired);
    if (!/^\d*$/.test(length ?? "") || Number(length ?? 0) > bodyLimit) return refuse(req, res, 413, MESSAGES.tooLarge);
    // Every form of the app (and React Router's fetchers) posts urlencoded; anything
    // else (JSON, text, multipart with files, no type) would only reach a parser
    // that cannot read it.
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.get("content-type") ?? "")) {
      return refuse(req, res, 415, MESSAGES.unsupported);
    }
    next();
  });

  app.all(
    "/{*splat}",
    createRequestHandler({
      build,
      mode: process.env.NODE_ENV,
      getLoadContext: (_req, res) => ({ nonce: res.locals.nonce }),
    }),
  );
  return app;
}

/** The origins this request may come from: its own, and SITE_URL's. */
function ownOrigins(req, trustProxy, siteUrl) {
  const origins = new Set([`${req.protocol}://${req.get("host")}`]);
  const forwardedHost = trustProxy ? req.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  if (forwardedHost) origins.add(`${req.protocol}://${forwardedHost}`);
  if (siteUrl) origins.add(new URL(siteUrl).origin);
  return origins;
}

const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/**
 * Answers a refused request: a small HTML page for a browser's form post (so the
 * message shows without JavaScript, with a link back to the page), plain text for
 * everyone else, React Router's data requests included.
 */
function refuse(req, res, status, message) {
  res.status(status).setHeader("Cache-Control", "no-store");
  const wantsHtml = /\btext\/html\b/i.test(req.get("accept") ?? "") && !req.path.endsWith(".data");
  if (!wantsHtml) return res.type("text/plain").send(message);
  const back = /^\/[A-Za-z0-9/_.-]*$/.test(req.path) && !req.path.startsWith("//") ? req.path : "/";
  const title = { 403: "Request refused", 405: "Method not allowed", 411: "Length required", 413: "Request too large", 415: "Unsupported form", 429: "Too many requests" }[status] ?? "Request refused";
  return res.type("html").send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;background:#0f0d14;color:#f4ecd8;margin:0;padding:2rem">
<main style="max-width:32rem;margin:0 auto">
<h1>${escapeHtml(title)}</h1>
<p role="alert" data-testid="refusal" style="border:2px solid #ff4d6d;border-radius:.375rem;padding:.5rem .75rem">${escapeHtml(message)}</p>
<p><a href="${escapeHtml(back)}" style="color:#c6ff3d">Back to the page</a></p>
</main></body></html>`);
}

/**
 * The rate-limit key of a client address: IPv4 as is (also when IPv4-mapped), IPv6
 * by its /64 prefix, since one client usually holds a whole /64.
 */
export function addressKey(address) {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(":")) return address;
  const [head, tail] = address.split("%")[0].toLowerCase().split("::");
  const width = (groups) => groups.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - width(left) - width(right))).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16).toString(16) : "0"))
    .join(":")}::/64`;
}


