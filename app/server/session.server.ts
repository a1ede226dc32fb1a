// The signed-in user for a request, and the redirects around it.
import { redirect } from "react-router";
import { displayName } from "~/domain/display-name";
import type { BackendRequest, User } from "./backend.server";
import { mergeHeaders } from "./http.server";
import { getBackend } from "./runtime.server";

export async function backendFor(request: Request): Promise<BackendRequest> {
  const cached = perRequest.get(request);
  if (cached) return cached;
  const api = (await getBackend()).forRequest(request);
  perRequest.set(request, api);
  return api;
}
// Loaders of one request share one backend request (one session lookup).
const perRequest = new WeakMap<Request, BackendRequest>();

/** The signed-in user, or a redirect to /auth (spec: signed-out users go to /auth). */
export async function requireUser(request: Request): Promise<{ user: User; api: BackendRequest }> {
  const api = await backendFor(request);
  const user = await api.getUser();
  if (!user) throw redirect("/auth", { headers: mergeHeaders(api.headers) });
  return { user, api };
}

export async function userDisplayName(api: BackendRequest, user: User): Promise<string> {
  const { username, error } = await api.getProfile(user.id);
  if (error) {
    console.error("[profile] read failed:", error.message);
    return displayName({ state: "error" });
  }
  return displayName({ state: "ready", username, email: user.email });
}
