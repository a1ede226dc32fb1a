// Toasts: remix-toast over our own signed cookie storage (never its default secret).
import crypto from "node:crypto";
import { createToastUtilsWithCustomSession } from "remix-toast";
import { cookieStorage, hasCookie } from "./cookies.server";

export type Toast = {
  id: string;
  type: "success" | "error" | "info" | "warning";
  message: string;
  description?: string;
};

export const toastUtils = (request: Request) => createToastUtilsWithCustomSession(cookieStorage("toast", request));

export const newToast = (type: Toast["type"], message: string, description?: string): Toast => ({
  id: crypto.randomBytes(6).toString("base64url"),
  type,
  message,
  ...(description ? { description } : {}),
});

/** Sets a flash toast on the headers (for a redirect that follows). */
export async function flashToast(request: Request, headers: Headers, toast: Omit<Toast, "id">) {
  const storage = cookieStorage("toast", request);
  const session = await storage.getSession();
  session.flash("flash", { toast: { ...toast, id: crypto.randomBytes(6).toString("base64url") } });
  headers.append("Set-Cookie", await storage.commitSession(session));
}

/** Reads and clears the flash toast; no cookie work when there is none. */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  if (!hasCookie("toast", request)) return { toast: null, headers: new Headers() };
  const { toast, headers } = await toastUtils(request).getToast(request);
  if (!toast) return { toast: null, headers };
  const id = typeof toast.id === "string" ? toast.id : crypto.randomBytes(6).toString("base64url");
  return { toast: { id, type: toast.type, message: toast.message, description: toast.description }, headers };
}
