// A small keep-alive HTTP client with a cookie jar, for the bench's requests.
import http from "node:http";
import zlib from "node:zlib";
import { now } from "./common.js";

/** Cookies of one shopper (name -> value), fed by Set-Cookie headers. */
export class Jar {
  constructor(entries = []) {
    this.map = new Map(entries);
  }
  update(setCookies) {
    for (const line of setCookies ?? []) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => {
        const [k, v = ""] = a.trim().split("=");
        if (k.toLowerCase() === "max-age") return Number(v) <= 0;
        if (k.toLowerCase() === "expires") return Date.parse(v) < Date.now();
        return false;
      });
      if (expired || value === "") this.map.delete(name);
      else this.map.set(name, value);
    }
    return this;
  }
  get(name) {
    return this.map.get(name);
  }
  /** The Cookie header, optionally limited to some names. */
  header(names) {
    return [...this.map]
      .filter(([n]) => !names || names.includes(n))
      .map(([n, v]) => `${n}=${v}`)
      .join("; ");
  }
  clone() {
    return new Jar(this.map);
  }
}

export const newAgent = (maxSockets = 64) => new http.Agent({ keepAlive: true, maxSockets });

/** A compressed body as sent (gzip, br, deflate), decompressed. */
export function decompress(buf, encoding) {
  if (encoding === "br") return zlib.brotliDecompressSync(buf);
  if (encoding === "gzip") return zlib.gunzipSync(buf);
  if (encoding === "deflate") return zlib.inflateSync(buf);
  return buf;
}

/**
 * One HTTP request. Resolves with status, headers, setCookies, body (string unless
 * raw) and ms (request start to last byte). Never follows redirects. With `decode`, a
 * compressed body (the request sent Accept-Encoding) is decompressed before it is read;
 * without it the body is read as it came, which costs the load generator nothing.
 */
export function request(
  base,
  { method = "GET", path: p = "/", headers = {}, form, body: given, jar, agent, raw = false, decode = false, timeout = 30_000 },
) {
  const url = new URL(p, base);
  const body = form ? new URLSearchParams(form).toString() : given;
  const h = { ...headers };
  if (jar && jar.map.size) h.cookie = jar.header();
  if (form) h["content-type"] = "application/x-www-form-urlencoded";
  if (body !== undefined) h["content-length"] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    const started = now();
    const req = http.request(url, { method, headers: h, agent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const sent = Buffer.concat(chunks);
        const buf = decode ? decompress(sent, res.headers["content-encoding"]) : sent;
        const setCookies = [].concat(res.headers["set-cookie"] ?? []);
        if (jar) jar.update(setCookies);
        resolve({
          status: res.statusCode,
          headers: res.headers,
          setCookies,
          body: raw ? buf : buf.toString("utf8"),
          ms: now() - started,
        });
      });
      res.on("error", reject);
    });
    req.setTimeout(timeout, () => req.destroy(new Error(`timeout: ${method} ${p}`)));
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A request that must answer one of the expected statuses. */
export async function expectStatus(base, opts, expected) {
  const res = await request(base, opts);
  const ok = Array.isArray(expected) ? expected.includes(res.status) : res.status === expected;
  if (!ok) {
    const snippet = typeof res.body === "string" ? res.body.slice(0, 300).replace(/\s+/g, " ") : "";
    throw new Error(`${opts.method ?? "GET"} ${opts.path} answered ${res.status}, expected ${expected}: ${snippet}`);
  }
  return res;
}
