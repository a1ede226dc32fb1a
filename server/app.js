// The HTTP server around the React Router build: compression, static files with
// immutable caching, security headers with a per-request CSP nonce, a body size
// limit and a same-origin check on every non-GET request.
import crypto from "node:crypto";
import path from "node:path";
import express from "express";
import compression from "compression";
import { createRequestHandler } from "@react-router/express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function createApp({ build, clientDir, bodyLimit = 16 * 1024, trustProxy = false }) {
  const app = express();
  app.disable("x-powered-by");
  if (trustProxy) app.set("trust proxy", true);
  app.use(compression());

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
    // The client address, for rate limits; never taken from the request itself.
    req.headers["x-mixtape-client-ip"] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    next();
  });

  // Hashed build assets never change: cache them for a year.
  app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
  app.use(express.static(clientDir, { maxAge: "1h", index: false }));

  app.use((req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    // Cross-site requests: Sec-Fetch-Site first, then Origin.
    const site = req.get("sec-fetch-site");
    const origin = req.get("origin");
    const own = `${req.protocol}://${req.get("host")}`;
    if ((site && site !== "same-origin" && site !== "none") || (origin && origin !== own)) {
      res.status(403).type("text/plain").send("Cross-site requests are not allowed.");
      return;
    }
    const length = req.get("content-length");
    if (length === undefined && req.get("transfer-encoding")) {
      res.status(411).type("text/plain").send("A Content-Length header is required.");
      return;
    }
    if (Number(length ?? 0) > bodyLimit) {
      res.status(413).type("text/plain").send("The request is too large.");
      return;
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
