// Our own signed cookie storage: never remix-toast's default secret.
import crypto from "node:crypto";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { dataWithToast, getToast, redirectWithToast } from "remix-toast";
import type { Toast } from "~/components/toaster";
import { cookieName, cookieStorage, hasCookie } from "./cookies.server";

export type ToastInput = Omit<Toast, "id" | "type"> & { type?: Toast["type"] };

type ToastState = { request: Request; current: Toast | null; setHere: boolean; taken: boolean };
const toastState = createContext<ToastState>();

const withId = ({ type = "success", ...rest }: ToastInput): Toast => ({
  id: crypto.randomBytes(6).toString("base64url"),
  type,
  ...rest,
});

export const toastMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const storage = cookieStorage("toast", request);
  const incoming = hasCookie("toast", request) ? await getToast(request, storage) : null;
  const state: ToastState = { request, current: readToast(incoming?.toast), setHere: false, taken: false };
  context.set(toastState, state);
  const response = await next();
  // A redirect (or React Router's 202) shows its toast on the next page: the cookie stays.
  if ((response.status >= 300 && response.status < 400) || response.status === 202) return response;
  const name = `${cookieName("toast", request)}=`;
  const setsToast = response.headers.getSetCookie().some((c) => c.startsWith(name));
  if (state.setHere && state.taken) {
    // Without JavaScript the action and its page are one request: don't show the toast twice.
    response.headers.append("Set-Cookie", await storage.destroySession(await storage.getSession()));
  } else if (incoming && !setsToast) {
    for (const cookie of incoming.headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  }
  return response;
};

export function takeToast(context: Readonly<RouterContextProvider>): Toast | null {
  const state = context.get(toastState);
  state.taken = true;
  return state.current;
}

export function toast(context: Readonly<RouterContextProvider>) {
  const state = context.get(toastState);
  const storage = cookieStorage("toast", state.request);
  const set = (input: ToastInput) => {
    const t = withId(input);
    state.current = t;
    state.setHere = true;
    return t;
  };
  return {
    redirect: (to: string, input: ToastInput, init?: ResponseInit) => redirectWithToast(to, set(input), init, storage),
    data: <T>(data: T, input: ToastInput, init?: ResponseInit) => dataWithToast(data, set(input), init, storage),
  };
}

const TYPES = new Set<Toast["type"]>(["success", "error", "info", "warning"]);
function readToast(value: unknown): Toast | null {
  if (!value || typeof value !== "object") return null;
  const { id, type, message, description, notice, resendFor } = value as Record<string, unknown>;
  if (typeof message !== "string" || !TYPES.has(type as Toast["type"])) return null;
  return {
    id: typeof id === "string" ? id : crypto.randomBytes(6).toString("base64url"),
    type: type as Toast["type"],
    message,
    ...(typeof description === "string" ? { description } : {}),
    ...(typeof notice === "string" ? { notice } : {}),
    ...(typeof resendFor === "string" ? { resendFor } : {}),
  };
}
