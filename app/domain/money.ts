// Amounts as checkouts send them: an integer in the currency's minor unit as the providers count it
// (1200 USD is $12.00, 500000 HUF is HUF 5,000): the rules are the table of ./currency.ts.
import { currencyRule } from "./currency";
import { MINIMUM_USD_CENTS } from "./price";

const formats = new Map<string, Intl.NumberFormat | null>();

/** Intl only names the currency: its digits are the table's. */
function formatOf(currency: string, digits: number): Intl.NumberFormat | null {
  const key = `${currency}:${digits}`;
  if (!formats.has(key)) {
    let format: Intl.NumberFormat | null = null;
    try {
      const fraction = { minimumFractionDigits: digits, maximumFractionDigits: digits };
      format = new Intl.NumberFormat("en-US", { style: "currency", currency, ...fraction });
    } catch {
      // not a currency Intl knows: shown as the decimal and its code
    }
    formats.set(key, format);
  }
  return formats.get(key)!;
}

/** The decimals an amount is shown with: the currency's usual ones, or all it has when a fraction is in it. */
function digitsOf(amount: number, currency: string | null): number {
  const { exponent, shown } = currencyRule(currency);
  return amount % 10 ** (exponent - shown) === 0 ? shown : exponent;
}

/** The amount as a plain decimal in its currency ("12.00", "5000" forints), exactly: for a spreadsheet and a form. */
export function majorUnits(amount: number, currency: string | null): string {
  const { exponent } = currencyRule(currency);
  const digits = digitsOf(amount, currency);
  const sign = amount < 0 ? "-" : "";
  const text = String(Math.abs(amount)).padStart(exponent + 1, "0");
  const whole = text.slice(0, text.length - exponent);
  const fraction = text.slice(text.length - exponent, text.length - exponent + digits);
  return `${sign}${whole}${digits > 0 ? `.${fraction}` : ""}`;
}

/** Twelve of the currency, as it is typed: "12.00", "12" forints, "12.000" dinars. */
export const amountExample = (currency: string) => majorUnits(12 * 10 ** currencyRule(currency).exponent, currency);

/** "$12.00", "HUF 5,000", "¥1,200", "KWD 12.345": the amount in its own currency's units; null without an amount. */
export function formatMoney(amount: number | null, currency: string | null): string | null {
  if (amount === null || currency === null) return null;
  const decimal = majorUnits(amount, currency);
  const format = formatOf(currency, digitsOf(amount, currency));
  return format ? format.format(Number(decimal)) : `${decimal} ${currency}`;
}

// ---- An order's money, as public.order_money derives it from the ledger's rows ----------------

export const MONEY_KINDS = ["payment", "refund", "dispute"] as const;
export type MoneyKind = (typeof MONEY_KINDS)[number];

/** One currency's sums, in minor units; currency null: payments marked by hand before amounts were kept. */
export type MoneyLine = {
  currency: string | null;
  /** Test money (a checkout's test mode): shown as such, never paid, never due. */
  test: boolean;
  /** Payments of some money (a payment of nothing pays for nothing). */
  payments: number;
  paid: number;
  refunded: number;
  /** A refund of an unknown amount gave back all of it. */
  refundedAll: boolean;
  disputed: number;
  /** Refunds in another currency than their payment's, or beyond what it had left: the mixer checks them, never subtracted. */
  flagged: number;
  net: number;
  due: number;
};
export type Movement = {
  kind: MoneyKind;
  provider: string;
  /** The ledger row's event id (a mark by hand's undo names it). */
  event: string | null;
  amount: number | null;
  currency: string | null;
  at: string;
  /** A dispute's status and reason, as the provider sent them. */
  status: string | null;
  reason: string | null;
  test: boolean;
  flagged: boolean;
  /** A payment beyond the order's price, due back until the mixer keeps it. */
  extra: boolean;
  /** A mark by hand a mixer can still undo. */
  undo: boolean;
  /** The payment as its provider names it (a Stripe payment intent or charge, a Lemon Squeezy order). */
  reference: string | null;
  /** A dispute's deadline for the shop's evidence (ISO), when the provider sent one. */
  dueBy?: string;
};
export type OrderMoney = { lines: MoneyLine[]; movements: Movement[] };

