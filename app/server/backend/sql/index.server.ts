// The SQL adapter: our own auth and the data, on PGlite (embedded) or PostgreSQL.
import type { Mailer } from "../../platform/mailer.server";
import { readQueuedEmail, type Backend, type PaymentOutcome } from "../port.server";
import { createSqlAuth } from "./auth.server";
import { createSqlData } from "./data.server";
import { migrationList, ownerQuery, type SqlDriver } from "./db.server";

export type SqlBackendOptions = { db: SqlDriver; mailer: Mailer; shopTitle: string };

export function createSqlBackend(opts: SqlBackendOptions): Backend {
  const auth = createSqlAuth(opts);
  const data = createSqlData(opts.db);
  return {
    kind: opts.db.kind === "postgres" ? "postgres" : "embedded",
    async health() {
      try {
        await opts.db.query("select 1");
        return true;
      } catch {
        return false;
      }
    },
    async pendingMigrations() {
      const applied = await opts.db.query<{ name: string }>(`select name from mixtape_meta.migrations`);
      const done = new Set(applied.rows.map((r) => r.name));
      return migrationList()
        .map((m) => m.name)
        .filter((name) => !done.has(name));
    },
    close: () => opts.db.close(),
    authEmails: { send: auth.sendEmailRequests },
    emails: {
      claim: async (batch) =>
        (await ownerQuery(opts.db, `select * from public.claim_order_emails($1)`, [batch])).map(readQueuedEmail),
      finish: async (id, error) => void (await ownerQuery(opts.db, `select public.finish_order_email($1, $2)`, [id, error])),
    },
    payments: {
      async record(e) {
        const rows = await ownerQuery<{ outcome: PaymentOutcome }>(
          opts.db,
          `select public.record_payment_event($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) as outcome`,
          [
            e.provider,
            e.eventId,
            e.kind,
            e.code,
            e.amount,
            e.currency,
            e.reference,
            e.runningTotal ?? false,
            e.dispute?.id ?? null,
            e.dispute?.status ?? null,
            e.dispute?.reason ?? null,
          ],
        );
        return rows[0].outcome;
      },
    },
    async syncMixers(emails) {
      const list = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
      await opts.db.transaction(async (tx) => {
        await tx.query(`delete from public.mixers where not (email = any($1::text[]))`, [list]);
        await tx.query(`insert into public.mixers (email) select unnest($1::text[]) on conflict do nothing`, [list]);
      });
    },
    forRequest(request) {
      const headers = new Headers();
      const authCalls = auth.forRequest(request, headers);
      return { headers, ...authCalls, ...data(authCalls.getUser) };
    },
  };
}
