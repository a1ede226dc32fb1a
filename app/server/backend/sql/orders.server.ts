// Orders: the shopper's insert and list, the mixers' queue, status changes (as the session's role, under RLS).
// A page's orders are read once, with their money and tapes (public.orders_read).
import { changeColumns, type OrderCalls } from "../port.server";
import { attempt } from "./db.server";
import type { SqlContext } from "./context.server";

export function orders({ asSession }: SqlContext): OrderCalls {
  return {
    insertOrder: (order) =>
      attempt({}, async () => {
        await asSession((tx) =>
          tx.query(
            `insert into public.mixtapes (user_id, code, tracks, toggles, note, design_id, codename)
             values ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7)`,
            [
              order.user_id,
              order.code,
              JSON.stringify(order.tracks),
              JSON.stringify(order.toggles),
              order.note,
              order.design_id,
              order.codename,
            ],
          ),
        );
        return {};
      }),

    listOrders: (userId, filter) =>
      attempt({ rows: [] }, async () => {
        const code = filter && "code" in filter ? filter.code : null;
        const page = filter && "page" in filter ? filter.page : null;
        const result = await asSession((tx) =>
          tx.query(`select * from public.my_orders($1, $2, $3, $4, $5, $6)`, [
            userId,
            code,
            page?.after?.at ?? null,
            page?.after?.id ?? null,
            page?.backward ?? false,
            page?.limit ?? null,
          ]),
        );
        return { rows: result.rows };
      }),

    listQueue: ({ status, unpaid, late, code, dueDays, newestFirst, limit, after, backward }) =>
      attempt({ rows: [] }, async () => {
        const result = await asSession((tx) =>
          tx.query(`select * from public.queue_page($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, [
            status,
            unpaid,
            late,
            code,
            dueDays,
            newestFirst,
            after?.finished ?? null,
            after?.at ?? null,
            after?.id ?? null,
            backward,
            limit,
          ]),
        );
        return { rows: result.rows };
      }),

    updateOrder(code, change) {
      const { set, when } = changeColumns(change);
      const params: unknown[] = [code];
      const assign = Object.entries(set).map(([column, value]) => `${column} = $${params.push(value)}`);
      const where = Object.entries(when).map(([column, value]) => `${column} = $${params.push(value)}`);
      return attempt({ updated: false }, async () => {
        const result = await asSession((tx) =>
          tx.query(
            `update public.mixtapes set ${assign.join(", ")} where code = $1 and ${where.join(" and ")} returning code`,
            params,
          ),
        );
        return { updated: result.rows.length === 1 };
      });
    },
  };
}
