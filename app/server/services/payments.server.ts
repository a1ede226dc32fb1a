import crypto from "node:crypto";
import { Webhook } from "standardwebhooks";
import { PAYMENT_PROVIDERS, type PaymentProvider } from "~/domain/orders";
import { BackendUnavailableError, type Backend, type PaymentEvent } from "../backend/port.server";
import { getConfig } from "../platform/config.server";
import { getLog, reason } from "../platform/log.server";

const TOLERANCE_SECONDS = 300;

class Refused extends Error {}

// A signed event is never refused for what it says: a field the ledger cannot hold as sent
// is kept in a form it can (the mixer sees it at /mixer/payments), so the money is never lost.
// Its shape is anything JSON can be: what is not where an event keeps it says nothing.
const fit = (value: string | null, max: number): string | null => {
  // PostgreSQL's text holds no NUL: it goes, so that the row can be written at all.
  const text = value?.replaceAll("\u0000", "").trim() ?? "";
  if (text === "") return null;
  if (text.length <= max) return text;
  // Cut for display, with a hash of the whole so two long values never meet.
  return `${text.slice(0, max - 17)}…${crypto.createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
};
const amountOf = (v: number | null) => (v !== null && Number.isSafeInteger(v) && v >= 0 && v <= 2_000_000_000 ? v : null);
const currencyOf = (v: string | null) => (v && /^[A-Za-z]{3}$/.test(v) ? v.toUpperCase() : null);

function normalise(provider: PaymentProvider, read: Read): PaymentEvent {
  const references = [...new Set(read.references.flatMap((r) => fit(r, 200) ?? []))];
  return {
    provider,
    kind: read.kind,
    // A blank or over-long event id still names one event: the hash keeps it distinct.
    eventId: fit(read.eventId, 200) ?? `blank:${crypto.createHash("sha256").update(JSON.stringify(read)).digest("hex")}`,
    code: fit(read.code, 100),
    // Already in the ledger's units: every provider sends the minor units of domain/currency.ts.
    amount: amountOf(read.amount),
    currency: currencyOf(read.currency),
    reference: references[0] ?? null,
    aliases: references.slice(1),
    runningTotal: read.runningTotal ?? false,
    test: read.test,
    dispute: read.dispute && {
      id: fit(read.dispute.id, 200),
      status: fit(read.dispute.status, 40),
      reason: fit(read.dispute.reason, 100),
      dueBy: read.dispute.dueBy ?? null,
    },
  };
}

/** What a signed event says, as read: every name it gives its payment, the first the one it is known by. */
type Read = Omit<PaymentEvent, "provider" | "eventId" | "reference" | "aliases" | "test"> & {
  eventId: string | null;
  references: (string | null)[];
  test: boolean;
};
/** A verified event's reading; null when it says nothing the ledger keeps. Never throws but Refused. */
type Verify = (raw: string, headers: Headers, secret: string) => Read | null | Promise<Read | null>;

/** A verified body: JSON is required (400 otherwise); any shape of it is read, and what is not an object says nothing. */
const json = (raw: string): Record<string, unknown> => {
  try {
    return obj(JSON.parse(raw));
  } catch {
    throw new Refused("malformed JSON");
  }
};
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
const int = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : null);
const idOf = (v: unknown) => str(v) ?? str(obj(v).id);
const idText = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) ? String(v) : str(v));
/** A time in unix seconds as an ISO date; null for anything no date can be (up to the year 9999). */
const unixTime = (v: unknown) => {
  const seconds = int(v);
  return seconds !== null && Number.isSafeInteger(seconds) && seconds > 0 && seconds <= 253_402_300_799
    ? new Date(seconds * 1000).toISOString()
    : null;
};

const PROVIDERS: Record<PaymentProvider, { secret: () => string | undefined; verify: Verify }> = {
  stripe: {
    secret: () => getConfig().STRIPE_WEBHOOK_SECRET,
    async verify(raw, headers, secret) {
      // Loaded on the first Stripe event: the SDK is a third of a second of every start-up otherwise.
      const { default: Stripe } = await import("stripe");
      let parsed: unknown;
      try {
        parsed = Stripe.webhooks.constructEvent(raw, headers.get("stripe-signature") ?? "", secret, TOLERANCE_SECONDS);
      } catch (error) {
        // The signature is checked before the body is parsed; Stripe's mismatch text itself mentions "JSON formatting".
        throw new Refused(error instanceof SyntaxError ? "malformed JSON" : "bad signature or stale timestamp");
      }
      // Signed, so Stripe's: any shape is acknowledged, and read only where it is an event.
      const event = obj(parsed);
      const type = str(event.type) ?? "";
      const o = obj(obj(event.data).object);
      const common = { eventId: idText(event.id), test: event.livemode === false || o.livemode === false };
      if (type === "checkout.session.completed" || type === "checkout.session.async_payment_succeeded") {
        // A delayed payment method completes the session unpaid; its async_payment_succeeded event follows.
        if (o.payment_status !== "paid" && o.payment_status !== "no_payment_required") return null;
        return {
          kind: "payment",
          ...common,
          code: str(o.client_reference_id),
          amount: int(o.amount_total),
          currency: str(o.currency),
          // The session's payment intent, and the session: a refund or dispute may name either.
          references: [idOf(o.payment_intent), idOf(o.id)],
        };
      }
      if (type === "charge.refunded") {
        // amount_refunded is the charge's refunded total so far.
        return {
          kind: "refund",
          ...common,
          code: str(obj(o.metadata).code),
          amount: int(o.amount_refunded),
          currency: str(o.currency),
          // A charge names its payment intent, when it has one, and itself.
          references: [idOf(o.payment_intent), idOf(o.id)],
          runningTotal: true,
        };
      }
      if (type.startsWith("charge.dispute.") && type !== "charge.dispute.funds_withdrawn") {
        return {
          kind: "dispute",
          ...common,
          code: null,
          amount: int(o.amount),
          currency: str(o.currency),
          references: [idOf(o.payment_intent), idOf(o.charge)],
          dispute: {
            id: idOf(o.id),
            status: str(o.status),
            reason: str(o.reason),
            dueBy: unixTime(obj(o.evidence_details).due_by),
          },
        };
      }
      return null;
    },
  },
  lemonsqueezy: {
    secret: () => getConfig().LEMONSQUEEZY_WEBHOOK_SECRET,
    verify(raw, headers, secret) {
      const expected = crypto.createHmac("sha256", secret).update(raw).digest();
      const given = Buffer.from(headers.get("x-signature") ?? "", "hex");
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new Refused("bad signature");
      const body = json(raw);
      const meta = obj(body.meta);
      const data = obj(body.data);
      const attributes = obj(data.attributes);
      const name = str(meta.event_name);
      const orderId = idText(data.id);
      // Lemon Squeezy sends no event id: an order is created once; each refund raises its refunded total.
      const common = {
        code: str(obj(meta.custom_data).code),
        currency: str(attributes.currency),
        references: [orderId],
        test: meta.test_mode === true,
      };
      if (name === "order_created" && (attributes.status === undefined || attributes.status === "paid"))
        return { kind: "payment", eventId: `order_created:${orderId}`, amount: int(attributes.total), ...common };
      if (name === "order_refunded") {
        const refunded = int(attributes.refunded_amount) ?? int(attributes.total);
        return {
          kind: "refund",
          eventId: `order_refunded:${orderId}:${refunded}`,
          amount: refunded,
          runningTotal: true,
          ...common,
        };
      }
      return null;
    },
  },
  checkout: {
    secret: () => getConfig().PAYMENT_WEBHOOK_SECRET,
    verify(raw, headers, secret) {
      const signed = {
        "webhook-id": headers.get("webhook-id") ?? "",
        "webhook-timestamp": headers.get("webhook-timestamp") ?? "",
        "webhook-signature": headers.get("webhook-signature") ?? "",
      };
      try {
        new Webhook(secret).verify(raw, signed);
      } catch {
        throw new Refused("bad signature or stale timestamp");
      }
      const body = json(raw);
      const data = obj(body.data);
      const kind = body.type === "payment.succeeded" ? "payment" : body.type === "payment.refunded" ? "refund" : null;
      if (!kind) return null;
      return {
        kind,
        eventId: signed["webhook-id"],
        code: str(data.code),
        amount: int(data.amount),
        currency: str(data.currency),
        references: [str(data.reference)],
        test: data.test === true,
      };
    },
  },
};

const isProvider = (name: string | undefined): name is PaymentProvider => PAYMENT_PROVIDERS.includes(name as PaymentProvider);

/**
 * A signed event as the ledger keeps it; null when it says nothing the ledger keeps. Throws Refused
 * (a bad signature, a stale timestamp, malformed JSON). Needs no backend: each provider's contract case reads through it.
 */
export async function readWebhook(name: PaymentProvider, raw: string, headers: Headers, secret: string) {
  const read = await PROVIDERS[name].verify(raw, headers, secret);
  return read && normalise(name, read);
}

export const webhookEnabled = (name: string | undefined): name is PaymentProvider =>
  isProvider(name) && Boolean(PROVIDERS[name].secret());

const answer = (status: number, body: string, headers?: Record<string, string>) =>
  new Response(body, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });

/** Never log the body; 503 when the database is down so the provider retries. Recorded as the ledger's owner (the process's backend). */
export async function receiveWebhook(backend: Backend, name: string | undefined, request: Request): Promise<Response> {
  if (!webhookEnabled(name)) return answer(404, "Not found");
  const provider = PROVIDERS[name];
  const log = getLog().child({ webhook: name });
  const raw = await request.text();
  let event: PaymentEvent | null;
  try {
    event = await readWebhook(name, raw, request.headers, provider.secret()!);
    if (!event) return answer(200, "ignored");
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    log.warn({ why: error.message, bytes: raw.length }, "webhook refused");
    return answer(400, error.message);
  }
  try {
    const payments = backend.payments;
    if (!payments) {
      log.error("webhook received but payments cannot be recorded: set SUPABASE_SERVICE_ROLE_KEY");
      return answer(503, "not configured", { "Retry-After": "60" });
    }
    const outcome = await payments.record(event);
    log.info({ event: event.eventId, kind: event.kind, outcome }, "payment event");
    if (outcome !== "duplicate") void backend.queued.orderEmails.wake();
    return answer(200, outcome);
  } catch (error) {
    if (!(error instanceof BackendUnavailableError)) log.error({ err: reason(error) }, "payment event not recorded");
    else log.warn({ err: reason(error.cause ?? error) }, "payment event not recorded: database unavailable");
    return answer(503, "unavailable", { "Retry-After": "30" });
  }
}
