// The Backend port's contract, the console's queue counts (each filter of /mixer says
// how many orders it holds), against every adapter: for a search or every order, the ledger's
// "paid" for the unpaid filter, and a shopper counting only their own. The whole shop's counts
// are tallies kept as orders and payments change: after every kind of change, what a count of
// every order gives.
import "../../support/env";
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { DUE_DAYS } from "~/domain/orders";
import { readQueueCounts } from "~/domain/queue";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { backendContract, order, shopHelpers, track, unique, type SignedIn } from "../../support/backend-contract";
import { checkoutEvent, stripePayment } from "../../support/order-cases";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { shoppersAndMixer, place, backdate } = shopHelpers(contract);

  /** Codes that start with `prefix`: a search for it finds only this test's orders. */
  const coded = (userId: string, prefix: string) =>
    order(userId, { code: `${prefix}${crypto.randomBytes(4).toString("hex").toUpperCase()}`.slice(0, 8), tracks: [track("3")] });

  it("queue counts: each filter's orders, for a search or all; a shopper counts only their own", async () => {
    const { alice, bob, mixer } = await shoppersAndMixer();
    const prefix = `Q${crypto.randomBytes(2).toString("hex").toUpperCase()}`;
    const [a1, a2, b1, b2] = [
      coded(alice.user.id, prefix),
      coded(alice.user.id, prefix),
      coded(bob.user.id, prefix),
      coded(bob.user.id, prefix),
    ];
    await place([
      [alice, a1],
      [alice, a2],
      [bob, b1],
      [bob, b2],
    ]);
    await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "mixing" }));
    await mixer.browser.call((api) => api.updateOrder(b1.code, { to: "cancelled", from: "received", reason: null }));
    const paid = await mixer.browser.call((api) =>
      api.markMoney(b2.code, { kind: "payment", amount: 1000, currency: "USD", token: crypto.randomUUID() }),
    );
    expect(paid).toEqual({ outcome: "paid", error: null });
    await backdate(a1.code, "created_at", DUE_DAYS + 1); // late

    const counts = async (who: SignedIn, code: string | null) => {
      const { counts: raw, error } = await who.browser.call((api) => api.queueCounts({ code, dueDays: DUE_DAYS }));
      expect(error).toBeNull();
      return readQueueCounts(raw);
    };
    expect(await counts(mixer, prefix)).toEqual({ all: 4, received: 2, mixing: 1, sent: 0, cancelled: 1, unpaid: 3, late: 1 });
    expect(await counts(mixer, a2.code)).toEqual({ all: 1, received: 0, mixing: 1, sent: 0, cancelled: 0, unpaid: 1, late: 0 });
    expect((await counts(mixer, null))!.all).toBeGreaterThanOrEqual(4);
    expect(await counts(alice, prefix)).toEqual({ all: 2, received: 1, mixing: 1, sent: 0, cancelled: 0, unpaid: 2, late: 1 });
    // A refund of the only payment leaves the order paid once (the ledger's rule): not "unpaid" again.
    await mixer.browser.call((api) =>
      api.markMoney(b2.code, { kind: "refund", amount: 1000, currency: "USD", token: crypto.randomUUID() }),
    );
    expect((await counts(mixer, prefix))!.unpaid).toBe(3);
  });

  it("the whole shop's counts are kept as orders and payments change: each time what counting every order gives", async () => {
    const { alice, bob, mixer } = await shoppersAndMixer();
    const [a1, a2, b1] = [order(alice.user.id), order(alice.user.id), order(bob.user.id)];
    const kept = async () => {
      const { counts, error } = await mixer.browser.call((api) => api.queueCounts({ code: null, dueDays: DUE_DAYS }));
      expect(error).toBeNull();
      return readQueueCounts(counts);
    };
    // The owner is no mixer: queue_counts counts every order it reads (all of them), as a search does.
    const counted = async () =>
      readQueueCounts(
        (await ctx.sql.query<{ c: Record<string, unknown> | null }>(`select public.queue_counts(null, $1) as c`, [DUE_DAYS]))
          .rows[0].c,
      );
    const agree = async (step: string) => expect(await kept(), step).toEqual(await counted());
    const ledger = ctx.backend.payments!;

    await place([
      [alice, a1],
      [alice, a2],
      [bob, b1],
    ]);
    await agree("placed");
    expect(await kept()).toEqual({ all: 3, received: 3, mixing: 0, sent: 0, cancelled: 0, unpaid: 3, late: 0 });
    await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }));
    await agree("mixing");
    await mixer.browser.call((api) =>
      api.markMoney(a1.code, { kind: "payment", amount: 1000, currency: "USD", token: crypto.randomUUID() }),
    );
    await agree("paid by hand");
    expect((await kept())!.unpaid).toBe(2);
    const mark = await ctx.sql.query<{ event_id: string }>(
      `select e.event_id from public.payment_events e join public.mixtapes m on m.id = e.order_id where m.code = $1`,
      [a1.code],
    );
    expect((await mixer.browser.call((api) => api.undoMoneyMark(a1.code, mark.rows[0].event_id))).undone).toBe(true);
    await agree("the mark undone");
    expect((await kept())!.unpaid).toBe(3);
    // A webhook's payment, a second one, a test payment (never paid) and a payment for no order, attached.
    expect(await ledger.record(checkoutEvent("payment", b1.code, 1000, `ref-${unique()}`))).toBe("paid");
    expect(await ledger.record(checkoutEvent("payment", b1.code, 500, `ref-${unique()}`))).not.toBeNull();
    await agree("paid twice by webhook");
    expect(await ledger.record({ ...stripePayment(a2.code, 1000), test: true })).not.toBeNull();
    await agree("a test payment");
    expect((await kept())!.unpaid).toBe(2);
    const stray = checkoutEvent("payment", "NOPE2345", 1200, `ref-${unique()}`);
    expect(await ledger.record(stray)).toBe("unmatched");
    await agree("a payment for no order");
    expect((await mixer.browser.call((api) => api.attachPayment("checkout", stray.eventId, a2.code))).outcome).toBe("attached");
    await agree("attached");
    expect((await kept())!.unpaid).toBe(1);
    // At once: a new order paid by a webhook and by hand while the mixer starts it.
    const c1 = order(bob.user.id);
    await place([[bob, c1]]);
    await Promise.all([
      ledger.record(checkoutEvent("payment", c1.code, 1000, `ref-${unique()}`)),
      mixer.browser.call((api) =>
        api.markMoney(c1.code, { kind: "payment", amount: 1000, currency: "USD", token: crypto.randomUUID() }),
      ),
      mixer.browser.call((api) => api.updateOrder(c1.code, { to: "mixing" })),
    ]);
    await agree("at once");
    await mixer.browser.call((api) => api.updateOrder(b1.code, { to: "cancelled", from: "received", reason: null }));
    await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "sent", deliveryUrl: null, message: null }));
    await agree("cancelled and sent");
    await backdate(a2.code, "created_at", DUE_DAYS + 1);
    expect(await kept()).toEqual({ all: 4, received: 1, mixing: 1, sent: 1, cancelled: 1, unpaid: 1, late: 1 });
    await agree("late");
  });
});
