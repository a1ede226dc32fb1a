// An order's conversation: its messages, read marks and what is unread (PostgREST, under RLS).
import type { ConversationCalls } from "../port.server";
import { check, rowsOf } from "./client.server";
import type { SupabaseContext } from "./context.server";

export function conversation({ supabase }: SupabaseContext): ConversationCalls {
  return {
    async listMessages(code) {
      const { data, error } = await supabase.rpc("order_messages_of", { p_code: code });
      return { rows: rowsOf(data), error: check(error) };
    },
    async postMessage({ code, fromMixer, body }) {
      const { data, error } = await supabase.rpc("post_order_message", { p_code: code, p_from_mixer: fromMixer, p_body: body });
      return { id: error || typeof data !== "string" ? null : data, error: check(error) };
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
