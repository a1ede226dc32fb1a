// The Backend port's contract, money is a ledger: payments, refunds and disputes in
// any order and replayed, payments for no known code; run against every adapter.
import "../../support/env";
import { describe, expect, it } from "vitest";
import { type PaymentEvent } from "~/server/backend/port.server";
import { readWebhook } from "~/server/services/payments.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { seq, unique, order, backendContract } from "../../support/backend-contract";
import {
  line,
  everything,
  stripePayment,
  stripeRefund,
  checkoutEvent,
  dispute,
  orderings,
  lifecycleHelpers,
} from "../../support/order-cases";
import { signed, WEBHOOK_SECRETS } from "../../support/webhook-signers";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { shop, moneyOf, kindsFor } = lifecycleHelpers(contract);

  // ---- Money is a ledger -----------------------------------------------------------

  describe("the order lifecycle", () => {
    it("finding 1: a partial refund reads as partial, and a cancelled order is due the rest", async () => {
      const { mixer, a1 } = await shop();
      const paid = stripePayment(a1.code, 1200);
      expect(await ctx.backend.payments!.record(paid)).toBe("paid");
      expect(await ctx.backend.payments!.record(stripeRefund(paid.reference!, 100))).toBe("refunded");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 100, net: 1100, due: 0 })]);
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "cancelled", from: "received", reason: null }));
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 100, net: 1100, due: 1100 })]);
      const due = (await mixer.browser.call((api) => api.ledger({ ...everything, filter: "due" }))).rows;
      expect(due.map((r) => [r.order_code, r.kind, r.order_due])).toEqual([
        [a1.code, "refund", true],
        [a1.code, "payment", true],
      ]);
    });

    it("finding 2: a refund of some other payment, with this order's code, never refunds it and waits for the mixer", async () => {
      const { mixer, a1 } = await shop();
      expect(await ctx.backend.payments!.record(stripePayment(a1.code, 1500))).toBe("paid");
      const other: PaymentEvent = {
        provider: "lemonsqueezy",
        eventId: `order_refunded:${unique()}:100`,
        kind: "refund",
        code: a1.code,
        amount: 100,
        currency: "USD",
        reference: `77${seq}`,
        runningTotal: true,
      };
      expect(await ctx.backend.payments!.record(other)).toBe("unmatched");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1500, net: 1500 })]);
      const { rows } = await mixer.browser.call((api) => api.ledger({ ...everything, filter: "unmatched" }));
      expect(rows.find((r) => r.event_id === other.eventId)).toMatchObject({ kind: "refund", code: a1.code, order_code: null });
    });

    it("finding 3: every payment for one code is kept and counted; all but the first are due back until the mixer keeps one", async () => {
      const { alice, mixer, a1 } = await shop();
      const ledger = ctx.backend.payments!;
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => ledger.record(checkoutEvent("payment", a1.code, 1000, `pay-${a1.code}-${i}`))),
      );
      expect(outcomes.sort()).toEqual(["paid", ...Array(19).fill("paid_again")]);
      expect((await moneyOf(a1.code)).lines).toEqual([line({ payments: 20, paid: 20000, net: 20000, due: 19000 })]);
      const rows = (await mixer.browser.call((api) => api.ledger(everything))).rows.filter((r) => r.order_code === a1.code);
      expect(rows).toHaveLength(20);
      // The shopper hears of each payment.
      expect((await kindsFor(a1.code)).filter(([kind]) => kind === "paid")).toHaveLength(20);
      // A second tape, say: the mixer keeps one, and it is no longer due.
      const second = rows.find((r) => r.reference !== rows.at(-1)!.reference)!;
      expect(await mixer.browser.call((api) => api.keepPayment("checkout", String(second.event_id)))).toEqual({
        kept: true,
        error: null,
      });
      expect(await mixer.browser.call((api) => api.keepPayment("checkout", String(second.event_id)))).toEqual({
        kept: false,
        error: null,
      });
      expect((await alice.browser.call((api) => api.keepPayment("checkout", String(rows[0].event_id)))).kept).toBe(false);
      expect((await moneyOf(a1.code)).lines).toEqual([line({ payments: 20, paid: 20000, net: 20000, due: 18000 })]);
    });

    it("finding 3, attached: refunds that arrive while their payments are attached follow them, and the order's own payment is first once", async () => {
      const { mixer, b1 } = await shop();
      const ledger = ctx.backend.payments!;
      const strays = Array.from({ length: 5 }, (_, i) => checkoutEvent("payment", "NOPE1234", 1000, `stray-${b1.code}-${i}`));
      for (const stray of strays) expect(await ledger.record(stray)).toBe("unmatched");
      const [attached, recorded] = await Promise.all([
        Promise.all(strays.map((s) => mixer.browser.call((api) => api.attachPayment("checkout", s.eventId, b1.code)))),
        Promise.all([
          ...strays.map((s) => ledger.record(checkoutEvent("refund", "NOPE1234", 400, s.reference!))),
          ...Array.from({ length: 3 }, (_, i) => ledger.record(checkoutEvent("payment", b1.code, 1000, `own-${b1.code}-${i}`))),
        ]),
      ]);
      expect(attached.map((a) => a.outcome)).toEqual(Array(5).fill("attached"));
      // A refund is unmatched when it came before its payment's attach, and then the attach takes it along.
      expect(recorded.slice(0, 5).every((o) => o === "refunded" || o === "unmatched")).toBe(true);
      // The first payment is an own one unless an attach came first: never two.
      expect(recorded.slice(5).filter((o) => o === "paid").length).toBeLessThanOrEqual(1);
      expect(recorded.slice(5).filter((o) => o === "paid_again").length).toBeGreaterThanOrEqual(2);
      expect((await moneyOf(b1.code)).lines).toEqual([line({ payments: 8, paid: 8000, refunded: 2000, net: 6000, due: 5000 })]);
      const left = (await mixer.browser.call((api) => api.ledger({ ...everything, filter: "unmatched" }))).rows;
      expect(left.filter((r) => strays.some((s) => s.reference === r.reference))).toEqual([]);
    });

    it("finding 4: a refund that arrives before its payment applies when the payment does", async () => {
      const { alice, a1 } = await shop();
      const ledger = ctx.backend.payments!;
      await ctx.backend.emails!.claim(100);
      expect(await ledger.record(checkoutEvent("refund", a1.code, 1000, `early-${a1.code}`))).toBe("unmatched");
      expect((await moneyOf(a1.code)).lines).toEqual([]);
      expect(await ledger.record(checkoutEvent("payment", a1.code, 1000, `early-${a1.code}`))).toBe("paid");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1000, refunded: 1000, net: 0 })]);
      expect(await kindsFor(a1.code)).toEqual([
        ["paid", alice.email.toLowerCase()],
        ["refunded", alice.email.toLowerCase()],
      ]);
    });

    it("events in every order, each replayed: two payments and partial refunds that add up to the whole give one answer", async () => {
      const { alice } = await shop();
      const ledger = ctx.backend.payments!;
      const place = async () => {
        const o = order(alice.user.id);
        expect((await alice.browser.call((api) => api.insertOrder(o))).error).toBeNull();
        return o.code;
      };
      // Stripe: its refunds carry the refunded total so far.
      for (const events of orderings(["p1", "p2", "r400", "r1000"])) {
        const code = await place();
        const [pi1, pi2] = [`pi_${unique()}`, `pi_${unique()}`];
        const made = {
          p1: stripePayment(code, 1000, pi1),
          p2: stripePayment(code, 1000, pi2),
          r400: stripeRefund(pi1, 400),
          r1000: stripeRefund(pi1, 1000),
        };
        for (const name of events) expect(await ledger.record(made[name as keyof typeof made])).not.toBe("duplicate");
        for (const name of events) expect(await ledger.record(made[name as keyof typeof made])).toBe("duplicate");
        expect((await moneyOf(code)).lines, events.join(" ")).toEqual([
          line({ payments: 2, paid: 2000, refunded: 1000, net: 1000 }),
        ]);
      }
      // A checkout's own refunds are each their own amount: 400 and 600 make the whole.
      for (const events of orderings(["p", "r400", "r600"])) {
        const code = await place();
        const ref = `inv-${unique()}`;
        const made = {
          p: checkoutEvent("payment", code, 1000, ref),
          r400: checkoutEvent("refund", code, 400, ref),
          r600: checkoutEvent("refund", code, 600, ref),
        };
        for (const name of [...events, ...events]) await ledger.record(made[name as keyof typeof made]);
        expect((await moneyOf(code)).lines, events.join(" ")).toEqual([line({ paid: 1000, refunded: 1000, net: 0 })]);
      }
    });

    it("a dispute takes the money back while it is open or lost, gives it back when won, whatever order its events come in", async () => {
      const { mixer, a1, a2 } = await shop();
      const ledger = ctx.backend.payments!;
      const won = stripePayment(a1.code, 1200);
      const lost = stripePayment(a2.code, 1200);
      expect(await ledger.record(won)).toBe("paid");
      expect(await ledger.record(lost)).toBe("paid");
      const dpWon = `dp_${unique()}`;
      const dpLost = `dp_${unique()}`;
      expect(await ledger.record(dispute(won.reference!, dpWon, "needs_response"))).toBe("disputed");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, disputed: 1200, net: 0 })]);
      expect((await moneyOf(a1.code)).movements.at(-1)).toMatchObject({
        kind: "dispute",
        status: "needs_response",
        reason: "fraudulent",
      });
      expect(await ledger.record(dispute(won.reference!, dpWon, "won"))).toBe("disputed");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, net: 1200 })]);
      // Closed first, then the late "created": the closing word stands.
      expect(await ledger.record(dispute(lost.reference!, dpLost, "lost"))).toBe("disputed");
      expect(await ledger.record(dispute(lost.reference!, dpLost, "needs_response"))).toBe("disputed");
      expect((await moneyOf(a2.code)).lines).toEqual([line({ paid: 1200, disputed: 1200, net: 0 })]);
      const rows = (await mixer.browser.call((api) => api.ledger(everything))).rows.filter((r) => r.kind === "dispute");
      expect(rows.map((r) => r.dispute_status).sort()).toEqual(["lost", "needs_response", "needs_response", "won"]);
    });

    it("a dispute keeps Stripe's deadline for evidence (evidence_details.due_by), also when a later event of it has none", async () => {
      const { a1 } = await shop();
      const ledger = ctx.backend.payments!;
      const paid = stripePayment(a1.code, 1200);
      expect(await ledger.record(paid)).toBe("paid");
      const id = `dp_${unique()}`;
      const dueBy = Date.UTC(2026, 11, 20, 23, 59, 59) / 1000;
      const event = (status: string, evidence: unknown) => {
        const raw = JSON.stringify({
          id: `evt_${unique()}`,
          object: "event",
          type: "charge.dispute.updated",
          livemode: true,
          data: {
            object: {
              id,
              object: "dispute",
              amount: 1200,
              currency: "usd",
              payment_intent: paid.reference,
              status,
              reason: "fraudulent",
              evidence_details: evidence,
            },
          },
        });
        return readWebhook("stripe", raw, new Headers(signed("stripe", raw)), WEBHOOK_SECRETS.stripe);
      };
      const created = await event("needs_response", { due_by: dueBy, has_evidence: false });
      expect(created?.dispute).toEqual({ id, status: "needs_response", reason: "fraudulent", dueBy: "2026-12-20T23:59:59.000Z" });
      expect(await ledger.record(created!)).toBe("disputed");
      expect((await moneyOf(a1.code)).movements.at(-1)).toMatchObject({ kind: "dispute", dueBy: "2026-12-20T23:59:59.000Z" });
      // The evidence sent, an event without a deadline: the dispute keeps the one it had.
      const answered = await event("under_review", { due_by: null });
      expect(answered?.dispute?.dueBy).toBeNull();
      expect(await ledger.record(answered!)).toBe("disputed");
      expect((await moneyOf(a1.code)).movements.at(-1)).toMatchObject({
        status: "under_review",
        dueBy: "2026-12-20T23:59:59.000Z",
      });
      // A deadline no date can be is no deadline, never an error.
      for (const odd of [-1, 1e300, "soon", { due_by: "x" }, 2 ** 53])
        expect((await event("needs_response", { due_by: odd }))?.dispute?.dueBy, JSON.stringify(odd)).toBeNull();
    });

    it("payment events: recorded once (replays and concurrent duplicates), amount and provider kept, the shopper emailed", async () => {
      const { alice, mixer, a1 } = await shop();
      const ledger = ctx.backend.payments!;
      expect(ledger).not.toBeNull();
      await ctx.backend.emails!.claim(100);
      const paid = stripePayment(a1.code.toLowerCase(), 1200);
      const outcomes = await Promise.all([ledger.record(paid), ledger.record(paid), ledger.record(paid)]);
      expect(outcomes.sort()).toEqual(["duplicate", "duplicate", "paid"]);
      expect(await ledger.record(paid)).toBe("duplicate");
      // The same payment told by another event is still one payment.
      expect(await ledger.record({ ...paid, eventId: `evt_${unique()}` })).toBe("duplicate");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, net: 1200 })]);
      expect((await moneyOf(a1.code)).movements).toEqual([
        // Named as the provider names the payment: the console links to it there.
        expect.objectContaining({ kind: "payment", provider: "stripe", amount: 1200, reference: paid.reference }),
      ]);
      expect(await kindsFor(a1.code)).toEqual([["paid", alice.email.toLowerCase()]]);
      const refund = stripeRefund(paid.reference!, 1200);
      expect(await ledger.record(refund)).toBe("refunded");
      expect(await ledger.record(refund)).toBe("duplicate");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 1200, net: 0 })]);
      expect(await kindsFor(a1.code)).toEqual([["refunded", alice.email.toLowerCase()]]);
      // A shopper reads their own order's rows, nobody else's; the mixer reads every row.
      expect((await alice.browser.call((api) => api.ledger(everything))).rows.map((r) => r.order_code)).toEqual([
        a1.code,
        a1.code,
      ]);
      const seen = (await mixer.browser.call((api) => api.ledger(everything))).rows;
      expect(seen.filter((r) => r.order_code === a1.code)).toHaveLength(2);
    });

    it("a payment for no known code is kept and listed; the mixer attaches it to an order, once, and its refund follows it", async () => {
      const { alice, mixer, b1 } = await shop();
      const ledger = ctx.backend.payments!;
      const stray: PaymentEvent = {
        provider: "checkout",
        eventId: `msg_${unique()}`,
        kind: "payment",
        code: "NOPE1234",
        amount: 800,
        currency: "USD",
        reference: `ref-${unique()}`,
      };
      expect(await ledger.record(stray)).toBe("unmatched");
      expect(await ledger.record({ ...stray, kind: "refund", eventId: `msg_${unique()}`, amount: 300, code: null })).toBe(
        "unmatched",
      );
      const unmatched = { ...everything, filter: "unmatched" as const };
      const { rows } = await mixer.browser.call((api) => api.ledger(unmatched));
      // Two rows of the same instant may come in either order: compared as a set.
      const mine = rows.filter((r) => r.reference === stray.reference).map((r) => [r.kind, r.code, r.amount]);
      expect(mine.sort()).toEqual([
        ["payment", "NOPE1234", 800],
        ["refund", null, 300],
      ]);
      expect((await alice.browser.call((api) => api.attachPayment("checkout", stray.eventId, b1.code))).outcome).toBeNull();
      expect((await mixer.browser.call((api) => api.attachPayment("checkout", stray.eventId, "ZZZZ9999"))).outcome).toBe(
        "no_order",
      );
      expect((await mixer.browser.call((api) => api.attachPayment("checkout", stray.eventId, b1.code))).outcome).toBe("attached");
      expect((await mixer.browser.call((api) => api.attachPayment("checkout", stray.eventId, b1.code))).outcome).toBe("gone");
      expect((await moneyOf(b1.code)).lines).toEqual([line({ paid: 800, refunded: 300, net: 500 })]);
      const left = (await mixer.browser.call((api) => api.ledger(unmatched))).rows.map((r) => r.reference);
      expect(left).not.toContain(stray.reference);
    });
  });
});
