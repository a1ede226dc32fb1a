// Orders: the shopper's insert and list, the mixers' queue, status changes (PostgREST, under RLS).
// A page's orders are read once, with their money and tapes (public.orders_read, through its page's function).
import { changeColumns, type OrderCalls } from "../port.server";
import { check, rowsOf } from "./client.server";
import type { SupabaseContext } from "./context.server";

export function orders({ supabase }: SupabaseContext): OrderCalls {
  return {
    async insertOrder(order) {
      const { error } = await supabase.from("mixtapes").insert(order);
      return { error: check(error) };
    },
    async listQueue({ status, unpaid, late, code, dueDays, newestFirst, limit, after, backward }) {
      const { data, error } = await supabase.rpc("queue_page", {
        p_status: status,
        p_unpaid: unpaid,
        p_late: late,
        p_code: code,
        p_due_days: dueDays,
        p_newest_first: newestFirst,
        p_after_finished: after?.finished ?? null,
        p_after_at: after?.at ?? null,
        p_after_id: after?.id ?? null,
        p_backward: backward,
        p_limit: limit,
      });
      return { rows: rowsOf(data), error: check(error) };
    },
    async updateOrder(code, change) {
      const { set, when } = changeColumns(change);
      let query = supabase.from("mixtapes").update(set).eq("code", code);
      for (const [column, value] of Object.entries(when)) query = query.eq(column, value as string | boolean);
      const { data, error } = await query.select("code");
      return { updated: !error && (data?.length ?? 0) === 1, error: check(error) };
    },
    async listOrders(userId, filter) {
      const code = filter && "code" in filter ? filter.code : null;
      const page = filter && "page" in filter ? filter.page : null;
      const { data, error } = await supabase.rpc("my_orders", {
        p_user_id: userId,
        p_code: code,
        p_after_at: page?.after?.at ?? null,
        p_after_id: page?.after?.id ?? null,
        p_backward: page?.backward ?? false,
        p_limit: page?.limit ?? null,
      });
      return { rows: rowsOf(data), error: check(error) };
    },
  };
}
