// Cookie storages. HttpOnly and SameSite=Lax always; over https also Secure with a
// __Host- name. Signed with SESSION_SECRET (comma-separated for rotation).
import { createCookieSessionStorage, type SessionStorage } from "react-router";
import { getConfig } from "./config.server";

export const isHttps = (request: Request) => new URL(request.url).protocol === "https:";

type Kind = "auth" | "deck" | "toast";
const MAX_AGE: Record<Kind, number | undefined> = {
  auth: 30 * 24 * 3600, // the server-side session decides; the cookie just outlives it
  deck: 60 * 24 * 3600, // the deck survives a closed tab
  toast: undefined, // a flash: session cookie
};

const cache = new Map<string, SessionStorage>();

export function cookieStorage(kind: Kind, request: Request): SessionStorage {
  const secure = isHttps(request);
  const key = `${kind}:${secure}`;
  let storage = cache.get(key);
  if (!storage) {
    storage = createCookieSessionStorage({
      cookie: {
        name: secure ? `__Host-mixtape-${kind}` : `mixtape-${kind}`,
        httpOnly: true,
        sameSite: "lax",
        secure,
        path: "/",
        maxAge: MAX_AGE[kind],
        secrets: getConfig().sessionSecrets,
      },
    });
    cache.set(key, storage);
  }
  return storage;
}

export const cookieName = (kind: Kind, request: Request) =>
  isHttps(request) ? `__Host-mixtape-${kind}` : `mixtape-${kind}`;

/** True when the request carries the named cookie at all (skips parsing when not). */
export const hasCookie = (kind: Kind, request: Request) =>
  (request.headers.get("Cookie") ?? "").includes(`${cookieName(kind, request)}=`);
