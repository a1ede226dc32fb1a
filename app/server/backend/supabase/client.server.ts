// The Supabase adapter's plumbing: its clients, and how their errors become the port's.
import { createServerClient, parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { isHttps } from "../../platform/cookies.server";
import { BackendUnavailableError, type BackendError } from "../port.server";

type SbError = { message: string; code?: string; status?: number } | null;
const err = (e: SbError): BackendError | null => (e ? { message: e.message, code: e.code, status: e.status } : null);

/** A fetch failure or a gateway error (502-504) is an outage, not an answer. */
export const unavailable = (e: SbError) =>
  e &&
  (e.status === 0 ||
    (e.status !== undefined && e.status >= 502 && e.status <= 504) ||
    /fetch failed|ECONNREFUSED|network/i.test(e.message))
    ? new BackendUnavailableError(e)
    : null;
export function check(e: SbError) {
  const outage = unavailable(e);
  if (outage) throw outage;
  return err(e);
}

/** For the service's own calls, which have no answer to carry an error: it is thrown. */
export function must(e: SbError): void {
  const failed = check(e);
  if (failed) throw new Error(failed.message);
}

/** PostgREST's rows, none when it answered with an error. */
export const rowsOf = (data: unknown): Record<string, unknown>[] => (data as Record<string, unknown>[] | null) ?? [];

/** It bypasses RLS and reaches the Auth admin API: server-side only. */
export function serviceClient(opts: { url: string; serviceKey: string; fetch?: typeof fetch }): SupabaseClient {
  return createClient(opts.url, opts.serviceKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: opts.fetch ? { fetch: opts.fetch } : undefined,
  });
}

/** The request's own client: its session is in the request's cookies, and what it sets goes out in `headers`. */
export function requestClient(
  opts: { url: string; anonKey: string; fetch?: typeof fetch },
  request: Request,
  headers: Headers,
): SupabaseClient {
  const secure = isHttps(request);
  return createServerClient(opts.url, opts.anonKey, {
    global: opts.fetch ? { fetch: opts.fetch } : undefined,
    cookieOptions: { secure, sameSite: "lax", httpOnly: true, path: "/" },
    cookies: {
      getAll: () => parseCookieHeader(request.headers.get("Cookie") ?? "").map((c) => ({ name: c.name, value: c.value ?? "" })),
      setAll: (cookies) => {
        for (const { name, value, options } of cookies) headers.append("Set-Cookie", serializeCookieHeader(name, value, options));
      },
    },
  });
}
