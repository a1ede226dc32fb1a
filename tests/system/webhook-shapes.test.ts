// A validly signed event may have any JSON shape: Stripe, Lemon Squeezy and a creator's own checkout
// each get signed bodies of arbitrary shapes (fast-check), near the real ones and far from them, at the
// production server's real endpoints. None is ever answered 5xx (a provider retries those for days), and
// the same process still answers after them all.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { Client, PASSWORD, suiteServer } from "./setup";
import { placeOrder, WEBHOOK_ENV, webhookSenders } from "./webhook-senders";

const SHOPPER = { username: "shape_shopper", email: "shape.shopper@example.com" };

/** Any JSON at all, or the value a field is meant to hold. */
const anything = fc.jsonValue({ maxDepth: 3 });
const or = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, arb, anything);
const hostile = fc.constantFrom("", " ", "\u0000", "a\u0000b", "\ud800", "=1+1", "x".repeat(300), "💿", "DROP TABLE");
const word = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: "binary", maxLength: 30 }), hostile);
const amount = fc.oneof(
  fc.integer({ min: -5, max: 5000 }),
  fc.constantFrom(0, 1, 2_000_000_000, 2_000_000_001, 2 ** 53, -1, 0.5, 1e300),
  fc.constantFrom("1200", "12.00", "-1", "1e3"),
);
const currency = fc.oneof(fc.constantFrom("usd", "EUR", "huf", "jpy", "kwd", "isk", "", "us", "USDX", "€"), word);

describe("webhooks: any signed shape gets 2xx or 4xx, never 5xx", () => {
  const server = suiteServer("webhook-shapes", { shoppers: [SHOPPER], env: WEBHOOK_ENV });
  let code = "";
  const { stripe, lemon, checkout } = webhookSenders(() => server.url);
  const codes = () => fc.oneof(fc.constant(code), fc.constant(code.toLowerCase()), word);

  beforeAll(async () => {
    const shopper = new Client(server.url);
    expect((await shopper.logIn(SHOPPER.email, PASSWORD)).status).toBe(302);
    code = await placeOrder(shopper);
  }, 300_000);

  const never5xx = async (res: Response, body: unknown) => {
    const text = await res.text();
    expect(res.status, `${res.status} ${text} for ${JSON.stringify(body)}`).toBeLessThan(500);
    // A signed body that parses is acknowledged: recorded, or ignored.
    expect(res.status, `${text} for ${JSON.stringify(body)}`).toBe(200);
  };

  it("the oddly shaped Stripe bodies of the probe are acknowledged", async () => {
    for (const body of [
      null,
      [1, 2],
      {},
      { type: 5 },
      { type: "charge.refunded" },
      { type: "charge.refunded", data: 7 },
      "x",
      42,
    ])
      await never5xx(await stripe(JSON.stringify(body)), body);
  });

  it("Stripe: arbitrary events, near the real ones and far from them", async () => {
    const ref = fc.oneof(fc.constantFrom(null, "pi_shape_1", "ch_shape_1", "cs_shape_1"), fc.record({ id: or(word) }), word);
    const object = fc.record(
      {
        id: or(fc.oneof(fc.constantFrom("cs_shape_1", "ch_shape_1", "dp_shape_1"), word)),
        object: or(fc.constantFrom("checkout.session", "charge", "dispute")),
        client_reference_id: or(codes()),
        amount_total: or(amount),
        amount_refunded: or(amount),
        amount: or(amount),
        currency: or(currency),
        payment_status: or(fc.constantFrom("paid", "unpaid", "no_payment_required")),
        payment_intent: or(ref),
        charge: or(ref),
        metadata: or(fc.record({ code: or(codes()) }, { requiredKeys: [] })),
        status: or(fc.constantFrom("needs_response", "won", "lost", "warning_needs_response", "warning_closed")),
        reason: or(word),
        // A dispute's deadline, in unix seconds: near real ones, and no date at all.
        evidence_details: or(
          fc.record(
            {
              due_by: or(
                fc.oneof(amount, fc.integer({ min: 1_700_000_000, max: 2_000_000_000 }), fc.constantFrom(253_402_300_800, -1e12)),
              ),
            },
            { requiredKeys: [] },
          ),
        ),
        livemode: or(fc.boolean()),
      },
      { requiredKeys: [] },
    );
    const event = fc.oneof(
      anything,
      fc.record(
        {
          id: or(
            fc.oneof(
              fc.uuid().map((u) => `evt_${u}`),
              word,
            ),
          ),
          object: or(fc.constant("event")),
          type: or(
            fc.constantFrom(
              "checkout.session.completed",
              "checkout.session.async_payment_succeeded",
              "charge.refunded",
              "charge.dispute.created",
              "charge.dispute.closed",
              "charge.dispute.funds_withdrawn",
            ),
          ),
          livemode: or(fc.boolean()),
          data: fc.oneof(anything, fc.record({ object: fc.oneof(object, object, anything) }, { requiredKeys: [] })),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(event, async (body) => never5xx(await stripe(JSON.stringify(body)), body)),
      { numRuns: 150 },
    );
  });

  it("Lemon Squeezy: arbitrary deliveries", async () => {
    const delivery = fc.oneof(
      anything,
      fc.record(
        {
          meta: or(
            fc.record(
              {
                event_name: or(fc.constantFrom("order_created", "order_refunded", "subscription_created")),
                custom_data: or(fc.record({ code: or(codes()) }, { requiredKeys: [] })),
                test_mode: or(fc.boolean()),
              },
              { requiredKeys: [] },
            ),
          ),
          data: or(
            fc.record(
              {
                id: or(fc.oneof(fc.integer({ min: 1, max: 50 }), word)),
                attributes: or(
                  fc.record(
                    {
                      status: or(fc.constantFrom("paid", "refunded", "pending")),
                      total: or(amount),
                      refunded_amount: or(amount),
                      currency: or(currency),
                    },
                    { requiredKeys: [] },
                  ),
                ),
              },
              { requiredKeys: [] },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(delivery, async (body) => never5xx(await lemon(JSON.stringify(body)), body)),
      { numRuns: 100 },
    );
  });

  it("a creator's own checkout (Standard Webhooks): arbitrary events and ids", async () => {
    const event = fc.oneof(
      anything,
      fc.record(
        {
          type: or(fc.constantFrom("payment.succeeded", "payment.refunded")),
          data: or(
            fc.record(
              { code: or(codes()), amount: or(amount), currency: or(currency), reference: or(word), test: or(fc.boolean()) },
              { requiredKeys: [] },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    );
    // The id is a header: printable ASCII, as the spec has it, and sometimes far longer than the ledger's.
    const id = fc.oneof(fc.stringMatching(/^[!-~]{1,40}$/), fc.constant(`msg_${"x".repeat(300)}`));
    await fc.assert(
      fc.asyncProperty(id, event, async (msg, body) => never5xx(await checkout(msg, body as object), body)),
      { numRuns: 100 },
    );
  });

  it("the same process answers afterwards", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
