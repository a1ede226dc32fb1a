// Small helpers shared by route modules: merging headers, redirects that carry the
// backend's cookies, and the 503 answer when the database is down.
import { data, redirect } from "react-router";
import { COPY } from "~/domain/copy";
import { BackendUnavailableError } from "./backend.server";

export function mergeHeaders(...sources: (Headers | undefined)[]): Headers {
  const out = new Headers();
  for (const source of sources) {
    if (!source) continue;
    source.forEach((value, key) => {
      if (key.toLowerCase() !== "set-cookie") out.set(key, value);
    });
    for (const cookie of source.getSetCookie()) out.append("Set-Cookie", cookie);
  }
  return out;
}

export const redirectWith = (to: string, ...headers: (Headers | undefined)[]) =>
  redirect(to, { headers: mergeHeaders(...headers) });

/** Only same-origin paths: never an open redirect. */
export function safeRedirectPath(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  if (new URL(to, "http://x").origin !== "http://x") return fallback;
  return to;
}

/** The form of a POST; an unreadable body is a 400 with a clear message, never a 500. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ message: COPY.errors.badRequest }, { status: 400 });
  }
}

/** Wraps loader/action work: a database outage becomes a clear 503, never a 500. */
export async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BackendUnavailableError) {
      console.error("[backend] unavailable:", (error.cause as Error)?.message ?? error.message);
      throw data({ message: COPY.errors.unavailable }, { status: 503, headers: { "Retry-After": "5" } });
    }
    throw error;
  }
}

/** True when the form was sent by a fetcher (JavaScript), not by a plain form post. */
export const isFetch = (form: FormData) => form.get("_fetch") === "1";