const count = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) ? v : 0);
const code3 = (v: unknown) => (typeof v === "string" && /^[A-Z]{3}$/.test(v) ? v : null);
const word = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);

/** Tolerant: anything unreadable is no money at all, never an error page. */
export function readMoney(value: unknown): OrderMoney {
  const raw = typeof value === "string" ? safeJson(value) : value;
  const o = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const lines = (Array.isArray(o.lines) ? o.lines : []).flatMap((l): MoneyLine[] => {
    if (!l || typeof l !== "object") return [];
    const r = l as Record<string, unknown>;
    return [
      {
        currency: code3(r.currency),
        test: r.test === true,
        payments: count(r.payments),
        paid: count(r.paid),
        refunded: count(r.refunded),
        refundedAll: r.refundedAll === true,
        disputed: count(r.disputed),
        flagged: count(r.flagged),
        net: typeof r.net === "number" && Number.isSafeInteger(r.net) ? r.net : 0,
        due: count(r.due),
      },
    ];
  });
  const movements = (Array.isArray(o.movements) ? o.movements : []).flatMap((m): Movement[] => {
    if (!m || typeof m !== "object") return [];
    const r = m as Record<string, unknown>;
    const at = typeof r.at === "string" ? new Date(r.at) : null;
    if (!MONEY_KINDS.includes(r.kind as MoneyKind) || !at || Number.isNaN(at.getTime())) return [];
    return [
      {
        kind: r.kind as MoneyKind,
        provider: word(r.provider) ?? "manual",
        event: word(r.event),
        amount: typeof r.amount === "number" && Number.isSafeInteger(r.amount) ? r.amount : null,
        currency: code3(r.currency),
        at: at.toISOString(),
        status: word(r.status),
        reason: word(r.reason),
        test: r.test === true,
        flagged: r.flagged === true,
        extra: r.extra === true,
        undo: r.undo === true,
        reference: typeof r.reference === "string" && /^[\w.:-]{1,200}$/.test(r.reference) ? r.reference : null,
        ...dueBy(r.dueBy),
      },
    ];
  });
  return { lines, movements };
}

const dueBy = (v: unknown): { dueBy?: string } => {
  const at = typeof v === "string" ? new Date(v) : null;
  return at && !Number.isNaN(at.getTime()) ? { dueBy: at.toISOString() } : {};
};

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const NO_MONEY: OrderMoney = { lines: [], movements: [] };

/** Live money only: a test payment never makes an order paid. */
export const liveLines = (money: OrderMoney) => money.lines.filter((l) => !l.test);
export const isPaid = (money: OrderMoney) => liveLines(money).some((l) => l.payments > 0);
export const refundDue = (money: OrderMoney) => liveLines(money).some((l) => l.due > 0);

const amountText = (amount: number, currency: string | null) => formatMoney(amount, currency) ?? "";

export type MoneyBadge =
  | { kind: "paid"; text: string }
  | { kind: "refunded"; text: string }
  | { kind: "due"; text: string }
  | { kind: "disputed"; text: string }
  | { kind: "below"; text: string }
  | { kind: "check"; text: string }
  | { kind: "test"; text: string }
  | { kind: "flagged"; text: string };

export type MoneyWords = {
  paid: string;
  paidAmount: (amount: string) => string;
  refunded: string;
  refundedAmount: (amount: string) => string;
  refundedOf: (part: string, whole: string) => string;
  due: (amount: string) => string;
  test: (amount: string) => string;
};
/** What only the mixer is shown. */
export type MixerMoneyWords = {
  disputed: (amount: string) => string;
  below: string;
  check: string;
  flagged: (amount: string) => string;
};

