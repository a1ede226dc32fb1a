// The SQL adapter: our own auth and the data, on PGlite (embedded) or PostgreSQL, one file per concern (as supabase/).
import { joinCalls, queuedWork, readQueuedEmail, type Backend } from "../port.server";
import { account } from "./account.server";
import { catalogue } from "./catalogue.server";
import { auth, openSession } from "./auth.server";
import { conversation } from "./conversation.server";
import { sessionTransactions } from "./batch.server";
import type { SqlBackendOptions, SqlContext } from "./context.server";
import { counted, migrationList, ownerQuery } from "./db.server";
import { money, paymentLedger } from "./money.server";
import { orders } from "./orders.server";
import { recovery, sendEmailRequests } from "./recovery.server";
import { shop } from "./shop.server";
import { tapeJobs, tapes } from "./tapes.server";

export function createSqlBackend(opts: SqlBackendOptions): Backend {
  const { db } = opts;
  const queued = queuedWork();
  return {
    kind: db.kind === "postgres" ? "postgres" : "embedded",
    async health() {
      try {
        await db.query("select 1");
        return true;
      } catch {
        return false;
      }
    },
    async pendingMigrations() {
      const applied = await db.query<{ name: string }>(`select name from mixtape_meta.migrations`);
      const done = new Set(applied.rows.map((r) => r.name));
      return migrationList()
        .map((m) => m.name)
        .filter((name) => !done.has(name));
    },
    close: () => db.close(),
    // Taken by a process that keeps files on its own disk (DROP_STORAGE=disk).
    claimSoleProcess: async () => (db.holdLock ? db.holdLock(7243042) : true),
    authEmails: { send: () => sendEmailRequests(opts) },
    emails: {
      claim: async (batch) => (await ownerQuery(db, `select * from public.claim_order_emails($1)`, [batch])).map(readQueuedEmail),
      finish: async (id, error) => void (await ownerQuery(db, `select public.finish_order_email($1, $2)`, [id, error])),
    },
    payments: paymentLedger(db),
    tapes: tapeJobs(db),
    queued,
    rateLimitCounts: db.kind === "postgres" ? { query: (text, values) => db.query(text, values) } : null,
    async syncMixers(emails) {
      const list = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
      await db.transaction(async (tx) => {
        await tx.query(`delete from public.mixers where not (email = any($1::text[]))`, [list]);
        await tx.query(`insert into public.mixers (email) select unnest($1::text[]) on conflict do nothing`, [list]);
      });
    },
    forRequest(request, stats) {
      const headers = new Headers();
      const requestDb = stats ? counted(db, stats) : db;
      const session = openSession(requestDb, request, headers);
      const ctx: SqlContext = {
        ...opts,
        db: requestDb,
        session,
        asSession: sessionTransactions(requestDb, session, opts.batchCalls !== false),
      };
      return joinCalls(headers, queued, ctx, { auth, recovery, account, orders, money, conversation, shop, tapes, catalogue });
    },
  };
}
