// The one place that builds the request's backend and turns a database outage into the 503 page.
import { data, type MiddlewareFunction } from "react-router";
import { COPY } from "~/domain/copy";
import { getBackend } from "./backend/index.server";
import { BackendUnavailableError, type BackendRequest } from "./backend/port.server";
import { backendContext, requestContext, userContext, type RequestInfo } from "./context.server";
import { PROBE_PATHS } from "./platform/http.server";
import { reason } from "./platform/log.server";

export const backendMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const info = context.get(requestContext);
  // The host's probes need no session, and a database outage is readiness's own answer.
  if (PROBE_PATHS.has(new URL(request.url).pathname)) return next();
  const api = withOutagePage(await outageAsPage(info, () => getBackend()).then((b) => b.forRequest(request)), info);
  context.set(backendContext, api);
  const user = await api.getUser();
  context.set(userContext, user);
  const response = await next();
  for (const cookie of api.headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
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

/** The same calls, where an outage answers with the 503 page instead of an error. */
function withOutagePage(api: BackendRequest, info: RequestInfo): BackendRequest {
  const wrapped: Record<string, unknown> = { headers: api.headers };
  for (const [key, value] of Object.entries(api)) {
    if (typeof value === "function") wrapped[key] = (...args: unknown[]) => outageAsPage(info, () => value.apply(api, args));
  }
  return wrapped as unknown as BackendRequest;
}
