// Row-level security and constraints of the order lifecycle proven in SQL, bypassing the app:
// mixers, shoppers and the anonymous as Supabase's PostgREST switches to them, on the schema of
// db/shim.sql + supabase/migrations (tests/support/rls.ts). Embedded databases only (PGlite and PostgreSQL).
import "../support/env";
import { beforeEach, describe, expect, it } from "vitest";
import { normalizeDeliveryUrl } from "~/domain/orders";
import type { Sql, SqlDriver } from "~/server/backend/sql/db.server";
import { A, B, as, asA, asAnon, insertOrder, rlsDatabase, sqlTargets } from "../support/rls";

describe.each(sqlTargets())("RLS and constraints in SQL: $name", (target) => {
  let db: SqlDriver;
  rlsDatabase(target, (fresh) => (db = fresh));

  describe("the order lifecycle", () => {
    const M = "00000000-0000-4000-8000-00000000000c";
    const asM = <T>(fn: (tx: Sql) => Promise<T>) => as(db, "authenticated", M, fn);
    const order = async (code: string) =>
      (
        await db.query(
          `select status, public.order_paid(m) as paid, mixing_at is not null as mixing_at, mixing_by,
                  sent_at is not null as sent_at, sent_by, cancelled_at is not null as cancelled_at, delivery_url, mixer_message, note
             from public.mixtapes m where code = $1`,
          [code],
        )
      ).rows[0];

    beforeEach(async () => {
      if (!target.available) return;
      await db.query(
        `insert into auth.users (id, email, raw_user_meta_data) values ($1, 'DJ@example.test', '{"username":"dj"}')`,
        [M],
      );
      await db.query(`insert into public.mixers (email) values ('dj@example.test')`);
    });

    it("a new order is received and unpaid; a mixer reads every order and profile, a shopper only their own", async () => {
      expect(await order("AAAAAAA1")).toMatchObject({ status: "received", paid: false, delivery_url: null, mixer_message: null });
      const all = await asM((tx) => tx.query(`select code from public.mixtapes order by code`));
      expect(all.rows.map((r) => r.code)).toEqual(["AAAAAAA1", "BBBBBBB1"]);
      const profiles = await asM((tx) => tx.query(`select username, email from public.profiles order by username`));
      expect(profiles.rows).toEqual([
        { username: "dj", email: "DJ@example.test" },
        { username: "rebel_a", email: "a@example.test" },
        { username: "rebel_b", email: "b@example.test" },
      ]);
      expect((await asA(db, (tx) => tx.query(`select code from public.mixtapes`))).rows).toEqual([{ code: "AAAAAAA1" }]);
      expect((await asA(db, (tx) => tx.query(`select public.is_mixer() as m`))).rows).toEqual([{ m: false }]);
      expect((await asM((tx) => tx.query(`select public.is_mixer() as m`))).rows).toEqual([{ m: true }]);
    });

    it("a mixer moves an order forward once, recording when and by whom; skipping or going back fails (23514)", async () => {
      const step = (set: string, from: string) =>
        asM((tx) => tx.query(`update public.mixtapes set ${set} where code = 'AAAAAAA1' and ${from} returning code`));
      await expect(
        asM((tx) => tx.query(`update public.mixtapes set status = 'sent' where code = 'AAAAAAA1'`)),
      ).rejects.toMatchObject({
        code: "23514",
      });
      expect((await step("status = 'mixing'", "status = 'received'")).rows).toHaveLength(1);
      expect((await step("status = 'mixing'", "status = 'received'")).rows).toHaveLength(0); // a replay changes nothing
      expect(await order("AAAAAAA1")).toMatchObject({ status: "mixing", mixing_at: true, mixing_by: M, sent_at: false });
      await expect(
        asM((tx) => tx.query(`update public.mixtapes set status = 'received' where code = 'AAAAAAA1'`)),
      ).rejects.toMatchObject({
        code: "23514",
      });
      const sent = await step(
        "status = 'sent', delivery_url = 'https://tapes.example/a1', mixer_message = 'Enjoy'",
        "status = 'mixing'",
      );
      expect(sent.rows).toHaveLength(1);
      expect(await order("AAAAAAA1")).toMatchObject({
        status: "sent",
        sent_at: true,
        sent_by: M,
        delivery_url: "https://tapes.example/a1",
        mixer_message: "Enjoy",
      });
    });

    it("money is written only through the ledger: a mixer marks a payment by hand once per token; nobody writes the rows directly", async () => {
      const mark = (token: string) =>
        asM((tx) => tx.query(`select public.mark_money('BBBBBBB1', 'payment', 1200, 'USD', $1) as outcome`, [token]));
      expect((await mark("token-0001")).rows).toEqual([{ outcome: "paid" }]);
      expect((await mark("token-0001")).rows).toEqual([{ outcome: "duplicate" }]);
      expect(await order("BBBBBBB1")).toMatchObject({ status: "received", paid: true });
      const { rows } = await db.query(`select provider, kind, amount, currency, marked_by from public.payment_events`);
      expect(rows).toEqual([{ provider: "manual", kind: "payment", amount: 1200, currency: "USD", marked_by: M }]);
      for (const sql of [
        `insert into public.payment_events (provider, event_id, kind, amount) values ('manual', 'x', 'payment', 1)`,
        `update public.payment_events set amount = 1`,
      ]) {
        await expect(asM((tx) => tx.query(sql))).rejects.toMatchObject({ code: "42501" });
      }
      // A delete is an undo: a hand mark, the order's newest row, within its window; never a provider's row.
      await db.query(
        `insert into public.payment_events (provider, event_id, kind, amount, currency, order_id)
         select 'stripe', 'evt_1', 'payment', 1200, 'USD', id from public.mixtapes where code = 'BBBBBBB1'`,
      );
      expect((await asM((tx) => tx.query(`delete from public.payment_events`))).rows).toEqual([]);
      expect((await db.query(`select provider from public.payment_events order by seq`)).rows).toEqual([
        { provider: "manual" },
        { provider: "stripe" },
      ]);
      await db.query(`delete from public.payment_events where provider = 'stripe'`);
      expect((await as(db, "authenticated", B, (tx) => tx.query(`delete from public.payment_events returning 1`))).rows).toEqual(
        [],
      );
      await db.query(`update public.payment_events set received_at = now() - interval '11 minutes'`);
      expect((await asM((tx) => tx.query(`delete from public.payment_events returning 1`))).rows).toEqual([]);
      await db.query(`update public.payment_events set received_at = now()`);
      expect((await asM((tx) => tx.query(`delete from public.payment_events returning provider`))).rows).toEqual([
        { provider: "manual" },
      ]);
      expect((await mark("token-0003")).rows).toEqual([{ outcome: "paid" }]);
      await expect(
        asA(db, (tx) => tx.query(`select public.mark_money('AAAAAAA1', 'payment', 1200, 'USD', 'token-0002')`)),
      ).rejects.toMatchObject({ code: "42501" });
      await expect(
        asA(db, (tx) =>
          tx.query(
            `select public.record_payment_event('stripe', 'e', 'payment', 'AAAAAAA1', 1, 'USD', null, '{}', false, false, null, null, null, null)`,
          ),
        ),
      ).rejects.toMatchObject({ code: "42501" });
      // A shopper reads their own order's rows only; the mixers read every one.
      expect((await asA(db, (tx) => tx.query(`select 1 from public.payment_events`))).rows).toEqual([]);
      expect((await as(db, "authenticated", B, (tx) => tx.query(`select kind from public.payment_events`))).rows).toEqual([
        { kind: "payment" },
      ]);
    });

    it("the delivery link and message come only with sent: https only, at most 500 characters", async () => {
      await expect(
        asM((tx) => tx.query(`update public.mixtapes set mixer_message = 'early' where code = 'AAAAAAA1'`)),
      ).rejects.toMatchObject({
        code: "23514",
      });
      await asM((tx) => tx.query(`update public.mixtapes set status = 'mixing' where code = 'AAAAAAA1'`));
      for (const url of ["http://tapes.example/a1", "javascript:alert(1)", "https://"]) {
        await expect(
          asM((tx) => tx.query(`update public.mixtapes set status = 'sent', delivery_url = $1 where code = 'AAAAAAA1'`, [url])),
        ).rejects.toMatchObject({ code: "23514" });
      }
      await expect(
        asM((tx) =>
          tx.query(`update public.mixtapes set status = 'sent', mixer_message = $1 where code = 'AAAAAAA1'`, ["m".repeat(501)]),
        ),
      ).rejects.toMatchObject({ code: "23514" });
      expect(await order("AAAAAAA1")).toMatchObject({ status: "mixing", delivery_url: null, mixer_message: null });
    });

    it("the app's delivery-link rule and the constraint agree: whatever the app accepts, the database stores", async () => {
      const { rows } = await db.query<{ def: string }>(
        `select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'mixtapes_delivery_url'`,
      );
      const check = rows[0].def.replace(/^CHECK \(/, "(").replace(/ NOT VALID$/, "");
      const accepted = async (url: string) =>
        (await db.query<{ ok: boolean }>(`select ${check} as ok from (select $1::text as delivery_url) t`, [url])).rows[0].ok;
      const inputs = [
        "https://tapes.example/a1",
        "HTTPS://X.EXAMPLE/upper",
        "https://X.example:8443/p?q=1#f",
        "https://ü.example/tape",
        " https://tapes.example/trimmed ",
        "https://tapes.example/%00",
        "https://tapes.example/%7F",
        "https://tapes.example/a b",
        "https://tapes.example/\u0085",
        "https://user:pw@tapes.example/",
        "http://tapes.example/a1",
        "https://",
      ];
      for (const input of inputs) {
        const stored = normalizeDeliveryUrl(input);
        if (stored !== null) expect({ input, ok: await accepted(stored) }).toEqual({ input, ok: true });
      }
      expect(normalizeDeliveryUrl("HTTPS://X.EXAMPLE/upper")).toBe("https://x.example/upper");
      expect(normalizeDeliveryUrl("https://tapes.example/%00")).toBeNull();
      expect(await accepted("HTTPS://X.EXAMPLE/upper")).toBe(false);
      expect(await accepted("https://tapes.example/%00")).toBe(false);
    });

    it("nobody changes an order's contents or its recorded times, a mixer included (42501)", async () => {
      for (const set of ["note = 'rewritten'", "user_id = '" + B + "'", "mixing_by = '" + M + "'", "cancelled_at = now()"]) {
        await expect(asM((tx) => tx.query(`update public.mixtapes set ${set} where code = 'AAAAAAA1'`))).rejects.toMatchObject({
          code: "42501",
        });
      }
      await expect(asM((tx) => tx.query(`delete from public.mixtapes where code = 'AAAAAAA1'`))).rejects.toMatchObject({
        code: "42501",
      });
      expect(await order("AAAAAAA1")).toMatchObject({ status: "received", note: "", mixing_by: null, cancelled_at: false });
    });

    it("a shopper changes no status or payment, not even on their own order, and cannot insert one (42501)", async () => {
      const tries = (code: string) =>
        asA(db, (tx) => tx.query(`update public.mixtapes set status = 'mixing' where code = $1 returning code`, [code]));
      // Their own order: the trigger refuses anything but a cancel; another's: not even seen.
      await expect(tries("AAAAAAA1")).rejects.toMatchObject({ code: "42501" });
      expect((await tries("BBBBBBB1")).rows).toEqual([]);
      await expect(
        asA(db, (tx) => tx.query(`insert into public.mixtapes (user_id, code, status) values ($1, 'AAAAAAA9', 'sent')`, [A])),
      ).rejects.toMatchObject({ code: "42501" });
      expect(await order("AAAAAAA1")).toMatchObject({ status: "received", paid: false });
      expect(await order("BBBBBBB1")).toMatchObject({ status: "received", paid: false });
    });

    it("a shopper cancels their own order while it is received, and only that: the time and author recorded", async () => {
      const cancel = (code: string) =>
        asA(db, (tx) => tx.query(`update public.mixtapes set status = 'cancelled' where code = $1 returning code`, [code]));
      expect((await cancel("BBBBBBB1")).rows).toEqual([]);
      await expect(
        asA(db, (tx) => tx.query(`update public.mixtapes set status = 'cancelled', note = 'x' where code = 'AAAAAAA1'`)),
      ).rejects.toMatchObject({ code: "42501" });
      expect((await cancel("AAAAAAA1")).rows).toEqual([{ code: "AAAAAAA1" }]);
      const [row] = (
        await db.query<{ status: string; by: string; at: boolean }>(
          `select status, cancelled_by::text as by, cancelled_at is not null as at from public.mixtapes where code = 'AAAAAAA1'`,
        )
      ).rows;
      expect(row).toEqual({ status: "cancelled", by: A, at: true });
      await expect(cancel("AAAAAAA1")).rejects.toMatchObject({ code: "42501" }); // cancelled is final
    });

    it("two mixers at once: the update conditional on the status lets exactly one through", async () => {
      const start = () =>
        asM((tx) =>
          tx.query(`update public.mixtapes set status = 'mixing' where code = 'BBBBBBB1' and status = 'received' returning code`),
        );
      const results = await Promise.all([start(), start(), start()]);
      expect(results.map((r) => r.rows.length).sort()).toEqual([0, 0, 1]);
    });

    it("the order emails are queued with the change: the receipt and one per mixer, then the sent note; closed to every role", async () => {
      await asA(db, (tx) => insertOrder(tx, { user_id: A, code: "MAIL0001" }));
      const queue = async () =>
        (
          await db.query(
            `select e.kind, e.recipient from public.order_emails e join public.mixtapes m on m.id = e.order_id where m.code = 'MAIL0001' order by e.id`,
          )
        ).rows;
      expect(await queue()).toEqual([
        { kind: "received", recipient: "a@example.test" },
        { kind: "new_order", recipient: "dj@example.test" },
      ]);
      await asM((tx) => tx.query(`update public.mixtapes set status = 'mixing' where code = 'MAIL0001'`));
      await asM((tx) => tx.query(`update public.mixtapes set status = 'sent' where code = 'MAIL0001'`));
      expect((await queue()).map((e) => e.kind)).toEqual(["received", "new_order", "sent"]);
      for (const run of [
        asM,
        (fn: (tx: Sql) => Promise<unknown>) => asA(db, fn),
        (fn: (tx: Sql) => Promise<unknown>) => asAnon(db, fn),
      ]) {
        await expect(run((tx) => tx.query(`select * from public.order_emails`))).rejects.toMatchObject({ code: "42501" });
        await expect(run((tx) => tx.query(`select * from public.claim_order_emails(10)`))).rejects.toMatchObject({
          code: "42501",
        });
        await expect(run((tx) => tx.query(`select * from public.mixers`))).rejects.toMatchObject({ code: "42501" });
      }
    });

    it("claim leases each due email once; finish records the send or schedules a retry", async () => {
      const claim = async () =>
        (
          await db.query<{ id: string; kind: string; code: string }>(
            `select id, kind, order_row ->> 'code' as code from public.claim_order_emails(10)`,
          )
        ).rows;
      const first = await claim();
      // The seed orders came before the mixer: each has its receipt only.
      expect(first.map((e) => `${e.code} ${e.kind}`).sort()).toEqual(["AAAAAAA1 received", "BBBBBBB1 received"]);
      expect(await claim()).toEqual([]); // leased
      const [sent, failed] = first;
      await db.query(`select public.finish_order_email($1, null)`, [sent.id]);
      await db.query(`select public.finish_order_email($1, 'SMTP down')`, [failed.id]);
      const rows = (
        await db.query(
          `select id::text, sent_at is not null as sent, last_error, next_attempt_at > now() as later from public.order_emails where id in ($1, $2) order by id`,
          [sent.id, failed.id],
        )
      ).rows;
      expect(rows).toEqual([
        { id: String(sent.id), sent: true, last_error: null, later: false },
        { id: String(failed.id), sent: false, last_error: "SMTP down", later: true },
      ]);
      expect(await claim()).toEqual([]); // the retry waits for its backoff
    });
  });
});
