// Small HTTP helpers for route modules and mail: reading a form, safe redirect
// targets, HTML escaping.
import { data } from "react-router";
import { COPY } from "~/domain/copy";
import { hasControlCharacter } from "~/domain/text";
import { getConfig } from "./config.server";

/** The origin of every link in an email: SITE_URL, else http://localhost:PORT; never the request's Host. */
export const siteOrigin = () => getConfig().siteUrl;

/** Only same-origin paths: never an open redirect. */
export function safeRedirectPath(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.includes("\\") || hasControlCharacter(to)) return fallback;
  if (new URL(to, "http://x").origin !== "http://x") return fallback;
  return to;
}

/** A checkout's webhook body larger than this is refused before it is read (server/app.ts). */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

/** The form of a POST; an unreadable body is a 400 with a clear message, never a 500. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ message: COPY.errors.badRequest }, { status: 400 });
  }
}

/** The ordinary 404 page (thrown). */
export const notFound = () => data({ message: "Not found" }, { status: 404 });

/** True when the form was sent by a fetcher (JavaScript), not by a plain form post. */
export const isFetch = (form: FormData) => form.get("_fetch") === "1";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
