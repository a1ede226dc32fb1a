// The Supabase adapter: Supabase Auth and PostgREST through @supabase/ssr, one file per concern (as sql/).
import type { SupabaseClient } from "@supabase/supabase-js";
import { joinCalls, queuedWork, readQueuedEmail, type Backend, type BackendRequest, type EmailQueue } from "../port.server";
import { account } from "./account.server";
import { catalogue } from "./catalogue.server";
import { auth } from "./auth.server";
import { must, requestClient, rowsOf, serviceClient } from "./client.server";
import type { SupabaseBackendOptions, SupabaseContext } from "./context.server";
import { conversation } from "./conversation.server";
import { money, paymentLedger } from "./money.server";
import { orders } from "./orders.server";
import { recovery } from "./recovery.server";
import { shop } from "./shop.server";
import { tapeJobs, tapes } from "./tapes.server";

function serviceQueue(service: SupabaseClient): EmailQueue {
  return {
    async claim(batch) {
      const { data, error } = await service.rpc("claim_order_emails", { batch });
      must(error);
      return rowsOf(data).map(readQueuedEmail);
    },
    async finish(id, reason) {
      must((await service.rpc("finish_order_email", { email_id: Number(id), error: reason })).error);
    },
  };
}

export function createSupabaseBackend(opts: SupabaseBackendOptions): Backend {
  const service = opts.serviceKey ? serviceClient({ url: opts.url, serviceKey: opts.serviceKey, fetch: opts.fetch }) : null;
  const queued = queuedWork();
  return {
    kind: "supabase",
    queued,
    // The limits count in memory: the app has no connection of its own to Supabase's database.
    rateLimitCounts: null,
    emails: service ? serviceQueue(service) : null,
    payments: service ? paymentLedger(service) : null,
    tapes: service ? tapeJobs(service) : null,
    authEmails: null, // GoTrue sends its own
    // The mixer list lives in the Supabase project (docs/backends.md: Mixers).
    async syncMixers() {},
    async health() {
      try {
        const res = await (opts.fetch ?? fetch)(new URL("/auth/v1/health", opts.url), { headers: { apikey: opts.anonKey } });
        return res.ok;
      } catch {
        return false;
      }
    },
    // `supabase db push` applies supabase/migrations; the anon key cannot read which.
    async pendingMigrations() {
      return null;
    },
    async close() {},
    async claimSoleProcess() {
      return null;
    },
    forRequest(request: Request): BackendRequest {
      const headers = new Headers();
      const ctx: SupabaseContext = { ...opts, supabase: requestClient(opts, request, headers), service };
      return joinCalls(headers, queued, ctx, { auth, recovery, account, orders, money, conversation, shop, tapes, catalogue });
    },
  };
}
