// The Backend port's contract, money where the happy path never goes: what a probe with the
// providers' real payloads found (currencies, a charge's names, inquiries, test mode, a payment
// of nothing, refunds beyond their payment), and the mixer's hands (undo, the extra payment named,
// one "Thank you"); run against every adapter.
import "../../support/env";
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { type PaymentEvent } from "~/server/backend/port.server";
import { orderEmail } from "~/server/services/order-emails.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { unique, backendContract } from "../../support/backend-contract";
import {
  line,
  everything,
  stripePayment,
  checkoutEvent,
  dispute,
  lifecycleHelpers,
  queue,
  type Who,
} from "../../support/order-cases";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { shop, moneyOf, kindsFor, mark, undoWindowPasses } = lifecycleHelpers(contract);
  const record = (e: PaymentEvent) => ctx.backend.payments!.record(e);
  /** Stripe's charge.refunded as its fixtures send it: the charge's id, and its payment intent or null. */
  const chargeRefunded = (charge: string, paymentIntent: string | null, total: number, currency = "usd"): PaymentEvent => ({
    provider: "stripe",
    eventId: `evt_${unique()}`,
    kind: "refund",
    code: null,
    amount: total,
    currency,
    reference: paymentIntent ?? charge,
    aliases: paymentIntent ? [charge] : [],
    runningTotal: true,
  });
  const ledgerRows = async (who: Who, filter: "all" | "unmatched" | "due" | "flagged" = "all") =>
    (await who.browser.call((api) => api.ledger({ ...everything, filter }))).rows;

  describe("money where the happy path never goes", () => {
    it("a second payment in another currency is due back: USD 10 then EUR 11", async () => {
      const { mixer, a1 } = await shop();
      expect(await record(checkoutEvent("payment", a1.code, 1000, `usd-${a1.code}`))).toBe("paid");
      const eur = { ...checkoutEvent("payment", a1.code, 1100, `eur-${a1.code}`), currency: "EUR" };
      expect(await record(eur)).toBe("paid_again");
      expect((await moneyOf(a1.code)).lines).toEqual([
        line({ currency: "EUR", paid: 1100, net: 1100, due: 1100 }),
        line({ paid: 1000, net: 1000 }),
      ]);
      // The extra one is named as such: the EUR one, not the first.
      const rows = (await ledgerRows(mixer)).filter((r) => r.order_code === a1.code);
      expect(rows.map((r) => [r.currency, r.extra])).toEqual([
        ["EUR", true],
        ["USD", false],
      ]);
      expect((await mixer.browser.call((api) => api.keepPayment("checkout", eur.eventId))).kept).toBe(true);
      expect((await moneyOf(a1.code)).lines.map((l) => l.due)).toEqual([0, 0]);
      expect((await ledgerRows(mixer)).filter((r) => r.order_code === a1.code).map((r) => r.extra)).toEqual([false, false]);
    });

    it("a charge's refund and dispute find the payment by its payment intent or by the charge, whichever they name", async () => {
      const { a1, a2 } = await shop();
      // The checkout session names its payment intent and itself.
      const paid = { ...stripePayment(a1.code, 1200, `pi_${unique()}`), aliases: [`cs_${unique()}`] };
      expect(await record(paid)).toBe("paid");
      const charge = `ch_${unique()}`;
      expect(await record(chargeRefunded(charge, paid.reference, 200))).toBe("refunded");
      // Stripe's dispute object names only the charge (payment_intent: null): the refund taught the payment its name.
      expect(await record({ ...dispute(charge, `dp_${unique()}`, "needs_response", 1000), aliases: [] })).toBe("disputed");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 200, disputed: 1000, net: 0 })]);
      // A refund that comes first, naming both, waits; its payment adopts it, and a later charge-only event finds it.
      const pi = `pi_${unique()}`;
      const ch = `ch_${unique()}`;
      expect(await record(chargeRefunded(ch, pi, 500))).toBe("unmatched");
      expect(await record({ ...stripePayment(a2.code, 1500, pi), aliases: [`cs_${unique()}`] })).toBe("paid");
      expect(await record(chargeRefunded(ch, null, 700))).toBe("refunded");
      expect((await moneyOf(a2.code)).lines).toEqual([line({ paid: 1500, refunded: 700, net: 800 })]);
      // A payment learns a bounded number of names; an event beyond them is still recorded, never refused.
      for (let i = 0; i < 12; i++) expect(await record(chargeRefunded(`ch_${unique()}`, pi, 700))).toBe("refunded");
    });

    it("a charge that names no payment the shop knows waits, and the mixer attaches it to the order's payment", async () => {
      const { mixer, alice, b1 } = await shop();
      expect(await record({ ...stripePayment(b1.code, 1200, `cs_${unique()}`) })).toBe("paid");
      const ch = `ch_${unique()}`;
      const refund = chargeRefunded(ch, null, 300);
      expect(await record(refund)).toBe("unmatched");
      const waiting = await ledgerRows(mixer, "unmatched");
      expect(waiting.find((r) => r.event_id === refund.eventId)).toMatchObject({ kind: "refund", reference: ch });
      expect((await alice.browser.call((api) => api.attachPayment("stripe", refund.eventId, b1.code))).outcome).toBeNull();
      expect((await mixer.browser.call((api) => api.attachPayment("stripe", refund.eventId, b1.code))).outcome).toBe("attached");
      expect((await moneyOf(b1.code)).lines).toEqual([line({ paid: 1200, refunded: 300, net: 900 })]);
      // The payment learnt the charge's name: the charge's dispute finds it.
      expect(await record({ ...dispute(ch, `dp_${unique()}`, "lost", 900), aliases: [] })).toBe("disputed");
      expect((await moneyOf(b1.code)).lines).toEqual([line({ paid: 1200, refunded: 300, disputed: 900, net: 0 })]);
    });

    it("a dispute inquiry withdraws no money, whatever its word", async () => {
      const { a1 } = await shop();
      const paid = stripePayment(a1.code, 1200);
      expect(await record(paid)).toBe("paid");
      const dp = `dp_${unique()}`;
      for (const status of ["warning_needs_response", "warning_under_review", "warning_closed"]) {
        expect(await record(dispute(paid.reference!, dp, status))).toBe("disputed");
        expect((await moneyOf(a1.code)).lines, status).toEqual([line({ paid: 1200, net: 1200 })]);
      }
      expect((await moneyOf(a1.code)).movements.at(-1)).toMatchObject({ kind: "dispute", status: "warning_closed" });
    });

    it("test-mode money is shown as test and kept out of the live totals, the counts and the insights; no email", async () => {
      const { mixer, a1, a2 } = await shop();
      await ctx.backend.emails!.claim(100);
      const window = { weeks: 1, dueDays: 5, turnaroundDays: 30 };
      const revenue = async () =>
        ((await mixer.browser.call((api) => api.insights(window))).insights!.revenue as { amount: number }[]).reduce(
          (n, r) => n + Number(r.amount),
          0,
        );
      const unpaid = async () =>
        Number((await mixer.browser.call((api) => api.queueCounts({ code: a1.code.slice(0, 8), dueDays: 5 }))).counts!.unpaid);
      const before = await revenue();
      expect(await record({ ...stripePayment(a1.code, 1200), test: true })).toBe("test");
      const lemonTest: PaymentEvent = {
        ...checkoutEvent("payment", a2.code, 900, `ls-${a2.code}`),
        provider: "lemonsqueezy",
        test: true,
      };
      expect(await record(lemonTest)).toBe("test");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ test: true, paid: 1200, net: 1200 })]);
      expect((await ctx.ordersWithCode(a1.code))[0]).toBeDefined();
      expect(await unpaid()).toBe(1);
      expect(
        (await mixer.browser.call((api) => api.listQueue(queue({ unpaid: true, limit: 200 })))).rows.map((r) => r.code),
      ).toEqual(expect.arrayContaining([a1.code, a2.code]));
      expect(await revenue()).toBe(before);
      expect(await kindsFor(a1.code)).toEqual([]);
      const rows = (await ledgerRows(mixer)).filter((r) => r.order_code === a1.code);
      expect(rows.map((r) => r.test)).toEqual([true]);
      // Cancelled, an order of test money only has nothing to give back.
      const cancel = { to: "cancelled", from: "received", reason: null } as const;
      expect((await mixer.browser.call((api) => api.updateOrder(a2.code, cancel))).updated).toBe(true);
      expect((await moneyOf(a2.code)).lines.map((l) => l.due)).toEqual([0]);
      const told = (await ctx.backend.emails!.claim(100)).filter((e) => e.order.code === a2.code && e.kind === "cancelled");
      expect(told.map((e) => orderEmail(e).text).join()).not.toContain("refunded");
      // A live payment still makes it paid, and counts.
      expect(await record(stripePayment(a1.code, 1000))).toBe("paid");
      expect(await unpaid()).toBe(0);
      expect(await revenue()).toBe(before + 1000);
    });

    it("a payment of nothing does not make an order paid, and sends no thanks", async () => {
      const { mixer, a1 } = await shop();
      await ctx.backend.emails!.claim(100);
      expect(await record(checkoutEvent("payment", a1.code, 0, `zero-${a1.code}`))).toBe("recorded");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ payments: 0 })]);
      expect((await mixer.browser.call((api) => api.queueCounts({ code: a1.code, dueDays: 5 }))).counts!.unpaid).toBe(1);
      expect(await kindsFor(a1.code)).toEqual([]);
      // The next payment is the first that pays.
      expect(await record(checkoutEvent("payment", a1.code, 1000, `real-${a1.code}`))).toBe("paid");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1000, net: 1000 })]);
    });

    it("a refund beyond what its payment has left, or in another currency, is flagged for the mixer and never subtracted", async () => {
      const { mixer, a1, a2 } = await shop();
      const ref = `inv-${a1.code}`;
      expect(await record(checkoutEvent("payment", a1.code, 1000, ref))).toBe("paid");
      expect(await record(checkoutEvent("refund", a1.code, 400, ref))).toBe("refunded");
      const over = checkoutEvent("refund", a1.code, 700, ref);
      expect(await record(over)).toBe("refunded");
      const euro = { ...checkoutEvent("refund", a1.code, 300, ref), currency: "EUR" };
      expect(await record(euro)).toBe("refunded");
      expect((await moneyOf(a1.code)).lines).toEqual([
        line({ currency: "EUR", payments: 0, flagged: 300 }),
        line({ paid: 1000, refunded: 400, flagged: 700, net: 600 }),
      ]);
      const flagged = await ledgerRows(mixer, "flagged");
      expect(flagged.map((r) => r.event_id).sort()).toEqual([over.eventId, euro.eventId].sort());
      // Stripe's refunded total so far, beyond its charge: flagged too.
      const paid = stripePayment(a2.code, 1000);
      expect(await record(paid)).toBe("paid");
      expect(await record(chargeRefunded(`ch_${unique()}`, paid.reference, 1500))).toBe("refunded");
      expect((await moneyOf(a2.code)).lines).toEqual([line({ paid: 1000, flagged: 1500, net: 1000 })]);
    });

    it("two payments: the shopper is thanked once, the other email says the order was already paid", async () => {
      const { mixer, a1 } = await shop();
      await ctx.backend.emails!.claim(100);
      const [p1, p2] = [
        checkoutEvent("payment", a1.code, 1000, `one-${a1.code}`),
        checkoutEvent("payment", a1.code, 1000, `two-${a1.code}`),
      ];
      expect(await record(p1)).toBe("paid");
      expect(await record(p2)).toBe("paid_again");
      const emails = (await ctx.backend.emails!.claim(100)).filter((e) => e.order.code === a1.code);
      expect(emails.map((e) => [e.kind, e.entry?.orderWasPaid])).toEqual([
        ["paid", false],
        ["paid", true],
      ]);
      const [thanks, second] = emails.map((e) => orderEmail(e).text);
      expect(thanks).toContain("Thank you!");
      expect(second).not.toContain("Thank you");
      expect(second).toContain(`received a second payment of $10.00 for order ${a1.code}, which was already paid.`);
      // The ledger names the extra one, and only it can be kept.
      const rows = (await ledgerRows(mixer)).filter((r) => r.order_code === a1.code);
      expect(rows.map((r) => [r.reference, r.extra])).toEqual([
        [`two-${a1.code}`, true],
        [`one-${a1.code}`, false],
      ]);
    });
  });

  describe("a mark by hand can be undone for a while", () => {
    const markAs = (token: string) => `manual:${token}`;
    const undo = (who: Who, code: string, event: string) => who.browser.call((api) => api.undoMoneyMark(code, event));

    it("the mixer undoes Mark Paid: the row goes, the order is unpaid again, its email is never sent", async () => {
      const { alice, mixer, a1 } = await shop();
      await ctx.backend.emails!.claim(100);
      const token = crypto.randomUUID();
      expect((await mark(mixer, a1.code, "payment", 1000, "USD", token)).outcome).toBe("paid");
      expect((await moneyOf(a1.code)).movements).toEqual([
        expect.objectContaining({ provider: "manual", event: markAs(token), undo: true }),
      ]);
      // The email waits for the window.
      expect(await kindsFor(a1.code)).toEqual([]);
      expect(await undo(alice, a1.code, markAs(token))).toEqual({ undone: false, error: null });
      expect(await undo(mixer, a1.code, markAs(token))).toEqual({ undone: true, error: null });
      expect(await undo(mixer, a1.code, markAs(token))).toEqual({ undone: false, error: null });
      expect((await moneyOf(a1.code)).lines).toEqual([]);
      await undoWindowPasses();
      expect(await kindsFor(a1.code)).toEqual([]);
      // Marked again: its email is sent once the window has passed.
      expect((await mark(mixer, a1.code, "payment", 1000)).outcome).toBe("paid");
      await undoWindowPasses();
      expect(await kindsFor(a1.code)).toEqual([["paid", alice.email.toLowerCase()]]);
    });

    it("never a provider's row, never after the window, never once something came after it", async () => {
      const { mixer, a1, a2, b1 } = await shop();
      const paid = stripePayment(a1.code, 1200);
      expect(await record(paid)).toBe("paid");
      expect(await undo(mixer, a1.code, paid.eventId)).toEqual({ undone: false, error: null });
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, net: 1200 })]);
      // Too late.
      const late = crypto.randomUUID();
      expect((await mark(mixer, a2.code, "payment", 1000, "USD", late)).outcome).toBe("paid");
      await ctx.sql.query(`update public.payment_events set received_at = now() - interval '11 minutes' where event_id = $1`, [
        markAs(late),
      ]);
      expect(await undo(mixer, a2.code, markAs(late))).toEqual({ undone: false, error: null });
      expect((await moneyOf(a2.code)).movements[0]).toMatchObject({ undo: false });
      // Something came after it: a refund by hand is undone first.
      const [pay, refund] = [crypto.randomUUID(), crypto.randomUUID()];
      expect((await mark(mixer, b1.code, "payment", 1000, "USD", pay)).outcome).toBe("paid");
      expect((await mark(mixer, b1.code, "refund", 1000, "USD", refund)).outcome).toBe("refunded");
      expect(await undo(mixer, b1.code, markAs(pay))).toEqual({ undone: false, error: null });
      expect(await undo(mixer, b1.code, markAs(refund))).toEqual({ undone: true, error: null });
      expect(await undo(mixer, b1.code, markAs(pay))).toEqual({ undone: true, error: null });
      expect((await moneyOf(b1.code)).lines).toEqual([]);
    });
  });
});
