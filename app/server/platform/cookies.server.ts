// Cookie storages. HttpOnly and SameSite=Lax always; over https also Secure with a
// __Host- name. Signed with SESSION_SECRET (comma-separated for rotation).
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
// request, and a hit also skips decoding the JSON. The key is
// the whole signed value, so only a value whose signature was checked can hit.
const verified = new Map<string, Readonly<Record<string, unknown>>>();
const VERIFIED_MAX = 5_000;

function rawCookie(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The data of a signed cookie session, or null when the cookie is absent. Read-only. */
export async function readCookieData(kind: Kind, request: Request): Promise<Readonly<Record<string, unknown>> | null> {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const name = cookieName(kind, request);
  const raw = rawCookie(header, name);
  if (!raw) return null;
  const key = `${name}=${raw}`;
  const hit = verified.get(key);
  if (hit) {
    verified.delete(key); // most recently used goes last
    verified.set(key, hit);
    return hit;
  }
  const data = Object.freeze({ ...(await cookieStorage(kind, request).getSession(key)).data });
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  verified.set(key, data);
  return data;
}
