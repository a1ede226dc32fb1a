import { createServerClient, parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { isHttps } from "../platform/cookies.server";
import { getLog } from "../platform/log.server";
import { accountDeletedMail, type Mailer } from "../platform/mailer.server";
import { DUE_DAYS } from "~/domain/orders";
import type {
  AttachOutcome,
  Backend,
  BackendError,
  BackendRequest,
  EmailQueue,
  MarkOutcome,
  PaymentLedger,
  PaymentOutcome,
  UsernameAccount,
} from "./port.server";
import { BackendUnavailableError, changeColumns, NOT_CONFIGURED, readQueuedEmail } from "./port.server";

type SbError = { message: string; code?: string; status?: number } | null;
const err = (e: SbError): BackendError | null => (e ? { message: readable(e), code: e.code, status: e.status } : null);
/** auth-js 2.109 (the last for Node 20) does not read a 5xx answer's body: its message is then "{}". */
const readable = (e: NonNullable<SbError>) =>
  e.message === "{}" && e.status !== undefined ? `Supabase Auth answered ${e.status}.` : e.message;

/** A fetch failure or a gateway error (502-504) is an outage, not an answer. */
const unavailable = (e: SbError) =>
  e &&
  (e.status === 0 ||
    (e.status !== undefined && e.status >= 502 && e.status <= 504) ||
    /fetch failed|ECONNREFUSED|network/i.test(e.message))
    ? new BackendUnavailableError(e)
    : null;
function check(e: SbError) {
  const outage = unavailable(e);
  if (outage) throw outage;
  return err(e);
}

/** supabase-js builds its realtime client eagerly, which needs a WebSocket constructor that Node 20 lacks. */
class NoRealtimeTransport {
  constructor() {
    throw new Error("Supabase Realtime is not used by this app.");
  }
}

/** It bypasses RLS and reaches the Auth admin API: server-side only. */
function serviceClient(opts: { url: string; serviceKey: string; fetch?: typeof fetch }): SupabaseClient {
  return createClient(opts.url, opts.serviceKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: opts.fetch ? { fetch: opts.fetch } : undefined,
    realtime: { transport: NoRealtimeTransport as never },
  });
}

function serviceQueue(service: SupabaseClient): EmailQueue {
  return {
    async claim(batch) {
      const { data, error } = await service.rpc("claim_order_emails", { batch });
      const failed = check(error);
      if (failed) throw new Error(failed.message);
      return ((data as Record<string, unknown>[] | null) ?? []).map(readQueuedEmail);
    },
    async finish(id, reason) {
      const failed = check((await service.rpc("finish_order_email", { email_id: Number(id), error: reason })).error);
      if (failed) throw new Error(failed.message);
    },
  };
}

/** The function is not granted to anyone but the service role. */
function serviceLedger(service: SupabaseClient): PaymentLedger {
  return {
    async record(e) {
      const { data, error } = await service.rpc("record_payment_event", {
        p_provider: e.provider,
        p_event_id: e.eventId,
        p_kind: e.kind,
        p_code: e.code,
        p_amount: e.amount,
        p_currency: e.currency,
        p_reference: e.reference,
        p_running_total: e.runningTotal ?? false,
        p_dispute: e.dispute?.id ?? null,
        p_dispute_status: e.dispute?.status ?? null,
        p_dispute_reason: e.dispute?.reason ?? null,
      });
      const failed = check(error);
      if (failed) throw new Error(failed.message);
      return data as PaymentOutcome;
    },
  };
}

