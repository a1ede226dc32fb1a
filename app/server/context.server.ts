// What every loader, action and middleware can read from the request's context: the
// facts the HTTP server found (server/app.ts), the backend for this request, and the
// signed-in user (both set by the root middleware, middleware.server.ts).
import type { Logger } from "pino";
import { createContext, redirect, type RouterContextProvider } from "react-router";
import type { BackendRequest, User } from "./backend/port.server";

export type RequestInfo = {
  /** The CSP nonce every script tag carries. */
  nonce: string;
  /** The client's address as the rate limits key it (IPv6 per /64). */
  clientIp: string;
  requestId: string;
  log: Logger;
  /** Set when the HTTP server refused the request: its page is rendered instead. */
  refusal?: { status: number; message: string };
  /**
   * Runs the task once the response has gone out (server/app.ts); see
   * platform/after-answer.server.ts. Absent outside the HTTP server: the task then runs
   * on the next turn of the event loop.
   */
  afterResponse?: (task: () => void) => void;
};

export const requestContext = createContext<RequestInfo>();
export const backendContext = createContext<BackendRequest>();
export const userContext = createContext<User | null>(null);

type Context = Readonly<RouterContextProvider>;

/** The backend of this request (built once, by the root middleware). */
export const backendOf = (context: Context) => context.get(backendContext);

/** The signed-in user, or a redirect to /auth. */
export function requireUser(context: Context): { user: User; api: BackendRequest } {
  const user = context.get(userContext);
  if (!user) throw redirect("/auth");
  return { user, api: context.get(backendContext) };
}
