// Signed webhook senders for the three checkouts, each signed as its provider signs
// (tests/support/webhook-signers.ts). Shared by the webhook and ledger tests.
import { CHECKOUT_SECRET, LEMON_SECRET, signed, STRIPE_SECRET } from "../support/webhook-signers";
import { Client } from "./setup";

export { CHECKOUT_SECRET, LEMON_SECRET, STRIPE_SECRET };

/** The server's environment that turns the three endpoints on. */
export const WEBHOOK_ENV = {
  STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
  LEMONSQUEEZY_WEBHOOK_SECRET: LEMON_SECRET,
  PAYMENT_WEBHOOK_SECRET: CHECKOUT_SECRET,
};

export function webhookSenders(base: () => string) {
  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(base() + path, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  const stripe = (payload: string, secret = STRIPE_SECRET, timestamp?: number) =>
    post("/webhooks/stripe", payload, {
      ...signed("stripe", payload, { secret, timestamp }),
      // A provider's server is not a browser: the Origin check does not apply here.
      origin: "https://hooks.stripe.example",
    });
  const stripeEvent = (id: string, type: string, object: object) =>
    JSON.stringify({ id, object: "event", type, data: { object } });
  const lemon = (body: object | string, secret = LEMON_SECRET) => {
    const raw = typeof body === "string" ? body : JSON.stringify(body);
    return post("/webhooks/lemonsqueezy", raw, signed("lemonsqueezy", raw, { secret }));
  };
  const checkout = (id: string, body: object, at = new Date()) => {
    const raw = JSON.stringify(body);
    return post("/webhooks/checkout", raw, signed("checkout", raw, { id, at }));
  };
  return { post, stripe, stripeEvent, lemon, checkout };
}

/** One order through the real forms (no JavaScript); its code. */
export async function placeOrder(client: Client, songId = "4"): Promise<string> {
  const ok = (status: number, what: string) => {
    if (status !== 303) throw new Error(`${what} answered ${status}`);
  };
  ok((await client.post("/", { intent: "add", songId })).status, "add");
  ok((await client.post("/review", { intent: "generate-code" })).status, "generate-code");
  const code = /name="code" value="([A-Z0-9]{8})"/.exec((await client.get("/review")).body)![1];
  ok((await client.post("/review", { intent: "transmit", code })).status, "transmit");
  return code;
}
