// Orders: the shopper's insert and list, the mixers' queue, status changes (PostgREST, under RLS).
import { DUE_DAYS } from "~/domain/orders";
import { changeColumns, type OrderCalls } from "../port.server";
import { check, rowsOf } from "./client.server";
import type { SupabaseContext } from "./context.server";

export function orders({ supabase }: SupabaseContext): OrderCalls {
  return {
    async insertOrder(order) {
      const { error } = await supabase.from("mixtapes").insert(order);
      return { error: check(error) };
    },
    async listQueue({ status, unpaid, late, code, newestFirst, limit, offset }) {
      // order_money, order_paid and order_tape are computed columns: the ledger's one rule, in SQL, and the tape.
      let query = supabase.from("mixtapes").select("*, money:order_money, tape:order_tape, profiles(username, email)");
      if (status) query = query.eq("status", status);
      if (unpaid) query = query.eq("order_paid", false);
      if (late)
        query = query
          .in("status", ["received", "mixing"])
          .lt("created_at", new Date(Date.now() - DUE_DAYS * 24 * 3600 * 1000).toISOString());
      if (code) query = query.like("code", `${code}%`);
      query = newestFirst
        ? query.order("created_at", { ascending: false }).order("id", { ascending: false })
        : query.order("finished").order("created_at").order("id");
      const { data, error } = await query.range(offset, offset + limit - 1);
      const rows = rowsOf(data).map(({ profiles, ...row }) => {
        const p = (profiles ?? {}) as { username?: string | null; email?: string | null };
        return { ...row, username: p.username ?? null, email: p.email ?? null };
      });
      return { rows, error: check(error) };
    },
    async updateOrder(code, change) {
      const { set, when } = changeColumns(change);
      let query = supabase.from("mixtapes").update(set).eq("code", code);
      for (const [column, value] of Object.entries(when)) query = query.eq(column, value as string | boolean);
      const { data, error } = await query.select("code");
      return { updated: !error && (data?.length ?? 0) === 1, error: check(error) };
    },
    async listOrders(userId, filter) {
      let query = supabase.from("mixtapes").select("*, money:order_money, tape:order_tape").eq("user_id", userId);
      if (filter?.code) query = query.eq("code", filter.code);
      query = query.order("created_at", { ascending: false }).order("id", { ascending: false });
      if (filter?.page) query = query.range(filter.page.offset, filter.page.offset + filter.page.limit - 1);
      const { data, error } = await query;
      return { rows: rowsOf(data), error: check(error) };
    },
  };
}