/** What each currency's line says, in the words of the page's side; the mixer's words add disputes and amount checks. */
export function moneyBadges(money: OrderMoney, words: MoneyWords, mixer: MixerMoneyWords | null = null): MoneyBadge[] {
  const badges: MoneyBadge[] = [];
  for (const line of money.lines) {
    if (mixer && line.flagged > 0) badges.push({ kind: "flagged", text: mixer.flagged(amountText(line.flagged, line.currency)) });
    if (line.payments === 0) continue;
    const known = line.currency !== null;
    const paid = amountText(line.paid, line.currency);
    if (line.test) {
      badges.push({ kind: "test", text: words.test(paid) });
      continue;
    }
    if (line.refundedAll || (line.refunded > 0 && line.refunded >= line.paid)) {
      badges.push({ kind: "refunded", text: known ? words.refundedAmount(paid) : words.refunded });
    } else if (line.refunded > 0) {
      badges.push({ kind: "refunded", text: words.refundedOf(amountText(line.refunded, line.currency), paid) });
    } else {
      badges.push({ kind: "paid", text: known ? words.paidAmount(paid) : words.paid });
    }
    if (mixer && line.disputed > 0)
      badges.push({ kind: "disputed", text: mixer.disputed(amountText(line.disputed, line.currency)) });
    if (line.due > 0) badges.push({ kind: "due", text: words.due(amountText(line.due, line.currency)) });
    if (mixer && line.currency === "USD" && line.paid < MINIMUM_USD_CENTS) badges.push({ kind: "below", text: mixer.below });
    if (mixer && known && line.currency !== "USD") badges.push({ kind: "check", text: mixer.check });
  }
  return badges;
}

/** What the order holds now, net of refunds: each currency's amount ("$12.00"), and whether a payment of no recorded amount is in it. */
export function netPaid(money: OrderMoney): { amounts: string[]; unknown: boolean } {
  const lines = liveLines(money);
  const amounts = lines.filter((l) => l.currency !== null && l.net > 0).map((l) => amountText(l.net, l.currency));
  const unknown = lines.some((l) => l.currency === null && l.payments > 0 && !l.refundedAll);
  return { amounts, unknown };
}

/** "12.50" in the currency's major units, to the minor units the checkouts send; null when it is not an amount of that currency. */
export function parseAmount(text: string, currency: string): number | null {
  const { exponent, shown, step } = currencyRule(currency);
  const trimmed = text.trim().replace(/^[\p{Sc}A-Za-z\s]+/u, "");
  const pattern = shown === 0 ? /^\d{1,9}$/ : new RegExp(`^\\d{1,9}(?:\\.\\d{1,${shown}})?$`);
  if (!pattern.test(trimmed)) return null;
  const [whole, fraction = ""] = trimmed.split(".");
  const minor = Number(whole) * 10 ** exponent + Number(fraction.padEnd(exponent, "0") || "0");
  return Number.isSafeInteger(minor) && minor > 0 && minor <= 2_000_000_000 && minor % step === 0 ? minor : null;
}

/** Where the mixer answers for a payment (a dispute's evidence, its deadline): the provider's own dashboard. */
export function providerPaymentUrl(m: Pick<Movement, "provider" | "reference" | "test">): string | null {
  if (m.provider === "stripe" && m.reference)
    return `https://dashboard.stripe.com/${m.test ? "test/" : ""}payments/${encodeURIComponent(m.reference)}`;
  if (m.provider === "lemonsqueezy") return "https://app.lemonsqueezy.com/orders";
  return null;
}

/** By when the mixer must answer a dispute (ISO): its deadline, while it still needs a response; null otherwise. */
export const disputeDeadline = (m: Movement): string | null =>
  m.kind === "dispute" && (m.status === "needs_response" || m.status === "warning_needs_response") ? (m.dueBy ?? null) : null;

/** A dispute took all the order's money: nothing is left of what was paid (test money aside). */
export const disputedToNothing = (money: OrderMoney) => {
  const real = money.lines.filter((l) => !l.test);
  return real.some((l) => l.disputed > 0) && real.every((l) => l.net <= 0);
};
