// The ledger: its rows, the mixers' marks, kept and attached payments (under RLS); the providers' events (the owner).
import type { AttachOutcome, MarkOutcome, MoneyCalls, PaymentLedger, PaymentOutcome } from "../port.server";
import { attempt, ownerQuery, type SqlDriver } from "./db.server";
import type { SqlContext } from "./context.server";

export function money({ asSession }: SqlContext): MoneyCalls {
  return {
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

    undoMoneyMark: (code, eventId) =>
      attempt({ undone: false }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ undone: boolean }>(`select public.undo_money_mark($1, $2) as undone`, [code, eventId]),
        );
        return { undone: rows[0]?.undone === true };
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
          tx.query<{ outcome: AttachOutcome }>(`select public.attach_payment($1, $2, $3) as outcome`, [provider, eventId, code]),
        );
        return { outcome: rows[0]?.outcome ?? null };
      }),
  };
}

/** Run by the owner: the function is not granted to anon or authenticated. */
export function paymentLedger(db: SqlDriver): PaymentLedger {
  return {
    async record(e) {
      const rows = await ownerQuery<{ outcome: PaymentOutcome }>(
        db,
        `select public.record_payment_event($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) as outcome`,
        [
          e.provider,
          e.eventId,
          e.kind,
          e.code,
          e.amount,
          e.currency,
          e.reference,
          e.aliases ?? [],
          e.runningTotal ?? false,
          e.test ?? false,
          e.dispute?.id ?? null,
          e.dispute?.status ?? null,
          e.dispute?.reason ?? null,
          e.dispute?.dueBy ?? null,
        ],
      );
      return rows[0].outcome;
    },
  };
}
