// Sign-up, sign-in (by email, or by username through the service role), the session, email links, the password: Supabase Auth.
import type { AuthCalls } from "../port.server";
import { check, unavailable } from "./client.server";
import type { SupabaseContext } from "./context.server";

export function auth({ supabase, service }: SupabaseContext): AuthCalls {
  return {
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
      const { error } = await supabase.auth.verifyOtp({
        token_hash: tokenHash,
        type: type as "signup" | "email" | "recovery",
      });
      return { error: check(error) };
    },
    async exchangeCodeForSession(code) {
      const { error } = await supabase.auth.exchangeCodeForSession(code);
      return { error: check(error) };
    },
    async updateUser({ password }) {
      const { error } = await supabase.auth.updateUser({ password });
      return { error: check(error) };
    },
    async signOut(options) {
      const { error } = await supabase.auth.signOut(options?.scope === "others" ? { scope: "others" } : undefined);
      return { error: check(error) };
    },
    async usernameExists(username) {
      const { data, error } = await supabase.rpc("username_exists", { p_username: username });
      return { exists: data === true, error: check(error) };
    },
    async findAccountByUsername(username) {
      if (!service) return { account: null, error: null };
      // Any case, as profiles_username_lower_key: ilike with its wildcards escaped.
      const pattern = username.replace(/[\\%_]/g, "\\$&");
      const profile = await service
        .from("profiles")
        .select("id")
        .ilike("username", pattern)
        .order("username_clash")
        .order("created_at")
        .limit(1)
        .maybeSingle();
      const failed = check(profile.error);
      if (failed || !profile.data) return { account: null, error: failed };
      const { data, error } = await service.auth.admin.getUserById(String(profile.data.id));
      const adminFailed = check(error);
      if (adminFailed || !data.user?.email) return { account: null, error: adminFailed };
      return { account: { email: data.user.email, confirmed: Boolean(data.user.email_confirmed_at) }, error: null };
    },
  };
}
