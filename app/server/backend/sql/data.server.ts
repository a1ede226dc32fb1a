// Each query runs as the session's role so the RLS policies of supabase/migrations decide what is seen.
import { DUE_DAYS } from "~/domain/orders";
import {
  changeColumns,
  type AccountRows,
  type AttachOutcome,
  type BackendRequest,
  type MarkOutcome,
  type User,
} from "../port.server";
import { asRole, attempt, type Sql, type SqlDriver } from "./db.server";

export type DataCalls = Pick<
  BackendRequest,
  | "usernameExists"
  | "getProfile"
  | "insertOrder"
  | "listOrders"
  | "listQueue"
  | "updateOrder"
  | "openRecoveryWindow"
  | "recoveryWindowOpen"
  | "takeRecoveryWindow"
  | "shopStatus"
  | "shopSettings"
  | "saveShopSettings"
  | "ledger"
  | "markMoney"
  | "keepPayment"
  | "attachPayment"
  | "exportData"
  | "listMessages"
  | "postMessage"
  | "markOrderRead"
  | "unreadMessages"
  | "insights"
>;

const FIELDS = [
  "user_id",
  "code",
  "tracks",
  "toggles",
  "note",
  "design_id",
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
/** The order `m` with its money, derived from the ledger by the one rule (public.order_money). */
const orderColumns = ["m.id::text as id", ...FIELDS.map((f) => `m.${f}`), "public.order_money(m) as money"].join(", ");

export function createSqlData(db: SqlDriver) {
  return function forRequest(getUser: () => Promise<User | null>): DataCalls {
    const asSession = async <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => {
      const user = await getUser();
      return user ? asRole(db, "authenticated", { sub: user.id }, fn) : asRole(db, "anon", {}, fn);
    };

    return {
      openRecoveryWindow: (id, until) =>
        attempt({}, async () => {
          await asSession((tx) => tx.query(`insert into public.recovery_windows (id, expires_at) values ($1, $2)`, [id, until]));
          return {};
        }),

      async recoveryWindowOpen(id) {
        const { open } = await attempt({ open: false }, async () => {
          const result = await asSession((tx) =>
            tx.query(`select 1 from public.recovery_windows where id = $1 and expires_at > now()`, [id]),
          );
          return { open: result.rows.length === 1 };
        });
        return open;
      },

      takeRecoveryWindow: (id) =>
        attempt({ until: null }, async () => {
          const result = await asSession((tx) =>
            tx.query<{ expires_at: Date | string }>(
              `delete from public.recovery_windows where id = $1 and expires_at > now() returning expires_at`,
              [id],
            ),
          );
          const row = result.rows[0];
          return { until: row ? new Date(row.expires_at) : null };
        }),

      usernameExists: (username) =>
        attempt({ exists: false }, async () => {
          const rows = await asRole(db, "anon", {}, (tx) =>
            tx.query<{ exists: boolean }>(`select public.username_exists($1) as exists`, [username]),
          );
          return { exists: rows.rows[0]?.exists === true };
        }),

      getProfile: (userId) =>
        attempt({ username: null }, async () => {
          const result = await asSession((tx) =>
            tx.query<{ username: string | null }>(`select username from public.profiles where id = $1`, [userId]),
          );
          if (result.rows.length > 1) return { username: null, error: { message: "More than one profile", code: "PGRST116" } };
          return { username: result.rows[0]?.username ?? null };
        }),

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

      ledger: ({ provider, filter, limit, offset }) =>
        attempt({ rows: [] }, async () => {
          const { rows } = await asSession((tx) =>
            tx.query(`select * from public.ledger_rows($1, $2, $3, $4)`, [provider, filter, limit, offset]),
          );
          return { rows };
        }),

      markMoney: (code, { kind, amount, currency, token }) =>
        attempt<{ outcome: MarkOutcome | null }>({ outcome: null }, async () => {
          const { rows } = await asSession((tx) =>
            tx.query<{ outcome: MarkOutcome }>(`select public.mark_money($1, $2, $3, $4, $5) as outcome`, [
              code,
              kind,
              amount,
              currency,
              token,
            ]),
          );
          return { outcome: rows[0]?.outcome ?? null };
        }),

      keepPayment: (provider, eventId) =>
        attempt({ kept: false }, async () => {
          const { rows } = await asSession((tx) =>
            tx.query<{ kept: boolean }>(`select public.keep_payment($1, $2) as kept`, [provider, eventId]),
          );
          return { kept: rows[0]?.kept === true };
        }),

      attachPayment: (provider, eventId, code) =>
        attempt<{ outcome: AttachOutcome | null }>({ outcome: null }, async () => {
          const { rows } = await asSession((tx) =>
            tx.query<{ outcome: AttachOutcome }>(`select public.attach_payment($1, $2, $3) as outcome`, [
              provider,
              eventId,
              code,
            ]),
          );
          return { outcome: rows[0]?.outcome ?? null };
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

      async exportData() {
        const user = await getUser();
        if (!user) return { data: null, error: { message: "Auth session missing!" } };
        // Each row as JSON, as PostgREST answers it; a mixer's RLS reads more, so every read names the user.
        const rows = async (tx: Sql, text: string, params: unknown[]) =>
          (await tx.query<{ row: Record<string, unknown> }>(text, params)).rows.map((r) => r.row);
        return attempt<{ data: AccountRows | null }>({ data: null }, async () => ({
          data: await asSession(async (tx) => ({
            profile:
              (
                await tx.query<{ username: string | null; created_at: unknown }>(
                  `select username, created_at from public.profiles where id = $1`,
                  [user.id],
                )
              ).rows[0] ?? null,
            orders: await rows(
              tx,
              `select to_jsonb(m) || jsonb_build_object('money', public.order_money(m)) as row
                 from public.mixtapes m where m.user_id = $1 order by m.created_at, m.id`,
              [user.id],
            ),
            messages: await rows(
              tx,
              `select to_jsonb(x) as row from (
                 select g.id, g.order_id, g.from_mixer, g.body, g.created_at
                   from public.order_messages g join public.mixtapes m on m.id = g.order_id
                  where m.user_id = $1 order by g.created_at, g.id) x`,
              [user.id],
            ),
            emails: await rows(tx, `select to_jsonb(e) as row from public.my_order_emails() e`, []),
          })),
        }));
      },

      listMessages: (orderId) =>
        attempt({ rows: [] }, async () => {
          const { rows } = await asSession((tx) =>
            tx.query(
              `select id::text as id, from_mixer, body, created_at from public.order_messages
                where order_id = $1 order by created_at, id`,
              [orderId],
            ),
          );
          return { rows };
        }),

      postMessage: ({ orderId, fromMixer, body }) =>
        attempt<{ id: string | null }>({ id: null }, async () => {
          const { rows } = await asSession((tx) =>
            tx.query<{ id: string }>(
              `insert into public.order_messages (order_id, from_mixer, body) values ($1, $2, $3) returning id::text as id`,
              [orderId, fromMixer, body],
            ),
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
          const { rows } = await asSession((tx) =>
            tx.query(`select code, unread, since from public.unread_messages($1)`, [side]),
          );
          return { rows };
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
    };
  };
}
