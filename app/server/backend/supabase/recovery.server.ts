// Reset links, resent confirmations (Supabase Auth sends both), and the recovery windows (a table under RLS).
import type { RecoveryCalls } from "../port.server";
import { check } from "./client.server";
import type { SupabaseContext } from "./context.server";

export function recovery({ supabase }: SupabaseContext): RecoveryCalls {
  return {
    async resetPasswordForEmail({ email, redirectTo }) {
      const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo });
      return { error: check(error) };
    },
    async resend({ type, email, emailRedirectTo }) {
      const { error } = await supabase.auth.resend({ type, email, options: { emailRedirectTo } });
      return { error: check(error) };
    },
    async openRecoveryWindow(id, until) {
      const { error } = await supabase.from("recovery_windows").insert({ id, expires_at: until.toISOString() });
      return { error: check(error) };
    },
    async recoveryWindowOpen(id) {
      const { data, error } = await supabase
        .from("recovery_windows")
        .select("id")
        .eq("id", id)
        .gt("expires_at", new Date().toISOString());
      if (check(error)) return false;
      return (data?.length ?? 0) === 1;
    },
    async takeRecoveryWindow(id) {
      const { data, error } = await supabase
        .from("recovery_windows")
        .delete()
        .eq("id", id)
        .gt("expires_at", new Date().toISOString())
        .select("expires_at");
      const row = (data as { expires_at: string }[] | null)?.[0];
      return { until: row ? new Date(row.expires_at) : null, error: check(error) };
    },
  };
}
