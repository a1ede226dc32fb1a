// Toasts through remix-toast's middleware, in our own signed cookie (never remix-toast's default secret).
import crypto from "node:crypto";
import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { getToast, setToast, toastMiddleware as remixToastMiddleware } from "remix-toast/middleware";
import type { Toast } from "~/domain/toast";
import { cookieStorage } from "./cookies.server";

export type ToastInput = Omit<Toast, "id" | "type"> & { type?: Toast["type"] };

type ToastState = { current: Toast | null; setHere: boolean; taken: boolean };
const toastState = createContext<ToastState>();
type Context = Readonly<RouterContextProvider>;

const withId = ({ type = "success", ...rest }: ToastInput): Toast => ({
  id: crypto.randomBytes(6).toString("base64url"),
  type,
  ...rest,
});

const isRedirect = (response: Response) => (response.status >= 300 && response.status < 400) || response.status === 202;

/**
 * remix-toast reads the flash toast in and writes a new one out, once per answer. Inside it, the
 * choice of what goes out: without JavaScript an action and its page are one request, so a toast
 * shown on this page is not flashed again; a redirect (or React Router's 202) carries the toast,
 * set here or still unseen, to the next page.
 */
export const toastMiddleware: MiddlewareFunction<Response>[] = [
  (args, next) => remixToastMiddleware({ customSession: cookieStorage("toast", args.request) })(args, next) as Promise<Response>,
  async ({ context }, next) => {
    const incoming = getToast(context);
    const state: ToastState = { current: readToast(incoming), setHere: false, taken: false };
    context.set(toastState, state);
    const response = await next();
    const keep = state.setHere ? !state.taken || isRedirect(response) : !state.taken && isRedirect(response);
    if (keep && state.current) setToast(context, state.current);
    return response;
  },
];

/** The toast this page shows: set by this request's action, else the one flashed to it. */
export function takeToast(context: Context): Toast | null {
  const state = context.get(toastState);
  state.taken = true;
  return state.current;
}

/** An answer with a toast: the middleware writes it out. */
export function toast(context: Context) {
  const state = context.get(toastState);
  const set = (input: ToastInput) => {
    state.current = withId(input);
    state.setHere = true;
  };
  return {
    redirect: (to: string, input: ToastInput, init?: ResponseInit) => {
      set(input);
      return redirect(to, init);
    },
    data: <T>(body: T, input: ToastInput, init?: ResponseInit) => {
      set(input);
      return data(body, init);
    },
  };
}

const TYPES = new Set<Toast["type"]>(["success", "error", "info", "warning"]);
function readToast(value: unknown): Toast | null {
  if (!value || typeof value !== "object") return null;
  const { id, type, message, description, notice, resendFor, place, before } = value as Record<string, unknown>;
  if (typeof message !== "string" || !TYPES.has(type as Toast["type"])) return null;
  return {
    id: typeof id === "string" ? id : crypto.randomBytes(6).toString("base64url"),
    type: type as Toast["type"],
    message,
    ...(typeof description === "string" ? { description } : {}),
    ...(typeof notice === "string" ? { notice } : {}),
    ...(typeof resendFor === "string" ? { resendFor } : {}),
    ...(typeof place === "string" ? { place } : {}),
    ...(typeof before === "string" ? { before } : {}),
  };
}
