// __Host- and Secure over https; SESSION_SECRET is comma-separated for rotation.
import {
  createContext,
  createCookieSessionStorage,
  type RouterContextProvider,
  type Session,
  type SessionStorage,
} from "react-router";
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

// ---- The request's cookies, committed once ---------------------------------------------
// As Hydrogen's server.ts commits its session: loaders, actions and services change a
// cookie session in the request's jar, and the root middleware writes every changed one
// (and the backend's own cookies) into the answer once (app/server/middleware.server.ts).

type Jar = { request: Request; sessions: Map<Kind, Session>; changed: Set<Kind>; forgotten: Set<Kind>; passed: Headers[] };
const jarContext = createContext<Jar>();
type Context = Readonly<RouterContextProvider>;

export const openCookieJar = (context: Context, request: Request) =>
  (context as RouterContextProvider).set(jarContext, {
    request,
    sessions: new Map<Kind, Session>(),
    changed: new Set<Kind>(),
    forgotten: new Set<Kind>(),
    passed: [],
  });

/** Cookies set by someone else for this answer (the backend's auth session): written with the rest. */
export const passCookies = (context: Context, headers: Headers) => context.get(jarContext).passed.push(headers);

/** The request's signed session of this kind, read once: an absent or forged cookie is an empty session. */
export async function cookieSession(context: Context, kind: Exclude<Kind, "auth">): Promise<Session> {
  const jar = context.get(jarContext);
  let session = jar.sessions.get(kind);
  if (!session) {
    const storage = cookieStorage(kind, jar.request);
    session = await storage.getSession(hasCookie(kind, jar.request) ? jar.request.headers.get("Cookie") : null);
    jar.sessions.set(kind, session);
  }
  return session;
}

/** Written into the answer (once, whatever else changes it). */
export function cookieChanged(context: Context, kind: Exclude<Kind, "auth">) {
  const jar = context.get(jarContext);
  jar.forgotten.delete(kind);
  jar.changed.add(kind);
}

/** Cleared in the browser. */
export function forgetCookie(context: Context, kind: Exclude<Kind, "auth">) {
  const jar = context.get(jarContext);
  jar.changed.delete(kind);
  jar.forgotten.add(kind);
}

/** The Set-Cookie values of everything that changed, each once. */
export async function changedCookies(context: Context): Promise<string[]> {
  const jar = context.get(jarContext);
  const cookies: string[] = [];
  for (const kind of jar.changed) {
    const session =
      jar.sessions.get(kind as Exclude<Kind, "auth">) ?? (await cookieSession(context, kind as Exclude<Kind, "auth">));
    cookies.push(await cookieStorage(kind, jar.request).commitSession(session));
  }
  for (const kind of jar.forgotten) {
    const storage = cookieStorage(kind, jar.request);
    cookies.push(await storage.destroySession(await storage.getSession()));
  }
  for (const headers of jar.passed) cookies.push(...headers.getSetCookie());
  return cookies;
}
