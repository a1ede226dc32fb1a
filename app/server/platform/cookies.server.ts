// Cookie storages. HttpOnly and SameSite=Lax always; over https also Secure with a
// __Host- name. Signed with SESSION_SECRET (comma-separated for rotation).
import crypto from "node:crypto";
import { createCookieSessionStorage, type SessionStorage } from "react-router";
import { getConfig } from "./config.server";
import { createSignedCookie } from "./signed-cookie.server";

export const isHttps = (request: Request) => new URL(request.url).protocol === "https:";

type Kind = "auth" | "deck" | "toast" | "recovery";
/** How long a reset link, once opened, lets this browser set a new password (platform/recovery.server.ts). */
export const RECOVERY_WINDOW_SECONDS = 15 * 60;
const MAX_AGE: Record<Kind, number | undefined> = {
  auth: 30 * 24 * 3600, // the server-side session decides; the cookie just outlives it
  deck: 60 * 24 * 3600, // the deck survives a closed tab
  toast: undefined, // a flash: session cookie
  recovery: RECOVERY_WINDOW_SECONDS, // the server checks the time inside too
};

const cache = new Map<string, SessionStorage>();

export function cookieStorage(kind: Kind, request: Request): SessionStorage {
  const secure = isHttps(request);
  const key = `${kind}:${secure}`;
  let storage = cache.get(key);
  if (!storage) {
    storage = createCookieSessionStorage({
      cookie: createSignedCookie(secure ? `__Host-mixtape-${kind}` : `mixtape-${kind}`, {
        httpOnly: true,
        sameSite: "lax",
        secure,
        path: "/",
        maxAge: MAX_AGE[kind],
        secrets: getConfig().sessionSecrets,
      }),
    });
    cache.set(key, storage);
  }
  return storage;
}

export const cookieName = (kind: Kind, request: Request) => (isHttps(request) ? `__Host-mixtape-${kind}` : `mixtape-${kind}`);

/** True when the request carries the named cookie at all (skips parsing when not). */
export const hasCookie = (kind: Kind, request: Request) =>
  (request.headers.get("Cookie") ?? "").includes(`${cookieName(kind, request)}=`);

// Verified cookie values, remembered: the same deck and session cookies arrive on every
// request, and a hit skips the HMAC and the JSON. Only values whose signature checked
// out are kept, keyed by a SHA-256 digest (a fixed 43 characters, whatever was sent),
// and the whole memory is bounded in bytes, oldest first out.
const verified = new Map<string, { data: Readonly<Record<string, unknown>>; bytes: number }>();
const VERIFIED_MAX_BYTES = 8 * 1024 * 1024;
let verifiedBytes = 0;

function rawCookie(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The data of a signed cookie session; null when the cookie is absent, {} when its signature fails. Read-only. */
export async function readCookieData(kind: Kind, request: Request): Promise<Readonly<Record<string, unknown>> | null> {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const name = cookieName(kind, request);
  const raw = rawCookie(header, name);
  if (!raw) return null;
  const cookie = `${name}=${raw}`;
  const key = crypto.createHash("sha256").update(cookie).digest("base64url");
  const hit = verified.get(key);
  if (hit) {
    verified.delete(key); // most recently used goes last
    verified.set(key, hit);
    return hit.data;
  }
  const data = Object.freeze({ ...(await cookieStorage(kind, request).getSession(cookie)).data });
  if (Object.keys(data).length === 0) return data; // a failed (or empty) session is never remembered
  const bytes = cookie.length * 2 + 64;
  verified.set(key, { data, bytes });
  verifiedBytes += bytes;
  for (const [oldest, entry] of verified) {
    if (verifiedBytes <= VERIFIED_MAX_BYTES) break;
    verified.delete(oldest);
    verifiedBytes -= entry.bytes;
  }
  return data;
}
