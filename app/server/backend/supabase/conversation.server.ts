// An order's conversation: its messages, read marks and what is unread (PostgREST, under RLS).
import type { ConversationCalls } from "../port.server";
import { check, rowsOf } from "./client.server";
import type { SupabaseContext } from "./index.server";

export function conversation({ supabase }: SupabaseContext): ConversationCalls {
  return {
    async listMessages(orderId) {
      const { data, error } = await supabase
        .from("order_messages")
        .select("id, from_mixer, body, created_at")
        .eq("order_id", orderId)
        .order("created_at")
        .order("id");
      return { rows: rowsOf(data), error: check(error) };
    },
    async postMessage({ orderId, fromMixer, body }) {
      const { data, error } = await supabase
        .from("order_messages")
        .insert({ order_id: Number(orderId), from_mixer: fromMixer, body })
        .select("id")
        .single();
      const id = (data as { id?: unknown } | null)?.id;
      return { id: error || id === undefined || id === null ? null : String(id), error: check(error) };
    },
    async markOrderRead(code, side) {
      const { data, error } = await supabase.rpc("mark_order_read", { p_code: code, p_side: side });
      return { marked: data === true, error: check(error) };
    },
    async unreadMessages(side) {
      const { data, error } = await supabase.rpc("unread_messages", { p_side: side });
      return { rows: rowsOf(data), error: check(error) };
    },
  };
}
