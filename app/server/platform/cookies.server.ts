// __Host- and Secure over https; SESSION_SECRET is comma-separated for rotation.
import { createCookieSessionStorage, type SessionStorage } from "react-router";
import { getConfig } from "./config.server";

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

export function cookieStorage(kind: Kind, request: Request): SessionStorage {
  return createCookieSessionStorage({
    cookie: {
      name: cookieName(kind, request),
      httpOnly: true,
      sameSite: "lax",
      secure: isHttps(request),
      path: "/",
      maxAge: MAX_AGE[kind],
      secrets: getConfig().sessionSecrets,
    },
  });
}

export const cookieName = (kind: Kind, request: Request) => (isHttps(request) ? `__Host-mixtape-${kind}` : `mixtape-${kind}`);

/** True when the request carries the named cookie at all (skips parsing when not). */
export const hasCookie = (kind: Kind, request: Request) =>
  (request.headers.get("Cookie") ?? "").includes(`${cookieName(kind, request)}=`);

/** The data of a signed cookie session; null when the cookie is absent, {} when its signature fails. */
export async function readCookieData(kind: Kind, request: Request): Promise<Readonly<Record<string, unknown>> | null> {
  if (!hasCookie(kind, request)) return null;
  return (await cookieStorage(kind, request).getSession(request.headers.get("Cookie"))).data;
}
