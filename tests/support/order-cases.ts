// What the order lifecycle's and the money ledger's contract files share: the queue and
// shop-settings reads, the payment providers' events, the money line a case expects,
// and the shop those cases start from.
import crypto from "node:crypto";
import { DUE_DAYS } from "~/domain/orders";
import type { PaymentEvent, QueueRead, ShopSettings } from "~/server/backend/port.server";
import { order, shopHelpers, unique, type Contract } from "./backend-contract";
import type { Browser } from "./browser";

export { line } from "./money-line";

export const queue = (over: Partial<QueueRead> = {}): QueueRead => ({
  status: null,
  unpaid: false,
  late: false,
  code: null,
  newestFirst: false,
  dueDays: DUE_DAYS,
  limit: 50,
  after: null,
  backward: false,
  ...over,
});
export const settings = (over: Partial<ShopSettings> = {}): ShopSettings => ({
  open: true,
  closedMessage: "",
  maxOpenOrders: null,
  ...over,
});

// ---- Money is a ledger -----------------------------------------------------------
export const everything = { provider: null, filter: "all", limit: 1000, offset: 0 } as const;
export const stripePayment = (code: string | null, amount: number, reference = `pi_${unique()}`): PaymentEvent => ({
  provider: "stripe",
  eventId: `evt_${unique()}`,
  kind: "payment",
  code,
  amount,
  currency: "usd",
  reference,
});
/** Stripe's charge.refunded: the refunded total so far. */
export const stripeRefund = (reference: string, total: number): PaymentEvent => ({
  provider: "stripe",
  eventId: `evt_${unique()}`,
  kind: "refund",
  code: null,
  amount: total,
  currency: "usd",
  reference,
  runningTotal: true,
});
export const checkoutEvent = (kind: "payment" | "refund", code: string, amount: number, reference: string): PaymentEvent => ({
  provider: "checkout",
  eventId: `msg_${unique()}`,
  kind,
  code,
  amount,
  currency: "USD",
  reference,
});
export const dispute = (reference: string, id: string, status: string, amount = 1200): PaymentEvent => ({
  provider: "stripe",
  eventId: `evt_${unique()}`,
  kind: "dispute",
  code: null,
  amount,
  currency: "usd",
  reference,
  dispute: { id, status, reason: "fraudulent" },
});
/** Every order of these items (Heap's algorithm). */
export const orderings = <T>(items: T[]): T[][] =>
  items.length <= 1
    ? [items]
    : items.flatMap((x, i) => orderings([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));

export type Who = { browser: Browser };

/** The lifecycle's shop and the reads and marks its cases make. */
export function lifecycleHelpers(contract: Contract) {
  const { ctx } = contract;
  const { shoppersAndMixer, place, moneyOf, backdate } = shopHelpers(contract);
  /** A shopper with two orders, a second shopper with one, and a mixer. */
  async function shop() {
    const { alice, bob, mixer } = await shoppersAndMixer((email) => email.toUpperCase()); // matched case-insensitively
    const a1 = order(alice.user.id);
    const b1 = order(bob.user.id);
    const a2 = order(alice.user.id);
    await place([
      [alice, a1],
      [bob, b1],
      [alice, a2],
    ]);
    return { alice, bob, mixer, a1, b1, a2 };
  }
  const statusOf = async (code: string) => {
    const [row] = await ctx().ordersWithCode(code);
    const { lines } = await moneyOf(code);
    return { status: row.status, paid: lines.length > 0, delivery_url: row.delivery_url, mixer_message: row.mixer_message };
  };
  const mark = (
    who: Who,
    code: string,
    kind: "payment" | "refund",
    amount: number,
    currency = "USD",
    token = crypto.randomUUID(),
  ) => who.browser.call((api) => api.markMoney(code, { kind, amount, currency, token }));
  const kindsFor = async (code: string) =>
    (await ctx().backend.emails!.claim(100))
      .filter((e) => e.order.code === code)
      .map((e) => [e.kind, e.recipient.toLowerCase()])
      .sort();
  /** The emails of marks by hand wait out their undo window: it passes, behind the app's back. */
  const undoWindowPasses = () => ctx().sql.query(`update public.order_emails set next_attempt_at = now() where sent_at is null`);
  return { shop, moneyOf, statusOf, mark, kindsFor, backdate, undoWindowPasses };
}
