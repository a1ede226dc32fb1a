// Orders: the shopper's insert and list, the mixers' queue, status changes (as the session's role, under RLS).
import { DUE_DAYS } from "~/domain/orders";
import { changeColumns, type OrderCalls } from "../port.server";
import { attempt } from "./db.server";
import type { SqlContext } from "./context.server";

const FIELDS = [
  "user_id",
  "code",
  "tracks",
  "toggles",
  "note",
  "design_id",
  "design_name",
  "design_image",
  "codename",
  "created_at",
  "status",
  "delivery_url",
  "mixer_message",
  "cancel_reason",
  "mixing_at",
  "sent_at",
  "cancelled_at",
  "cancelled_by",
];
/** The order `m` with its money, derived from the ledger by the one rule (public.order_money), and its tape. */
const orderColumns = [
  "m.id::text as id",
  ...FIELDS.map((f) => `m.${f}`),
  "public.order_money(m) as money",
  "public.order_tape(m) as tape",
].join(", ");

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
        const params: unknown[] = [userId];
        let where = "m.user_id = $1";
        if (filter?.code) {
          params.push(filter.code);
          where += " and m.code = $2";
        }
        let window = "";
        if (filter?.page) {
          params.push(filter.page.limit, filter.page.offset);
          window = ` limit $${params.length - 1} offset $${params.length}`;
        }
        const result = await asSession((tx) =>
          tx.query(
            // m.id: the column (a bare `id` would sort the text alias of orderColumns).
            `select ${orderColumns} from public.mixtapes m where ${where} order by m.created_at desc, m.id desc${window}`,
            params,
          ),
        );
        return { rows: result.rows };
      }),

    listQueue: ({ status, unpaid, late, code, newestFirst, limit, offset }) =>
      attempt({ rows: [] }, async () => {
        const order = newestFirst ? "m.created_at desc, m.id desc" : "m.finished, m.created_at, m.id";
        const result = await asSession((tx) =>
          tx.query(
            `select ${orderColumns}, p.username, p.email
               from public.mixtapes m left join public.profiles p on p.id = m.user_id
              where ($1::text is null or m.status = $1) and (not $2 or not public.order_paid(m)) and ($3::text is null or m.code like $3 || '%')
                and (not $6 or (m.status in ('received', 'mixing') and m.created_at < now() - make_interval(days => ${DUE_DAYS})))
              order by ${order} limit $4 offset $5`,
            [status, unpaid, code, limit, offset, late],
          ),
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
