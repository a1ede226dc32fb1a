// An order's conversation: its messages, read marks and what is unread (as the session's role, under RLS).
import type { ConversationCalls } from "../port.server";
import { attempt } from "./db.server";
import type { SqlContext } from "./context.server";

export function conversation({ asSession }: SqlContext): ConversationCalls {
  return {
    listMessages: (code) =>
      attempt({ rows: [] }, async () => {
        const { rows } = await asSession((tx) => tx.query(`select * from public.order_messages_of($1)`, [code]));
        return { rows };
      }),

    postMessage: ({ code, fromMixer, body }) =>
      attempt<{ id: string | null }>({ id: null }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ id: string | null }>(`select public.post_order_message($1, $2, $3) as id`, [code, fromMixer, body]),
        );
        return { id: rows[0]?.id ?? null };
      }),

    markOrderRead: (code, side) =>
      attempt({ marked: false }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ marked: boolean }>(`select public.mark_order_read($1, $2) as marked`, [code, side]),
        );
        return { marked: rows[0]?.marked === true };
      }),

    unreadMessages: (side) =>
      attempt({ rows: [] }, async () => {
        const { rows } = await asSession((tx) => tx.query(`select code, unread, since from public.unread_messages($1)`, [side]));
        return { rows };
      }),
  };
}
