// A signed cookie for React Router's cookie session storages, byte for byte in React
// Router's own format (base64 of the JSON, then "." and its HMAC-SHA256 in base64
// without padding), so cookies already in browsers stay valid both ways. It signs with
// node:crypto's synchronous HMAC: React Router's Web Crypto signing runs on libuv's
// thread pool, where a page would wait behind a password hash (docs/performance.md).
import crypto from "node:crypto";
import { parse, serialize } from "cookie";
import type { Cookie, CookieOptions } from "react-router";

const hmac = (value: string, secret: string) =>
  crypto.createHmac("sha256", secret).update(value, "utf8").digest("base64").replace(/=+$/, "");

/** `value.signature` with the first secret. */
export function signValue(value: string, secret: string): string {
  return `${value}.${hmac(value, secret)}`;
}

/** The value when some secret signed it (old secrets keep verifying), else false. */
export function unsignValue(signed: string, secrets: readonly string[]): string | false {
  const dot = signed.lastIndexOf(".");
  if (dot < 0) return false;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1), "utf8");
  for (const secret of secrets) {
    const expected = Buffer.from(hmac(value, secret), "utf8");
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) return value;
  }
  return false;
}

// React Router's encoding: base64 of the UTF-8 JSON (its btoa(unescape(encodeURIComponent()))).
const encodeData = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");
function decodeData(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, "base64").toString("utf8"));
  } catch {
    return {};
  }
}

/** A React Router `Cookie` signed with secrets[0] and verified against every secret. */
export function createSignedCookie(name: string, { secrets, ...cookieOptions }: CookieOptions & { secrets: string[] }): Cookie {
  if (secrets.length === 0) throw new Error(`cookie ${name} needs at least one secret`);
  const options = { path: "/", sameSite: "lax" as const, ...cookieOptions };
  return {
    get name() {
      return name;
    },
    get isSigned() {
      return true;
    },
    get expires() {
      return options.maxAge !== undefined ? new Date(Date.now() + options.maxAge * 1000) : options.expires;
    },
    async parse(header, parseOptions) {
      if (!header) return null;
      const cookies = parse(header, { ...options, ...parseOptions });
      if (!(name in cookies)) return null;
      const value = cookies[name];
      if (typeof value !== "string" || value === "") return "";
      const unsigned = unsignValue(value, secrets);
      return unsigned === false ? null : decodeData(unsigned);
    },
    async serialize(value, serializeOptions) {
      return serialize(name, value === "" ? "" : signValue(encodeData(value), secrets[0]), { ...options, ...serializeOptions });
    },
  };
}
