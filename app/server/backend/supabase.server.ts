// The Supabase adapter: @supabase/ssr's server client with getAll/setAll over the
// request cookies and the response headers.
import { createServerClient, parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import { isHttps } from "../platform/cookies.server";
import type { Backend, BackendError, BackendRequest } from "./port.server";
import { BackendUnavailableError } from "./port.server";

type SbError = { message: string; code?: string; status?: number } | null;
const err = (e: SbError): BackendError | null => (e ? { message: e.message, code: e.code, status: e.status } : null);

/** A fetch failure (network down) or a gateway error (502-504) is an outage, not an answer. */
const unavailable = (e: SbError) =>
  e &&
  (e.status === 0 ||
    (e.status !== undefined && e.status >= 502 && e.status <= 504) ||
    /fetch failed|ECONNREFUSED|network/i.test(e.message))
    ? new BackendUnavailableError(e)
    : null;
function check(e: SbError) {
  const outage = unavailable(e);
  if (outage) throw outage;
  return err(e);
}

/**
 * supabase-js builds its realtime client eagerly, which needs a WebSocket constructor
 * that Node 20 lacks. This adapter never opens a realtime channel.
 */
class NoRealtimeTransport {
  constructor() {
    throw new Error("Supabase Realtime is not used by this app.");
  }
}

export function createSupabaseBackend(opts: { url: string; anonKey: string; fetch?: typeof fetch }): Backend {
  return {
    kind: "supabase",
    async health() {
      try {
        const res = await (opts.fetch ?? fetch)(new URL("/auth/v1/health", opts.url), { headers: { apikey: opts.anonKey } });
        return res.ok;
      } catch {
        return false;
      }
    },
    async close() {},
    forRequest(request: Request): BackendRequest {
      const headers = new Headers();
      const secure = isHttps(request);
      const supabase = createServerClient(opts.url, opts.anonKey, {
        global: opts.fetch ? { fetch: opts.fetch } : undefined,
        realtime: { transport: NoRealtimeTransport as never },
        cookieOptions: { secure, sameSite: "lax", httpOnly: true, path: "/" },
        cookies: {
          getAll: () =>
            parseCookieHeader(request.headers.get("Cookie") ?? "").map((c) => ({ name: c.name, value: c.value ?? "" })),
          setAll: (cookies) => {
            for (const { name, value, options } of cookies)
              headers.append("Set-Cookie", serializeCookieHeader(name, value, options));
          },
        },
      });

      return {
        headers,
        async getUser() {
          const { data, error } = await supabase.auth.getUser();
          if (error) {
            if (unavailable(error)) throw unavailable(error);
            return null;
          }
          return data.user ? { id: data.user.id, email: data.user.email ?? null } : null;
        },
        async signInWithPassword({ email, password }) {
          const { error } = await supabase.auth.signInWithPassword({ email, password });
          return { error: check(error) };
        },
        async signUp({ email, password, username, emailRedirectTo }) {
          const { data, error } = await supabase.auth.signUp({
            email,
            password,
            options: { emailRedirectTo, data: { username } },
          });
          return { userId: data?.user?.id ?? null, error: check(error) };
        },
        async verifyOtp({ tokenHash, type }) {
          const { error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: type as "signup" | "email" });
          return { error: check(error) };
        },
        async exchangeCodeForSession(code) {
          const { error } = await supabase.auth.exchangeCodeForSession(code);
          return { error: check(error) };
        },
        async signOut() {
          await supabase.auth.signOut();
        },
        async usernameExists(username) {
          const { data, error } = await supabase.rpc("username_exists", { p_username: username });
          return { exists: data === true, error: check(error) };
        },
        async getProfile(userId) {
          const { data, error } = await supabase.from("profiles").select("username").eq("id", userId).maybeSingle();
          return { username: (data?.username as string | null | undefined) ?? null, error: check(error) };
        },
        async insertOrder(order) {
          const { error } = await supabase.from("mixtapes").insert(order);
          return { error: check(error) };
        },
        async listOrders(userId, filter) {
          let query = supabase.from("mixtapes").select("*").eq("user_id", userId);
          if (filter?.code) query = query.eq("code", filter.code);
          const { data, error } = await query.order("created_at", { ascending: false });
          return { rows: (data as Record<string, unknown>[] | null) ?? [], error: check(error) };
        },
      };
    },
  };
}
