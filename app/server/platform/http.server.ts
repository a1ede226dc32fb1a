import { data } from "react-router";
import { COPY } from "~/domain/copy";
import { hasControlCharacter } from "~/domain/text";
import { getConfig } from "./config.server";

/** Never the request's Host. */
export const siteOrigin = () => getConfig().siteUrl;

/** Only same-origin paths: never an open redirect. */
export function safeRedirectPath(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.includes("\\") || hasControlCharacter(to)) return fallback;
  if (new URL(to, "http://x").origin !== "http://x") return fallback;
  return to;
}

export const WEBHOOK_BODY_LIMIT = 64 * 1024;

/** A host's probes: liveness and readiness (docs/deploy.md, "Health and readiness"). */
export const PROBE_PATHS: ReadonlySet<string> = new Set(["/healthz", "/readyz"]);

/** An unreadable body is a 400 with a clear message, never a 500. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ message: COPY.errors.badRequest }, { status: 400 });
  }
}

export const notFound = () => data({ message: "Not found" }, { status: 404 });

export const isFetch = (form: FormData) => form.get("_fetch") === "1";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
