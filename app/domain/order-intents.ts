// The forms about an order: the review's (a new code, the transmit), the mixer's console actions and the
// shopper's cancel. Read on the server only, so no browser bundle carries them; the deck's intents, which
// the browser replays, and the readers they share are in intents.ts.
import { CONSOLE_FORM_COPY } from "./copy-console";
import { REVIEW_COPY } from "./copy-review";
import {
  bad,
  field,
  parseWith,
  readOptions,
  type DeckIntent,
  type Fields,
  type IntentParse,
  type Of,
  type Read,
} from "./intents";
import { amountExample, formatMoney, parseAmount } from "./money";
import { ORDER_CODE_RE } from "./order-code";
import { DELIVERY_URL_MAX, normalizeDeliveryUrl } from "./orders";
import { hasControlCharacter, textLength } from "./text";

/** The review's form: its options saved on the way, a new code, the transmit. */
export type ReviewIntent = { intent: "generate-code" } | { intent: "transmit"; code: string } | Of<"options", DeckIntent>;

export type MixerIntent =
  | { intent: "start-mixing"; code: string }
  | { intent: "mark-sent"; code: string; deliveryUrl: string | null; message: string | null }
  | ({ intent: "mark-paid" } & MoneyFields)
  | { intent: "cancel"; code: string; from: "received" | "mixing"; reason: string | null }
  | ({ intent: "mark-refunded" } & MoneyFields)
  | { intent: "undo-mark"; code: string; event: string };

/** A mark by hand: the amount the mixer typed (minor units), and the form's own token against a replay. */
type MoneyFields = { code: string; amount: number; currency: string; token: string };

export type ShopperIntent = { intent: "cancel"; code: string };

const REVIEW: { [K in ReviewIntent["intent"]]: Read<Of<K, ReviewIntent>> } = {
  options: readOptions,
  "generate-code": () => ({ intent: "generate-code" }),
  transmit: (fields) => {
    const code = (fields.get("code") ?? "").trim();
    if (code === "") return { error: REVIEW_COPY.codeRequired };
    if (!ORDER_CODE_RE.test(code)) return { error: REVIEW_COPY.codeFormat };
    return { intent: "transmit", code };
  },
};

export const MIXER_MESSAGE_MAX = 500;
export const CANCEL_REASON_MAX = 500;

function typedText(
  fields: Fields,
  name: string,
  max: number,
  tooLong: (max: number) => string,
): string | null | { error: string } {
  const raw = field(fields, name, max * 4);
  if (raw === null) return fields.has(name) ? bad : null;
  const text = raw.replace(/\r\n?/g, "\n").trim();
  if (textLength(text) > max) return { error: tooLong(max) };
  if (hasControlCharacter(text, { newlines: true })) return { error: CONSOLE_FORM_COPY.controlCharacters };
  return text || null;
}

const orderCode = (fields: Fields): string | null => {
  const code = fields.get("code");
  return code !== undefined && ORDER_CODE_RE.test(code) ? code : null;
};
const codeIntent =
  <K extends "start-mixing" | "cancel">(intent: K): Read<{ intent: K; code: string }> =>
  (fields) => {
    const code = orderCode(fields);
    return code === null ? bad : { intent, code };
  };
const moneyIntent =
  <K extends "mark-paid" | "mark-refunded">(intent: K): Read<{ intent: K } & MoneyFields> =>
  (fields) => {
    const code = orderCode(fields);
    const currency = (field(fields, "currency") ?? "").trim().toUpperCase();
    const token = field(fields, "token");
    const typed = field(fields, "amount", 40);
    if (code === null || !/^[A-Z]{3}$/.test(currency) || token === null || !/^[A-Za-z0-9-]{8,64}$/.test(token) || typed === null)
      return bad;
    const amount = parseAmount(typed, currency);
    if (amount === null) return { error: CONSOLE_FORM_COPY.amountInvalid(currency, amountExample(currency)) };
    // A refund is recorded only as its button named it: an amount typed since (without JavaScript) is asked first.
    if (intent === "mark-refunded" && field(fields, "named", 12) !== String(amount))
      return { error: CONSOLE_FORM_COPY.refundConfirm(formatMoney(amount, currency)!) };
    return { intent, code, amount, currency, token };
  };

const MIXER: { [K in MixerIntent["intent"]]: Read<Of<K, MixerIntent>> } = {
  "start-mixing": codeIntent("start-mixing"),
  "mark-paid": moneyIntent("mark-paid"),
  "mark-sent": (fields) => {
    const code = orderCode(fields);
    const link = field(fields, "deliveryUrl", DELIVERY_URL_MAX * 2);
    if (code === null || (link === null && fields.has("deliveryUrl"))) return bad;
    const deliveryUrl = !link?.trim() ? null : normalizeDeliveryUrl(link);
    if (deliveryUrl === null && link?.trim()) return { error: CONSOLE_FORM_COPY.deliveryLinkInvalid };
    const message = typedText(fields, "message", MIXER_MESSAGE_MAX, CONSOLE_FORM_COPY.messageTooLong);
    if (message !== null && typeof message === "object") return message;
    return { intent: "mark-sent", code, deliveryUrl, message };
  },
  "mark-refunded": moneyIntent("mark-refunded"),
  "undo-mark": (fields) => {
    const code = orderCode(fields);
    const event = field(fields, "event", 80);
    if (code === null || event === null || !/^manual:[A-Za-z0-9-]{8,64}$/.test(event)) return bad;
    return { intent: "undo-mark", code, event };
  },
  cancel: (fields) => {
    const code = orderCode(fields);
    const from = fields.get("from");
    if (code === null || (from !== "received" && from !== "mixing")) return bad;
    const reason = typedText(fields, "reason", CANCEL_REASON_MAX, CONSOLE_FORM_COPY.cancelReasonTooLong);
    if (reason !== null && typeof reason === "object") return reason;
    return { intent: "cancel", code, from, reason };
  },
};

const SHOPPER: { [K in ShopperIntent["intent"]]: Read<Of<K, ShopperIntent>> } = { cancel: codeIntent("cancel") };

export const parseReviewIntent = (form: FormData | URLSearchParams): IntentParse<ReviewIntent> =>
  parseWith(REVIEW as unknown as Record<string, Read<ReviewIntent>>, form);

export const parseMixerIntent = (form: FormData | URLSearchParams): IntentParse<MixerIntent> =>
  parseWith(MIXER as unknown as Record<string, Read<MixerIntent>>, form);

export const parseShopperIntent = (form: FormData | URLSearchParams): IntentParse<ShopperIntent> =>
  parseWith(SHOPPER as unknown as Record<string, Read<ShopperIntent>>, form);
