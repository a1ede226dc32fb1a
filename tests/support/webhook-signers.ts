// Each checkout's webhook as it signs it and as it says "paid": Stripe (the official package's test
// signature), Lemon Squeezy (HMAC-SHA256 of the raw body) and a creator's own checkout (Standard
// Webhooks). Keyed by the app's list of providers (PAYMENT_PROVIDERS): a provider added there needs
// its signer and its payment here, and then runs in every case that loops over the list.
import crypto from "node:crypto";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import type { PaymentProvider } from "~/domain/orders";

export const STRIPE_SECRET = "whsec_test_stripe_secret_for_the_system_test";
export const LEMON_SECRET = "lemon-secret-for-tests";
export const CHECKOUT_SECRET = `whsec_${Buffer.from("a checkout secret of 32 bytes!!").toString("base64")}`;

export const WEBHOOK_SECRETS: Record<PaymentProvider, string> = {
  stripe: STRIPE_SECRET,
  lemonsqueezy: LEMON_SECRET,
  checkout: CHECKOUT_SECRET,
};

type SignOptions = {
  secret?: string;
  /** Stripe's signing time, in seconds; now without it. */
  timestamp?: number;
  /** A Standard Webhooks message id and time; a fresh id and now without them. */
  id?: string;
  at?: Date;
};

/** A body as bytes is signed over exactly those bytes (a cut or slow body is signed whole). */
const SIGNERS: Record<PaymentProvider, (raw: string | Buffer, o: SignOptions) => Record<string, string>> = {
  stripe: (raw, { secret = STRIPE_SECRET, timestamp }) => ({
    "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload: text(raw), secret, timestamp }),
  }),
  lemonsqueezy: (raw, { secret = LEMON_SECRET }) => ({
    "x-signature": crypto.createHmac("sha256", secret).update(raw).digest("hex"),
  }),
  checkout: (raw, { secret = CHECKOUT_SECRET, id = `msg_${crypto.randomUUID()}`, at = new Date() }) => ({
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, at, text(raw)),
  }),
};
const text = (raw: string | Buffer) => (typeof raw === "string" ? raw : raw.toString("latin1"));

/** The provider's signature headers over these exact bytes. */
export const signed = (provider: PaymentProvider, raw: string | Buffer, options: SignOptions = {}) =>
  SIGNERS[provider](raw, options);

/** A live payment for the order, in the provider's own shape: what its checkout sends once paid. */
const PAYMENTS: Record<PaymentProvider, (code: string, amount: number, reference: string) => object> = {
  stripe: (code, amount, reference) => ({
    id: `evt_${reference}`,
    object: "event",
    type: "checkout.session.completed",
    livemode: true,
    data: {
      object: {
        id: `cs_${reference}`,
        object: "checkout.session",
        client_reference_id: code,
        amount_total: amount,
        currency: "usd",
        payment_status: "paid",
        payment_intent: `pi_${reference}`,
        livemode: true,
      },
    },
  }),
  lemonsqueezy: (code, amount, reference) => ({
    meta: { event_name: "order_created", custom_data: { code }, test_mode: false },
    data: { type: "orders", id: reference, attributes: { status: "paid", total: amount, currency: "USD" } },
  }),
  checkout: (code, amount, reference) => ({
    type: "payment.succeeded",
    data: { code, amount, currency: "USD", reference, test: false },
  }),
};

/** A live payment of the order, signed as its provider signs it: the raw body and its headers. */
export function signedPayment(provider: PaymentProvider, code: string, amount: number, reference: string) {
  const raw = JSON.stringify(PAYMENTS[provider](code, amount, reference));
  return { raw, headers: new Headers({ "content-type": "application/json", ...signed(provider, raw) }) };
}
