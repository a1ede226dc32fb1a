// The root middleware: the one place that builds the request's backend, turns a database outage
// into the 503 page, and writes the answer's cookies (each once, as Hydrogen's server.ts commits
// its session); the toasts' own middleware is remix-toast's (platform/toast.server.ts).
import { data, type MiddlewareFunction } from "react-router";
import { COPY } from "~/domain/copy";
import { BackendUnavailableError, type BackendRequest } from "./backend/port.server";
import { backendContext, requestContext, userContext, type RequestInfo } from "./context.server";
import { changedCookies, openCookieJar, passCookies } from "./platform/cookies.server";
import { PROBE_PATHS } from "./platform/http.server";
import { reason } from "./platform/log.server";
import { rootOf } from "./root.server";
import { toastMiddleware } from "./platform/toast.server";

/** Every cookie the answer sets: the sessions that changed (deck, password reset) and the backend's own. */
export const cookieMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  openCookieJar(context, request);
  const response = await next();
  for (const cookie of await changedCookies(context)) response.headers.append("Set-Cookie", cookie);
  return response;
};

export const backendMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const info = context.get(requestContext);
  // The host's probes need no session, and a database outage is readiness's own answer.
  if (PROBE_PATHS.has(new URL(request.url).pathname)) return next();
  // The process's backend (the composition root's, opened before the server listened): this request's calls.
  const api = withOutagePage(rootOf(context).backend.forRequest(request, info.dbStats), info);
  context.set(backendContext, api);
  const user = await api.getUser();
  context.set(userContext, user);
  passCookies(context, api.headers);
  const response = await next();
  // A signed-in answer is the person's own: no shared cache keeps it, and no browser cache either.
  if (user) response.headers.set("Cache-Control", "private, no-store");
  return response;
};

const outage = () => data({ message: COPY.errors.unavailable }, { status: 503, headers: { "Retry-After": "5" } });

async function outageAsPage<T>(info: RequestInfo, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof BackendUnavailableError)) throw error;
    info.log.error({ err: reason(error.cause ?? error) }, "backend unavailable");
    throw outage();
  }
}

/** The same calls, where an outage answers with the 503 page instead of an error (methods of a class's prototype too). */
export function withOutagePage(api: BackendRequest, info: RequestInfo): BackendRequest {
  return new Proxy(api, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => outageAsPage(info, () => value.apply(target, args));
    },
  });
}

/** The root route's middleware, outermost first. */
export const rootMiddleware: MiddlewareFunction<Response>[] = [cookieMiddleware, ...toastMiddleware, backendMiddleware];
