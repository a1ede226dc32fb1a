// Payments confirmed by the checkout. Signed events from Stripe (the official
// package's own test signature), Lemon Squeezy (HMAC of the raw body) and a creator's own
// checkout (Standard Webhooks) against the production server; every refusal is a 400 with
// nothing changed and one warning, without the body.
import { beforeAll, describe, expect, it } from "vitest";
import { Client, htmlText, PASSWORD, sleepMs, startServer, testTempDir, suiteServer } from "./setup";
import { placeOrder, STRIPE_SECRET, WEBHOOK_ENV, webhookSenders } from "./webhook-senders";

const SHOPPER = { username: "hook_shopper", email: "hook.shopper@example.com" };

describe("payment webhooks", () => {
  const server = suiteServer("webhooks", { shoppers: [SHOPPER], env: { ...WEBHOOK_ENV, LOG_LEVEL: "info" } });
  let shopper: Client;
  const { post, stripe, stripeEvent, lemon, checkout } = webhookSenders(() => server.url);
  const ordersPage = async () => htmlText((await shopper.get("/my-mixtapes")).body);
  const paidBadge = async (code: string) => {
    const page = (await shopper.get("/my-mixtapes")).body;
    const card = page.slice(page.indexOf(`id="order-${code}"`));
    return htmlText(/data-testid="order-paid"[^>]*>([^<]*)</.exec(card.slice(0, card.indexOf("</li>")))?.[1] ?? "");
  };
  const warningsSince = (from: number) =>
    server
      .output()
      .slice(from)
      .split("\n")
      .filter((l) => l.includes('"msg":"webhook refused"'));

  beforeAll(async () => {
    shopper = new Client(server.url);
    expect((await shopper.logIn(SHOPPER.email, PASSWORD)).status).toBe(302);
  });

  it("Stripe: checkout.session.completed marks the order paid with its amount, once; a replay answers 200 and changes nothing", async () => {
    const code = await placeOrder(shopper);
    expect(await paidBadge(code)).toBe("");
    const event = stripeEvent(`evt_${code}`, "checkout.session.completed", {
      id: `cs_${code}`,
      object: "checkout.session",
      client_reference_id: code,
      amount_total: 1200,
      currency: "usd",
      payment_status: "paid",
      payment_intent: `pi_${code}`,
    });
    const first = await stripe(event);
    expect([first.status, await first.text()]).toEqual([200, "paid"]);
    expect(await paidBadge(code)).toBe("Paid $12.00");
    const replay = await stripe(event);
    expect([replay.status, await replay.text()]).toEqual([200, "duplicate"]);
    // The refund, matched by the payment intent stored with the payment.
    const refund = stripeEvent(`evt_r_${code}`, "charge.refunded", {
      id: `ch_${code}`,
      object: "charge",
      amount_refunded: 1200,
      currency: "usd",
      payment_intent: `pi_${code}`,
    });
    const refunded = await stripe(refund);
    expect([refunded.status, await refunded.text()]).toEqual([200, "refunded"]);
    expect(await (await stripe(refund)).text()).toBe("duplicate");
    expect(await ordersPage()).toContain("Refunded");
  });

  it("refuses a bad or missing signature, a stale timestamp and malformed JSON with 400: nothing changes, one warning without the body", async () => {
    const code = await placeOrder(shopper);
    const from = server.output().length;
    const event = stripeEvent(`evt_bad_${code}`, "checkout.session.completed", {
      client_reference_id: code,
      amount_total: 5000,
      currency: "usd",
      payment_status: "paid",
    });
    expect((await stripe(event, "whsec_someone_else")).status).toBe(400);
    expect((await post("/webhooks/stripe", event, {})).status).toBe(400);
    expect((await stripe(event, STRIPE_SECRET, Math.floor(Date.now() / 1000) - 600)).status).toBe(400);
    expect((await stripe("{not json")).status).toBe(400);
    expect((await lemon({ meta: { event_name: "order_created", custom_data: { code } } }, "wrong")).status).toBe(400);
    expect((await lemon("[1,")).status).toBe(400);
    const stale = await checkout(`msg_${code}`, { type: "payment.succeeded", data: { code } }, new Date(Date.now() - 3600_000));
    expect(stale.status).toBe(400);
    expect(await paidBadge(code)).toBe("");
    await sleepMs(100);
    const warnings = warningsSince(from);
    expect(warnings).toHaveLength(7);
    for (const line of warnings) {
      expect(line).toContain('"level":40');
      expect(line).not.toContain(code);
    }
  });

  it("Lemon Squeezy and a creator's own checkout (Standard Webhooks) mark orders paid; an unknown code answers 200 and is kept for the mixer", async () => {
    const lemonCode = await placeOrder(shopper);
    const created = {
      meta: { event_name: "order_created", custom_data: { code: lemonCode } },
      data: { id: 9001, type: "orders", attributes: { status: "paid", total: 1500, currency: "EUR" } },
    };
    const res = await lemon(created);
    expect([res.status, await res.text()]).toEqual([200, "paid"]);
    expect(await (await lemon(created)).text()).toBe("duplicate");
    expect(await paidBadge(lemonCode)).toBe("Paid €15.00");

    const ownCode = await placeOrder(shopper);
    const own = await checkout(`msg_${ownCode}`, {
      type: "payment.succeeded",
      data: { code: ownCode, amount: 900, currency: "USD", reference: "inv-7" },
    });
    expect([own.status, await own.text()]).toEqual([200, "paid"]);
    expect(await paidBadge(ownCode)).toBe("Paid $9.00");

    const stray = await checkout("msg_stray", {
      type: "payment.succeeded",
      data: { code: "UNKNOWN1", amount: 1000, currency: "USD" },
    });
    expect([stray.status, await stray.text()]).toEqual([200, "unmatched"]);
    const none = await checkout("msg_none", { type: "payment.succeeded", data: { amount: 1000, currency: "USD" } });
    expect([none.status, await none.text()]).toEqual([200, "unmatched"]);
  });

  it("accepts a webhook body up to 64 kB with no Origin check or form rule, refuses a larger one with 413", async () => {
    const big = JSON.stringify({ type: "ping", pad: "x".repeat(70 * 1024) });
    expect((await post("/webhooks/checkout", big, {})).status).toBe(413);
    const ok = await checkout("msg_padded", { type: "ping", pad: "x".repeat(50 * 1024) });
    expect([ok.status, await ok.text()]).toEqual([200, "ignored"]);
  });

  it("an endpoint whose secret is unset, or an unknown provider, answers 404", async () => {
    const plain = await startServer({ dataDir: testTempDir("webhooks-off") });
    try {
      const event = stripeEvent("evt_off", "checkout.session.completed", {});
      const res = await fetch(`${plain.url}/webhooks/stripe`, {
        method: "POST",
        body: event,
        headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=x" },
      });
      expect(res.status).toBe(404);
    } finally {
      await plain.stop();
    }
    expect((await post("/webhooks/paypal", "{}", {})).status).toBeGreaterThanOrEqual(400);
  });
});
