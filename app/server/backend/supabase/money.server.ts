// The ledger: its rows, the mixers' marks, kept and attached payments (under RLS); the providers' events (service role).
import type { SupabaseClient } from "@supabase/supabase-js";
import type { AttachOutcome, MarkOutcome, MoneyCalls, PaymentLedger, PaymentOutcome } from "../port.server";
import { check, must, rowsOf } from "./client.server";
import type { SupabaseContext } from "./context.server";

export function money({ supabase }: SupabaseContext): MoneyCalls {
  return {
    async ledger({ provider, filter, limit, offset }) {
      const { data, error } = await supabase.rpc("ledger_rows", {
        p_provider: provider,
        p_filter: filter,
        p_limit: limit,
        p_offset: offset,
      });
      return { rows: rowsOf(data), error: check(error) };
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
    async undoMoneyMark(code, eventId) {
      const { data, error } = await supabase.rpc("undo_money_mark", { p_code: code, p_event_id: eventId });
      return { undone: data === true, error: check(error) };
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
  };
}

/** The function is not granted to anyone but the service role. */
export function paymentLedger(service: SupabaseClient): PaymentLedger {
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
        p_aliases: e.aliases ?? [],
        p_running_total: e.runningTotal ?? false,
        p_test: e.test ?? false,
        p_dispute: e.dispute?.id ?? null,
        p_dispute_status: e.dispute?.status ?? null,
        p_dispute_reason: e.dispute?.reason ?? null,
        p_dispute_due_by: e.dispute?.dueBy ?? null,
      });
      must(error);
      return data as PaymentOutcome;
    },
  };
}
