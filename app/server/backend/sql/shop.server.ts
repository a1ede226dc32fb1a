// The shop: open or closed, full, its settings (mixers save them), the insights (mixers only) and the queue's counts.
import type { ShopCalls } from "../port.server";
import { attempt } from "./db.server";
import type { SqlContext } from "./context.server";

export function shop({ asSession }: SqlContext): ShopCalls {
  return {
    shopStatus: () =>
      attempt({ status: null }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ open: boolean; closed_message: string; is_full: boolean }>(`select * from public.shop_status()`),
        );
        const row = rows[0];
        return { status: row ? { open: row.open, closedMessage: row.closed_message, full: row.is_full } : null };
      }),

    shopSettings: () =>
      attempt({ settings: null }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ open: boolean; closed_message: string; max_open_orders: number | null }>(
            `select open, closed_message, max_open_orders from public.shop_settings`,
          ),
        );
        const row = rows[0];
        return {
          settings: row ? { open: row.open, closedMessage: row.closed_message, maxOpenOrders: row.max_open_orders } : null,
        };
      }),

    saveShopSettings: ({ open, closedMessage, maxOpenOrders }) =>
      attempt({ saved: false }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query(`update public.shop_settings set open = $1, closed_message = $2, max_open_orders = $3 returning id`, [
            open,
            closedMessage,
            maxOpenOrders,
          ]),
        );
        return { saved: rows.length === 1 };
      }),

    insights: ({ weeks, dueDays, turnaroundDays }) =>
      attempt({ insights: null }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ insights: Record<string, unknown> | null }>(`select public.shop_insights($1, $2, $3) as insights`, [
            weeks,
            dueDays,
            turnaroundDays,
          ]),
        );
        return { insights: rows[0]?.insights ?? null };
      }),

    queueCounts: ({ code, dueDays }) =>
      attempt({ counts: null }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ counts: Record<string, unknown> | null }>(`select public.queue_counts($1, $2) as counts`, [code, dueDays]),
        );
        return { counts: rows[0]?.counts ?? null };
      }),
  };
}
