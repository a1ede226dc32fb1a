// The payment providers have one list, PAYMENT_PROVIDERS of app/domain/orders.ts. The ledger's table
// holds its own, the SQL check payment_events_provider: a provider the code knows and the check does
// not would have every one of its events refused by the database (a 503, retried forever). Each
// provider's signed payment goes through its signature and into the ledger, in every adapter.
import "../../support/env";
import { describe, expect, it } from "vitest";
import { LEDGER_PROVIDERS, PAYMENT_PROVIDERS } from "~/domain/orders";
import { readWebhook } from "~/server/services/payments.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { backendContract, order, shopHelpers, unique } from "../../support/backend-contract";
import { line } from "../../support/money-line";
import { signedPayment, WEBHOOK_SECRETS } from "../../support/webhook-signers";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { place, moneyOf } = shopHelpers(contract);

  describe("every payment provider of the code", () => {
    it("the ledger's check allows exactly the code's providers (a new one needs a migration widening payment_events_provider)", async () => {
      const { rows } = await ctx.sql.query<{ def: string }>(
        `select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'payment_events_provider'`,
      );
      expect(rows).toHaveLength(1);
      const allowed = [...rows[0].def.matchAll(/'([^']+)'/g)].map((m) => m[1]);
      expect(allowed.sort()).toEqual([...LEDGER_PROVIDERS].sort());
    });

    it.each(PAYMENT_PROVIDERS)("%s: a signed payment is read and recorded in the ledger", async (provider) => {
      const shopper = await contract.signedInUser();
      const placed = order(shopper.user.id);
      await place([[shopper, placed]]);
      const { raw, headers } = signedPayment(provider, placed.code, 1200, `ref_${unique()}`);
      const event = await readWebhook(provider, raw, headers, WEBHOOK_SECRETS[provider]);
      expect(event).toMatchObject({ provider, kind: "payment", code: placed.code, amount: 1200, currency: "USD", test: false });
      expect(await ctx.backend.payments!.record(event!)).toBe("paid");
      expect((await moneyOf(placed.code)).lines).toEqual([line({ paid: 1200, net: 1200 })]);
      const { rows } = await ctx.sql.query<{ provider: string }>(
        `select provider from public.payment_events where event_id = $1`,
        [event!.eventId],
      );
      expect(rows).toEqual([{ provider }]);
    });
  });
});
