// Reset links and resent confirmations (queued, and sent by sendEmailRequests after the answer), and the recovery windows.
import { getLog } from "../../platform/log.server";
import { recoveryMail } from "../../platform/mailer.server";
import { BackendUnavailableError, type RecoveryCalls } from "../port.server";
import { answerEmailChange } from "./account.server";
import { accountOf, AUTH_MESSAGES, issueToken, sendConfirmation, type TokenType } from "./auth.server";
import { attempt, ownerQuery, type SqlDriver } from "./db.server";
import type { SqlBackendOptions, SqlContext } from "./context.server";
import { shopTitleNow } from "./catalogue.server";

/** The same work for any address, so accounts cannot be probed. */
async function queueEmailRequest(db: SqlDriver, kind: TokenType, email: string, redirectTo: string) {
  await ownerQuery(db, `insert into auth.email_requests (kind, email, redirect_to) values ($1, $2, $3)`, [
    kind,
    email,
    redirectTo,
  ]);
}

export function recovery({ db, asSession }: SqlContext): RecoveryCalls {
  return {
    async resetPasswordForEmail({ email, redirectTo }) {
      await queueEmailRequest(db, "recovery", email, redirectTo);
      return { error: null };
    },

    async resend({ type, email, emailRedirectTo }) {
      if (type !== "signup") return { error: { message: AUTH_MESSAGES.resendType, code: "validation_failed", status: 400 } };
      await queueEmailRequest(db, "signup", email, emailRedirectTo);
      return { error: null };
    },

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
  };
}

async function answerEmailRequest(
  opts: SqlBackendOptions,
  kind: TokenType,
  email: string,
  redirectTo: string,
  userId: string | null,
) {
  if (kind === "email_change") return answerEmailChange(opts, userId, email, redirectTo);
  const user = await accountOf(opts.db, email);
  if (!user || (kind === "signup" && user.confirmed)) return;
  const token = await opts.db.transaction((tx) => issueToken(tx, user.id, kind));
  if (kind === "signup") return sendConfirmation(opts, user.email, token, redirectTo);
  const link = new URL(redirectTo);
  link.searchParams.set("token_hash", token);
  link.searchParams.set("type", "recovery");
  await opts.mailer.send(recoveryMail(user.email, await shopTitleNow(opts), link.toString()));
}

/** The queued reset, confirmation and email change requests, answered; a request older than its link's lifetime is dropped. */
export async function sendEmailRequests(opts: SqlBackendOptions) {
  const q = <T extends Record<string, unknown>>(text: string, params?: unknown[]) => ownerQuery<T>(opts.db, text, params);
  for (;;) {
    const due = await q<{
      id: string;
      kind: TokenType;
      email: string;
      redirect_to: string;
      attempts: number;
      user_id: string | null;
    }>(
      `update auth.email_requests r set locked_until = now() + interval '5 minutes', attempts = r.attempts + 1
        where r.id in (select id from auth.email_requests
                        where done_at is null and next_attempt_at <= now() and (locked_until is null or locked_until < now())
                        order by id limit 20 for update skip locked)
        returning r.id::text, r.kind, r.email, r.redirect_to, r.attempts, r.user_id`,
    );
    for (const request of due) {
      let error: string | null = null;
      try {
        await answerEmailRequest(opts, request.kind, request.email, request.redirect_to, request.user_id);
      } catch (e) {
        if (e instanceof BackendUnavailableError) throw e;
        error = e instanceof Error ? e.message : String(e);
        getLog().warn(
          { request: request.id, kind: request.kind, to: request.email, attempts: request.attempts, err: error },
          "email request not sent; retrying later",
        );
      }
      await q(
        `update auth.email_requests
            set locked_until = null, last_error = left($2, 500),
                done_at = case when $2::text is null or created_at < now() - interval '1 hour' then now() end,
                next_attempt_at = now() + least(interval '5 seconds' * power(2, least(attempts - 1, 10)), interval '10 minutes')
          where id = $1`,
        [request.id, error],
      );
    }
    if (due.length < 20) return;
  }
}
