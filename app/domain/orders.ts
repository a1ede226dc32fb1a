import { findSong, type Catalogue } from "./catalogue";
import { readToggles, type Deck, type Toggles } from "./deck";
import { isPaid, readMoney, type OrderMoney } from "./money";
import { isOpen, ORDER_STATUSES, type OrderStatus } from "./order-status";
import { readTape, type Tape } from "./tape";
import { hasControlCharacter } from "./text";

export type StoredTrack = { id: string; title: string; thumbnail: string; previewUrl: string };

export type NewOrder = {
  user_id: string;
  code: string;
  tracks: StoredTrack[];
  toggles: Toggles;
  note: string;
  design_id: string | null;
  codename: string;
};

export const PAYMENT_PROVIDERS = ["stripe", "lemonsqueezy", "checkout"] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export type PaidVia = "manual" | PaymentProvider;
export const LEDGER_PROVIDERS = ["manual", ...PAYMENT_PROVIDERS] as const;

/** The copy promises "3–5 days". */
export const DUE_DAYS = 5;

export type Order = {
  id: string;
  code: string;
  tracks: StoredTrack[];
  toggles: Toggles;
  note: string;
  design_id: string | null;
  /** The design as it was sold (its name and image when the order was placed); null without one. */
  design: { name: string; image: string } | null;
  /** Null for orders placed before it was stored. */
  codename: string | null;
  created_at: string;
  status: OrderStatus;
  /** Derived from the ledger: any payment at all. */
  paid: boolean;
  /** The ledger's sums per currency and its movements (public.order_money). */
  money: OrderMoney;
  /** The drop's tape (public.order_tape), once the mixer uploaded it. */
  tape: Tape | null;
  delivery_url: string | null;
  mixer_message: string | null;
  cancel_reason: string | null;
  mixing_at: string | null;
  sent_at: string | null;
  cancelled_at: string | null;
  cancelled_by_shopper: boolean | null;
};

export const dueAt = (order: Pick<Order, "created_at">) =>
  new Date(new Date(order.created_at).getTime() + DUE_DAYS * 24 * 3600 * 1000).toISOString();

export const isLate = (order: Pick<Order, "status" | "created_at">, now = new Date()) =>
  isOpen(order) && new Date(dueAt(order)) < now;

/** Built from the request's catalogue, never from input: the order keeps each track as it was sold. */
export function orderFromDeck(deck: Deck, userId: string, catalogue: Catalogue): NewOrder {
  if (!deck.code) throw new Error("orderFromDeck needs a deck with an order code");
  const tracks = deck.songs.map((id) => {
    const song = findSong(catalogue, id);
    if (!song) throw new Error(`unknown song ${id}`);
    return { id: song.id, title: song.title, thumbnail: song.thumbnail, previewUrl: song.previewUrl };
  });
  return {
    user_id: userId,
    code: deck.code,
    tracks,
    toggles: { ...deck.toggles },
    note: deck.note,
    design_id: deck.design,
    codename: deck.codename,
  };
}

const isString = (v: unknown): v is string => typeof v === "string";

export function sameOrder(order: Order, deck: Deck): boolean {
  return (
    order.tracks.map((t) => t.id).join(",") === deck.songs.join(",") &&
    JSON.stringify(order.toggles) === JSON.stringify(readToggles(deck.toggles)) &&
    order.note === deck.note &&
    order.design_id === deck.design
  );
}

export function readStoredTracks(value: unknown): StoredTrack[] {
  if (!Array.isArray(value)) return [];
  const tracks: StoredTrack[] = [];
  for (const t of value) {
    if (t && typeof t === "object") {
      const { id, title, thumbnail, previewUrl } = t as Record<string, unknown>;
      if (isString(id) && isString(title) && isString(thumbnail) && isString(previewUrl)) {
        tracks.push({ id, title, thumbnail, previewUrl });
      }
    }
  }
  return tracks;
}

export function readOrderRow(row: Record<string, unknown>): Order | null {
  const id = row.id;
  const code = row.code;
  if ((typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint") || !isString(code)) return null;
  const money = readMoney(row.money);
  const cancelledAt = readTime(row.cancelled_at);
  return {
    id: String(id),
    code,
    tracks: readStoredTracks(row.tracks),
    toggles: readToggles(row.toggles),
    note: isString(row.note) ? row.note : "",
    design_id: isString(row.design_id) ? row.design_id : null,
    design:
      isString(row.design_id) && isString(row.design_name) && isString(row.design_image)
        ? { name: row.design_name, image: row.design_image }
        : null,
    codename: isString(row.codename) ? row.codename : null,
    created_at: readTime(row.created_at) ?? new Date(0).toISOString(),
    // Orders stored before the lifecycle existed read as received and unpaid.
    status: ORDER_STATUSES.includes(row.status as OrderStatus) ? (row.status as OrderStatus) : "received",
    paid: isPaid(money),
    money,
    tape: readTape(row.tape),
    delivery_url: isString(row.delivery_url) && /^https:\/\//.test(row.delivery_url) ? row.delivery_url : null,
    mixer_message: isString(row.mixer_message) ? row.mixer_message : null,
    cancel_reason: isString(row.cancel_reason) ? row.cancel_reason : null,
    mixing_at: readTime(row.mixing_at),
    sent_at: readTime(row.sent_at),
    cancelled_at: cancelledAt,
    cancelled_by_shopper:
      cancelledAt === null
        ? null
        : isString(row.cancelled_by) && isString(row.user_id)
          ? row.cancelled_by === row.user_id
          : // A deleted account's cancel lost both ids with the account (deleting it erases the person).
            row.user_id === null && row.cancelled_by === null,
  };
}

/** PostgREST and jsonb write times as text. */
function readTime(value: unknown): string | null {
  const date = value instanceof Date ? value : isString(value) ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}

export const DELIVERY_URL_MAX = 2000;

/** Control characters, even percent-encoded, are refused; the mixtapes_delivery_url constraint checks the same. */
export function normalizeDeliveryUrl(text: string): string | null {
  if (hasControlCharacter(text)) return null;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || !url.hostname || url.username || url.password) return null;
  const href = url.href;
  if (/%(?:[01][0-9a-f]|7f)/i.test(href) || /\s/.test(href) || href.length > DELIVERY_URL_MAX) return null;
  return href;
}

export function payLink(checkoutUrl: string, code: string): string {
  if (checkoutUrl.includes("{code}")) return checkoutUrl.replaceAll("{code}", encodeURIComponent(code));
  const url = new URL(checkoutUrl);
  url.searchParams.set("code", code);
  return url.toString();
}

export type QueuedOrder = Order & {
  shopper: { name: string; email: string | null };
  late: boolean;
  /** Sent with a mark by hand, so a replayed form records it once. */
  markToken: string;
};
