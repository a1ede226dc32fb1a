// The Backend port's contract, the console's queue counts (each filter of /mixer says
// how many orders it holds), against every adapter: for a search or every order, the ledger's
// "paid" for the unpaid filter, and a shopper counting only their own.
import "../../support/env";
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { DUE_DAYS } from "~/domain/orders";
import { readQueueCounts } from "~/domain/queue";
import { allHarnesses } from "../../support/adapters";
import { backendContract, order, shopHelpers, track, type SignedIn } from "../../support/backend-contract";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  const contract = backendContract(harness, () => {});
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
});
