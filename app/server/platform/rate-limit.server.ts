// The rate limits as a route asks them: the request's address (requestContext) against the process's
// limits (rootContext; platform/rate-limiter.server.ts). Each answers null, or the seconds to wait.
import type { RouterContextProvider } from "react-router";
import { requestContext } from "../context.server";
import { rootOf } from "../root.server";
import type { LimitedAction } from "./rate-limiter.server";

type Context = Readonly<RouterContextProvider>;

export type { LimitedAction };

export const limitAuth = (context: Context, action: LimitedAction, identifier: string) =>
  rootOf(context).rateLimits.auth(context.get(requestContext).clientIp, action, identifier);

/** A username login also spends its account email's budget. */
export const limitIdentifier = (context: Context, action: LimitedAction, identifier: string) =>
  rootOf(context).rateLimits.identifier(action, identifier);

export const limitClientErrors = (context: Context) =>
  rootOf(context).rateLimits.clientErrors(context.get(requestContext).clientIp);
