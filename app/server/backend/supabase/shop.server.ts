// The shop: open or closed, full, its settings (mixers save them), the insights (mixers only) and the queue's counts.
import type { ShopCalls } from "../port.server";
import { check } from "./client.server";
import type { SupabaseContext } from "./context.server";

export function shop({ supabase }: SupabaseContext): ShopCalls {
  return {
    async shopStatus() {
      const { data, error } = await supabase.rpc("shop_status").maybeSingle();
      const row = data as { open: boolean; closed_message: string; is_full: boolean } | null;
      return {
        status: row ? { open: row.open, closedMessage: row.closed_message, full: row.is_full } : null,
        error: check(error),
      };
    },
    async shopSettings() {
      const { data, error } = await supabase.from("shop_settings").select("open, closed_message, max_open_orders").maybeSingle();
      return {
        settings: data ? { open: data.open, closedMessage: data.closed_message, maxOpenOrders: data.max_open_orders } : null,
        error: check(error),
      };
    },
    async saveShopSettings({ open, closedMessage, maxOpenOrders }) {
      const { data, error } = await supabase
        .from("shop_settings")
        .update({ open, closed_message: closedMessage, max_open_orders: maxOpenOrders })
        .eq("id", true)
        .select("id");
      return { saved: !error && (data?.length ?? 0) === 1, error: check(error) };
    },
    async insights({ weeks, dueDays, turnaroundDays }) {
      const { data, error } = await supabase.rpc("shop_insights", {
        p_weeks: weeks,
        p_due_days: dueDays,
        p_turnaround_days: turnaroundDays,
      });
      const insights = data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
      return { insights: error ? null : insights, error: check(error) };
    },
    async queueCounts({ code, dueDays }) {
      const { data, error } = await supabase.rpc("queue_counts", { p_code: code, p_due_days: dueDays });
      const counts = data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
      return { counts: error ? null : counts, error: check(error) };
    },
  };
}
