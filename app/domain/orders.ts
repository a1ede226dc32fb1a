// Orders as stored in the mixtapes table, and the tolerant reading of them.
import { findSong } from "./catalogue";
import { readToggles, type Deck, type Toggles } from "./deck";
import { hasControlCharacter } from "./text";

export type StoredTrack = { id: string; title: string; thumbnail: string; previewUrl: string };

/** What an insert sends. */
export type NewOrder = {
  user_id: string;
  code: string;
  tracks: StoredTrack[];
  toggles: Toggles;
  note: string;
  design_id: string | null;
};

export const ORDER_STATUSES = ["received", "mixing", "sent"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type Order = {
  id: string;
  code: string;
  tracks: StoredTrack[];
  toggles: Toggles;
  note: string;
  design_id: string | null;
  created_at: string;
  status: OrderStatus;
  paid: boolean;
  /** Set when the order is sent: an https:// link and the mixer's words. */
  delivery_url: string | null;
  mixer_message: string | null;
};

/** The status an order may move to next; transitions only go forward. */
export const nextStatus = (status: OrderStatus): OrderStatus | null =>
  status === "received" ? "mixing" : status === "mixing" ? "sent" : null;

/** The stored tracks are built on the server from the catalogue, never from input. */
export function orderFromDeck(deck: Deck, userId: string): NewOrder {
  if (!deck.code) throw new Error("orderFromDeck needs a deck with an order code");
  const tracks = deck.songs.map((id) => {
    const song = findSong(id);
    if (!song) throw new Error(`unknown song ${id}`);
    return { id: song.id, title: song.title, thumbnail: song.thumbnail, previewUrl: song.previewUrl };
  });
  return { user_id: userId, code: deck.code, tracks, toggles: { ...deck.toggles }, note: deck.note, design_id: deck.design };
}

const isString = (v: unknown): v is string => typeof v === "string";

/** True when a stored order holds exactly this deck: the same tracks in order, options, note and design. */
export function sameOrder(order: Order, deck: Deck): boolean {
  return (
    order.tracks.map((t) => t.id).join(",") === deck.songs.join(",") &&
    JSON.stringify(order.toggles) === JSON.stringify(readToggles(deck.toggles)) &&
    order.note === deck.note &&
    order.design_id === deck.design
  );
}

/** Stored tracks that lack any of the string fields are dropped. */
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

/** Reads one row of any shape into an Order; null when it has no usable code or id. */
export function readOrderRow(row: Record<string, unknown>): Order | null {
  const id = row.id;
  const code = row.code;
  if ((typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint") || !isString(code)) return null;
  const created = row.created_at;
  const date = created instanceof Date ? created : isString(created) ? new Date(created) : new Date(0);
  const createdAt = (Number.isNaN(date.getTime()) ? new Date(0) : date).toISOString();
  return {
    id: String(id),
    code,
    tracks: readStoredTracks(row.tracks),
    toggles: readToggles(row.toggles),
    note: isString(row.note) ? row.note : "",
    design_id: isString(row.design_id) ? row.design_id : null,
    created_at: createdAt,
    // Orders stored before the lifecycle existed read as received and unpaid.
    status: ORDER_STATUSES.includes(row.status as OrderStatus) ? (row.status as OrderStatus) : "received",
    paid: row.paid === true,
    delivery_url: isString(row.delivery_url) && /^https:\/\//.test(row.delivery_url) ? row.delivery_url : null,
    mixer_message: isString(row.mixer_message) ? row.mixer_message : null,
  };
}

export const DELIVERY_URL_MAX = 2000;

/**
 * A delivery link as it is stored: parsed by the URL API (scheme and host in lower case,
 * spaces percent-encoded), https only, with no control character, raw or percent-encoded
 * (%00-%1F, %7F), and at most DELIVERY_URL_MAX characters; null when it is not one. The
 * constraint mixtapes_delivery_url checks the same.
 */
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

/**
 * The checkout link for one order: CHECKOUT_URL's `{code}` replaced by the code, else
 * the code as a `code` query parameter.
 */
export function payLink(checkoutUrl: string, code: string): string {
  if (checkoutUrl.includes("{code}")) return checkoutUrl.replaceAll("{code}", encodeURIComponent(code));
  const url = new URL(checkoutUrl);
  url.searchParams.set("code", code);
  return url.toString();
}

/** An order in the mixer's queue, with its shopper. */
export type QueuedOrder = Order & { shopper: { name: string; email: string | null } };
