// The signed-in shopper's own account: profile, email change, other sessions, deletion, export.
import { getLog } from "../../platform/log.server";
import { accountDeletedMail, emailChangeMail, emailChangeNoticeMail } from "../../platform/mailer.server";
import { sha256 } from "../passwords.server";
import type { AccountCalls, AccountRows } from "../port.server";
import { accountOf, AUTH_MESSAGES, EMAIL_CHANGE_TOKEN_SECONDS, issueToken, SESSION_IDLE_SECONDS } from "./auth.server";
import { attempt, classify, isDbError, ownerQuery, ownerTransaction, type Sql } from "./db.server";
import type { SqlBackendOptions, SqlContext } from "./context.server";
import { shopTitleNow } from "./catalogue.server";

export function account(ctx: SqlContext): AccountCalls {
  const { db, mailer, session, asSession } = ctx;
  const q = <T extends Record<string, unknown>>(text: string, params?: unknown[]) => ownerQuery<T>(db, text, params);
  return {
    getProfile: (userId) =>
      attempt({ username: null }, async () => {
        const result = await asSession((tx) =>
          tx.query<{ username: string | null }>(`select username from public.profiles where id = $1`, [userId]),
        );
        if (result.rows.length > 1) return { username: null, error: { message: "More than one profile", code: "PGRST116" } };
        return { username: result.rows[0]?.username ?? null };
      }),

    async changeEmail({ email, emailRedirectTo }) {
      const user = await session.signedIn();
      if (!user) return { error: { message: AUTH_MESSAGES.sessionMissing, status: 400 } };
      // The same work whoever has the address: the email worker decides what to send.
      await db.transaction(async (tx) => {
        await tx.query(
          `update auth.users set email_change = $2, email_change_sent_at = now(), updated_at = now() where id = $1`,
          [user.id, email],
        );
        await tx.query(
          `delete from auth.one_time_tokens where user_id = $1 and token_type = 'email_change' and used_at is null`,
          [user.id],
        );
        await tx.query(
          `insert into auth.email_requests (kind, email, redirect_to, user_id) values ('email_change', $2, $3, $1)`,
          [user.id, email, emailRedirectTo],
        );
      });
      return { error: null };
    },

    async pendingEmail() {
      const user = await session.signedIn();
      if (!user) return { email: null, error: null };
      const [row] = await q<{ email_change: string | null }>(
        `select email_change from auth.users
          where id = $1 and email_change_sent_at > now() - make_interval(secs => $2)`,
        [user.id, EMAIL_CHANGE_TOKEN_SECONDS],
      );
      return { email: row?.email_change ?? null, error: null };
    },

    async confirmEmailChange(tokenHash) {
      const invalid = { done: false, error: { message: AUTH_MESSAGES.otpInvalid, code: "otp_expired", status: 403 } };
      const [token] = await q<{ user_id: string }>(
        `update auth.one_time_tokens set used_at = now()
          where token_hash = $1 and token_type = 'email_change' and used_at is null and expires_at > now()
          returning user_id`,
        [sha256(tokenHash)],
      );
      if (!token) return invalid;
      let email: string | null | undefined;
      try {
        email = await db.transaction(async (tx) => {
          const { rows } = await tx.query<{ email: string }>(
            `update auth.users
                set email = email_change, email_change = null, email_change_sent_at = null,
                    email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
              where id = $1 and email_change is not null
          returning email`,
            [token.user_id],
          );
          // Links mailed to the old address (reset, confirmation) stop working.
          await tx.query(`delete from auth.one_time_tokens where user_id = $1 and used_at is null`, [token.user_id]);
          return rows[0]?.email;
        });
      } catch (e) {
        // The address was taken by a new account in the meantime.
        if (isDbError(e) && e.code === "23505") return invalid;
        classify(e);
      }
      if (!email) return invalid;
      await session.start(token.user_id, email);
      return { done: true, error: null };
    },

    async signOutOthers() {
      const token = await session.token();
      const user = await session.signedIn();
      if (!token || !user) return { ended: null, error: { message: AUTH_MESSAGES.sessionMissing, status: 400 } };
      // Expired sessions end too, but only live ones count.
      const [row] = await q<{ n: number }>(
        `with ended as (delete from auth.sessions where user_id = $1 and id <> $2 returning expires_at, last_seen_at)
         select (count(*) filter (where expires_at > now() and last_seen_at > now() - make_interval(secs => $3)))::int as n
           from ended`,
        [user.id, sha256(token), SESSION_IDLE_SECONDS],
      );
      return { ended: row.n, error: null };
    },

    async deleteUser() {
      const user = await session.signedIn();
      if (!user) return { error: { message: AUTH_MESSAGES.sessionMissing, status: 400 } };
      await ownerTransaction(db, async (tx) => {
        await tx.query(`delete from auth.email_requests where user_id = $1 or lower(email) = lower($2)`, [user.id, user.email]);
        // public.erase_account (before delete) anonymises the orders; sessions and links cascade.
        await tx.query(`delete from auth.users where id = $1`, [user.id]);
      });
      await session.forget();
      if (user.email) {
        await mailer
          .send(accountDeletedMail(user.email, await shopTitleNow(ctx)))
          .catch((e: unknown) =>
            getLog().warn({ err: e instanceof Error ? e.message : String(e) }, "account deleted email not sent"),
          );
      }
      return { error: null };
    },

    async exportData() {
      const user = await session.user();
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
            `select to_jsonb(m) || jsonb_build_object('money', public.order_money(m), 'tape', public.order_tape(m)) as row
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
  };
}

/** The email worker's answer to a change: the link to the new address (if it is still free and still asked for), a notice to the old. */
export async function answerEmailChange(opts: SqlBackendOptions, userId: string | null, newEmail: string, redirectTo: string) {
  const { db, mailer } = opts;
  const [user] = userId
    ? await ownerQuery<{ email: string | null; email_change: string | null }>(
        db,
        `select email, email_change from auth.users where id = $1`,
        [userId],
      )
    : [];
  if (!user?.email) return;
  if (!(await accountOf(db, newEmail)) && user.email_change?.toLowerCase() === newEmail.toLowerCase()) {
    const token = await db.transaction((tx) => issueToken(tx, userId!, "email_change"));
    const link = new URL(redirectTo);
    link.searchParams.set("token_hash", token);
    link.searchParams.set("type", "email_change");
    await mailer.send(emailChangeMail(newEmail, await shopTitleNow(opts), link.toString()));
  }
  await mailer.send(emailChangeNoticeMail(user.email, await shopTitleNow(opts), newEmail));
}