export function createSupabaseBackend(opts: {
  url: string;
  anonKey: string;
  serviceKey?: string;
  fetch?: typeof fetch;
  /** GoTrue sends none. */
  mailer?: Mailer;
  shopTitle?: string;
}): Backend {
  const service = opts.serviceKey ? serviceClient({ url: opts.url, serviceKey: opts.serviceKey, fetch: opts.fetch }) : null;

  async function findAccountByUsername(
    username: string,
  ): Promise<{ account: UsernameAccount | null; error: BackendError | null }> {
    if (!service) return { account: null, error: null };
    // Any case, as profiles_username_lower_key: ilike with its wildcards escaped.
    const pattern = username.replace(/[\\%_]/g, "\\$&");
    const profile = await service
      .from("profiles")
      .select("id")
      .ilike("username", pattern)
      .order("username_clash")
      .order("created_at")
      .limit(1)
      .maybeSingle();
    const failed = check(profile.error);
    if (failed || !profile.data) return { account: null, error: failed };
    const { data, error } = await service.auth.admin.getUserById(String(profile.data.id));
    const adminFailed = check(error);
    if (adminFailed || !data.user?.email) return { account: null, error: adminFailed };
    return { account: { email: data.user.email, confirmed: Boolean(data.user.email_confirmed_at) }, error: null };
  }

  return {
    kind: "supabase",
    emails: service ? serviceQueue(service) : null,
    payments: service ? serviceLedger(service) : null,
    authEmails: null, // GoTrue sends its own
    // The mixer list lives in the Supabase project (README: Mixers on Supabase).
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
    forRequest(request: Request): BackendRequest {
      const headers = new Headers();
      const secure = isHttps(request);
      const supabase = createServerClient(opts.url, opts.anonKey, {
        global: opts.fetch ? { fetch: opts.fetch } : undefined,
        realtime: { transport: NoRealtimeTransport as never },
        cookieOptions: { secure, sameSite: "lax", httpOnly: true, path: "/" },
        cookies: {
          getAll: () =>
            parseCookieHeader(request.headers.get("Cookie") ?? "").map((c) => ({ name: c.name, value: c.value ?? "" })),
          setAll: (cookies) => {
            for (const { name, value, options } of cookies)
              headers.append("Set-Cookie", serializeCookieHeader(name, value, options));
          },
        },
      });

      return {
        headers,
        async getUser() {
          const { data, error } = await supabase.auth.getUser();
          if (error) {
            if (unavailable(error)) throw unavailable(error);
            return null;
          }
          return data.user ? { id: data.user.id, email: data.user.email ?? null } : null;
        },
        async signInWithPassword({ email, password }) {
          const { error } = await supabase.auth.signInWithPassword({ email, password });
          return { error: check(error) };
        },
        async signUp({ email, password, username, emailRedirectTo }) {
          const { data, error } = await supabase.auth.signUp({
            email,
            password,
            options: { emailRedirectTo, data: { username } },
          });
          return { userId: data?.user?.id ?? null, error: check(error) };
        },
        async verifyOtp({ tokenHash, type }) {
          const { error } = await supabase.auth.verifyOtp({
            token_hash: tokenHash,
            type: type as "signup" | "email" | "recovery",
          });
          return { error: check(error) };
        },
        async exchangeCodeForSession(code) {
          const { error } = await supabase.auth.exchangeCodeForSession(code);
          return { error: check(error) };
        },
        async resetPasswordForEmail({ email, redirectTo }) {
          const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo });
          return { error: check(error) };
        },
        async resend({ type, email, emailRedirectTo }) {
          const { error } = await supabase.auth.resend({ type, email, options: { emailRedirectTo } });
          return { error: check(error) };
        },
        async updateUser({ password }) {
          const { error } = await supabase.auth.updateUser({ password });
          return { error: check(error) };
        },
        async signOut(options) {
          const { error } = await supabase.auth.signOut(options?.scope === "others" ? { scope: "others" } : undefined);
          return { error: check(error) };
        },
        findAccountByUsername,
        async openRecoveryWindow(id, until) {
          const { error } = await supabase.from("recovery_windows").insert({ id, expires_at: until.toISOString() });
          return { error: check(error) };
        },
        async recoveryWindowOpen(id) {
          const { data, error } = await supabase
            .from("recovery_windows")
            .select("id")
            .eq("id", id)
            .gt("expires_at", new Date().toISOString());
          if (check(error)) return false;
          return (data?.length ?? 0) === 1;
        },
        async takeRecoveryWindow(id) {
          const { data, error } = await supabase
            .from("recovery_windows")
            .delete()
            .eq("id", id)
            .gt("expires_at", new Date().toISOString())
            .select("expires_at");
          const row = (data as { expires_at: string }[] | null)?.[0];
          return { until: row ? new Date(row.expires_at) : null, error: check(error) };
        },
        async usernameExists(username) {
          const { data, error } = await supabase.rpc("username_exists", { p_username: username });
          return { exists: data === true, error: check(error) };
        },
        async getProfile(userId) {
          const { data, error } = await supabase.from("profiles").select("username").eq("id", userId).maybeSingle();
          return { username: (data?.username as string | null | undefined) ?? null, error: check(error) };
        },
        async insertOrder(order) {
          const { error } = await supabase.from("mixtapes").insert(order);
          return { error: check(error) };
        },
        async listQueue({ status, unpaid, late, code, newestFirst, limit, offset }) {
          // order_money and order_paid are computed columns: the ledger's one rule, in SQL.
          let query = supabase.from("mixtapes").select("*, money:order_money, profiles(username, email)");
          if (status) query = query.eq("status", status);
          if (unpaid) query = query.eq("order_paid", false);
          if (late)
            query = query
              .in("status", ["received", "mixing"])
              .lt("created_at", new Date(Date.now() - DUE_DAYS * 24 * 3600 * 1000).toISOString());
          if (code) query = query.like("code", `${code}%`);
          query = newestFirst
            ? query.order("created_at", { ascending: false }).order("id", { ascending: false })
            : query.order("finished").order("created_at").order("id");
          const { data, error } = await query.range(offset, offset + limit - 1);
          const rows = ((data as Record<string, unknown>[] | null) ?? []).map(({ profiles, ...row }) => {
            const p = (profiles ?? {}) as { username?: string | null; email?: string | null };
            return { ...row, username: p.username ?? null, email: p.email ?? null };
          });
          return { rows, error: check(error) };
        },
        async updateOrder(code, change) {
          const { set, when } = changeColumns(change);
          let query = supabase.from("mixtapes").update(set).eq("code", code);
          for (const [column, value] of Object.entries(when)) query = query.eq(column, value as string | boolean);
          const { data, error } = await query.select("code");
          return { updated: !error && (data?.length ?? 0) === 1, error: check(error) };
        },
        async shopStatus() {
          const { data, error } = await supabase.rpc("shop_status").maybeSingle();
          const row = data as { open: boolean; closed_message: string; is_full: boolean } | null;
          return {
            status: row ? { open: row.open, closedMessage: row.closed_message, full: row.is_full } : null,
            error: check(error),
          };
        },
        async shopSettings() {
          const { data, error } = await supabase
            .from("shop_settings")
            .select("open, closed_message, max_open_orders")
            .maybeSingle();
          return {
            settings: data ? { open: data.open, closedMessage: data.closed_message, maxOpenOrders: data.max_open_orders } : null,
            error: check(error),
          };
        },
        async saveShopSettings({ open, closedMessage, maxOpenOrders }) {
          const { data, error } = await supabase
            .from("shop_settings")
            .update({ open, closed_message: closedMessage, max_open_orders: maxOpenOrders })
            .eq("id", true)
            .select("id");
          return { saved: !error && (data?.length ?? 0) === 1, error: check(error) };
        },
        async ledger({ provider, filter, limit, offset }) {
          const { data, error } = await supabase.rpc("ledger_rows", {
            p_provider: provider,
            p_filter: filter,
            p_limit: limit,
            p_offset: offset,
          });
          return { rows: (data as Record<string, unknown>[] | null) ?? [], error: check(error) };
        },
        async markMoney(code, { kind, amount, currency, token }) {
          const { data, error } = await supabase.rpc("mark_money", {
            p_code: code,
            p_kind: kind,
            p_amount: amount,
            p_currency: currency,
            p_token: token,
          });
          return { outcome: (data as MarkOutcome | null) ?? null, error: check(error) };
        },
        async keepPayment(provider, eventId) {
          const { data, error } = await supabase.rpc("keep_payment", { p_provider: provider, p_event_id: eventId });
          return { kept: data === true, error: check(error) };
        },
        async attachPayment(provider, eventId, code) {
          const { data, error } = await supabase.rpc("attach_payment", {
            p_provider: provider,
            p_event_id: eventId,
            p_code: code,
          });
          return { outcome: (data as AttachOutcome | null) ?? null, error: check(error) };
        },
        async listOrders(userId, filter) {
          let query = supabase.from("mixtapes").select("*, money:order_money").eq("user_id", userId);
          if (filter?.code) query = query.eq("code", filter.code);
          query = query.order("created_at", { ascending: false }).order("id", { ascending: false });
          if (filter?.page) query = query.range(filter.page.offset, filter.page.offset + filter.page.limit - 1);
          const { data, error } = await query;
          return { rows: (data as Record<string, unknown>[] | null) ?? [], error: check(error) };
        },

        async changeEmail({ email, emailRedirectTo }) {
          const { error } = await supabase.auth.updateUser({ email }, { emailRedirectTo });
          return { error: check(error) };
        },
        async pendingEmail() {
          const { data, error } = await supabase.auth.getUser();
          return { email: data.user?.new_email ?? null, error: error ? check(error) : null };
        },
        async confirmEmailChange(tokenHash) {
          const { data, error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: "email_change" });
          return { done: !error && Boolean(data.session), error: check(error) };
        },
        async signOutOthers() {
          const { error } = await supabase.auth.signOut({ scope: "others" });
          return { ended: null, error: check(error) };
        },
        async deleteUser() {
          if (!service)
            return { error: { message: "Account deletion needs SUPABASE_SERVICE_ROLE_KEY.", code: NOT_CONFIGURED, status: 501 } };
          const { data, error } = await supabase.auth.getUser();
          const user = data.user;
          if (!user) return { error: check(error) ?? { message: "Auth session missing!", status: 400 } };
          // GoTrue deletes the row of auth.users in one transaction; public.erase_account runs inside it.
          const deleted = await service.auth.admin.deleteUser(user.id);
          const failed = check(deleted.error);
          if (failed) return { error: failed };
          // The session is gone on the server already: this clears this browser's cookies.
          await supabase.auth.signOut({ scope: "local" });
          if (user.email && opts.mailer) {
            await opts.mailer
              .send(accountDeletedMail(user.email, opts.shopTitle ?? ""))
              .catch((e: unknown) =>
                getLog().warn({ err: e instanceof Error ? e.message : String(e) }, "account deleted email not sent"),
              );
          }
          return { error: null };
        },
        async exportData() {
          const { data: auth } = await supabase.auth.getUser();
          const id = auth.user?.id;
          if (!id) return { data: null, error: { message: "Auth session missing!", status: 400 } };
          const profile = await supabase.from("profiles").select("username, created_at").eq("id", id).maybeSingle();
          const orders = await supabase
            .from("mixtapes")
            .select("*, money:order_money")
            .eq("user_id", id)
            .order("created_at")
            .order("id");
          const orderRows = (orders.data as Record<string, unknown>[] | null) ?? [];
          const messages = orderRows.length
            ? await supabase
                .from("order_messages")
                .select("id, order_id, from_mixer, body, created_at")
                .in(
                  "order_id",
                  orderRows.map((o) => o.id as number),
                )
                .order("created_at")
                .order("id")
            : { data: [], error: null };
          const emails = await supabase.rpc("my_order_emails");
          const failed = check(profile.error) ?? check(orders.error) ?? check(messages.error) ?? check(emails.error);
          if (failed) return { data: null, error: failed };
          return {
            data: {
              profile: (profile.data as { username: string | null; created_at: unknown } | null) ?? null,
              orders: orderRows,
              messages: (messages.data as Record<string, unknown>[] | null) ?? [],
              emails: (emails.data as Record<string, unknown>[] | null) ?? [],
            },
            error: null,
          };
        },
        async listMessages(orderId) {
          const { data, error } = await supabase
            .from("order_messages")
            .select("id, from_mixer, body, created_at")
            .eq("order_id", orderId)
            .order("created_at")
            .order("id");
          return { rows: (data as Record<string, unknown>[] | null) ?? [], error: check(error) };
        },
        async postMessage({ orderId, fromMixer, body }) {
          const { data, error } = await supabase
            .from("order_messages")
            .insert({ order_id: Number(orderId), from_mixer: fromMixer, body })
            .select("id")
            .single();
          const id = (data as { id?: unknown } | null)?.id;
          return { id: error || id === undefined || id === null ? null : String(id), error: check(error) };
        },
        async markOrderRead(code, side) {
          const { data, error } = await supabase.rpc("mark_order_read", { p_code: code, p_side: side });
          return { marked: data === true, error: check(error) };
        },
        async unreadMessages(side) {
          const { data, error } = await supabase.rpc("unread_messages", { p_side: side });
          return { rows: (data as Record<string, unknown>[] | null) ?? [], error: check(error) };
        },
        async insights({ weeks, dueDays, turnaroundDays }) {
          const { data, error } = await supabase.rpc("shop_insights", {
            p_weeks: weeks,
            p_due_days: dueDays,
            p_turnaround_days: turnaroundDays,
          });
          const insights = data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
          return { insights: error ? null : insights, error: check(error) };
        },
      };
    },
  };
}
