import type { Logger } from "pino";
import type { DbStats } from "./platform/db-stats.server";
import { createContext, redirect, type RouterContextProvider } from "react-router";
import type { BackendRequest, User } from "./backend/port.server";

export type RequestInfo = {
  nonce: string;
  /** IPv6 per /64. */
  clientIp: string;
  requestId: string;
  log: Logger;
  /** Absent outside the HTTP server: the task then runs on the next turn of the event loop. */
  afterResponse?: (task: () => void) => void;
  /** What the request asks of the database (the SQL adapter counts; written on the request's log line). */
  dbStats?: DbStats;
  /**
   * The sender may upload (a mixer, an order that takes a tape): its body gets the upload's long
   * timeout instead of every body's 30 s (server/bodies.ts). Absent outside the HTTP server.
   */
  allowUploadBody?: () => void;
};

export const requestContext = createContext<RequestInfo>();
export const backendContext = createContext<BackendRequest>();
export const userContext = createContext<User | null>(null);

type Context = Readonly<RouterContextProvider>;

export const backendOf = (context: Context) => context.get(backendContext);

export function requireUser(context: Context): { user: User; api: BackendRequest } {
  const user = context.get(userContext);
  if (!user) throw redirect("/auth");
  return { user, api: context.get(backendContext) };
}
