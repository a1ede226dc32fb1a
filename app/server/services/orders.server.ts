// Exactly one order per code, whatever the repeats, and never a success for an order that was not stored.
import type { RouterContextProvider } from "react-router";
import { TOAST_COPY, SHOP_COPY } from "~/domain/copy";
import { REVIEW_COPY } from "~/domain/copy-review";
import { afterTransmit, type Deck } from "~/domain/deck";
import { isOrderCode } from "~/domain/order-code";
import { orderFromDeck, payLink, readOrderRow, sameOrder, type Order } from "~/domain/orders";
import { cursorPage, ORDERS_PAGE_SIZE, type PagePlace } from "~/domain/queue";
import { SHOP_CLOSED, SHOP_FULL, type BackendRequest, type ShopStatus, type User } from "../backend/port.server";
import type { Catalogue } from "~/domain/catalogue";
import { getLog } from "../platform/log.server";
import { catalogueOf } from "./catalogue.server";
import { loadDeck, newOrderCode, saveDeck } from "./deck.server";

export type TransmitOutcome =
  { ok: true; repeat: boolean } | { ok: false; status: number; title: string; message: string; codeUsed?: true };

const failed = (status: number, message: string, title: string = TOAST_COPY.error) => ({
  ok: false as const,
  status,
  title,
  message,
});

async function storedOrder(api: BackendRequest, userId: string, code: string): Promise<Order | null> {
  const { rows } = await api.listOrders(userId, { code });
  return rows[0] ? readOrderRow(rows[0]) : null;
}

/** A repeat (double click, replayed form) succeeds via the unique code; an edited deck under a stored code does not. */
export async function transmitOrder(
  api: BackendRequest,
  userId: string,
  deck: Deck,
  code: string,
  catalogue: Catalogue,
): Promise<TransmitOutcome> {
  if (deck.code !== code) {
    if (await storedOrder(api, userId, code)) return { ok: true, repeat: true };
    return failed(409, REVIEW_COPY.codeStale);
  }
  if (deck.songs.length === 0) {
    if (await storedOrder(api, userId, code)) return { ok: true, repeat: true };
    return failed(400, REVIEW_COPY.emptyDeck);
  }
  const { error } = await api.insertOrder(orderFromDeck(deck, userId, catalogue));
  if (!error) {
    void api.queued.orderEmails.wake();
    return { ok: true, repeat: false };
  }
  if (error.code === SHOP_CLOSED || error.code === SHOP_FULL) {
    // A repeat of a transmit that went through is still a success; any other order waits, its deck kept.
    const stored = await storedOrder(api, userId, code);
    if (stored && sameOrder(stored, deck)) return { ok: true, repeat: true };
    if (error.code === SHOP_FULL) return failed(409, SHOP_COPY.fullText, SHOP_COPY.full);
    const { status } = await api.shopStatus();
    return failed(409, status?.closedMessage ?? "", SHOP_COPY.closed);
  }
  if (error.code === "23505") {
    const stored = await storedOrder(api, userId, code);
    if (stored && sameOrder(stored, deck)) return { ok: true, repeat: true };
    if (stored) return { ...failed(409, REVIEW_COPY.codeUsed, TOAST_COPY.submissionFailed), codeUsed: true };
    return failed(409, REVIEW_COPY.codeTaken, TOAST_COPY.submissionFailed);
  }
  getLog().error({ code: error.code, err: error.message }, "order insert failed");
  return failed(400, error.message, TOAST_COPY.submissionFailed);
}

/** Transmits the deck in the cookie; the deck resets after a placed order, and a used code gets a fresh one. */
export async function transmit(
  context: Readonly<RouterContextProvider>,
  api: BackendRequest,
  user: User,
  code: string,
): Promise<TransmitOutcome> {
  const [deck, catalogue] = await Promise.all([loadDeck(context, user.id), catalogueOf(context)]);
  const outcome = await transmitOrder(api, user.id, deck, code, catalogue);
  if (!outcome.ok && outcome.codeUsed) await newOrderCode(context, user.id);
  else if (outcome.ok && deck.code === code) await saveDeck(context, afterTransmit(deck));
  return outcome;
}

/** checkoutUrl: the shop's words' (shopWordsOf). */
export async function placedOrder(api: BackendRequest, user: User, code: string | null, checkoutUrl: Promise<string>) {
  if (!isOrderCode(code)) return null;
  const [order, checkout] = await Promise.all([storedOrder(api, user.id, code), checkoutUrl]);
  return order && { code: order.code, paid: order.paid, payUrl: payLink(checkout, order.code) };
}

export async function shopBanner(api: BackendRequest): Promise<{ heading: string; text: string } | null> {
  const status = await readShopStatus(api);
  return status && bannerOf(status);
}

export async function shopDoor(
  api: BackendRequest,
): Promise<{ open: true } | { open: false; heading: string; text: string } | null> {
  const status = await readShopStatus(api);
  if (!status) return null;
  const banner = bannerOf(status);
  return banner ? { open: false, ...banner } : { open: true };
}

async function readShopStatus(api: BackendRequest): Promise<ShopStatus | null> {
  const { status, error } = await api.shopStatus();
  if (error) getLog().error({ code: error.code, err: error.message }, "shop status: read failed");
  return status;
}

function bannerOf(status: ShopStatus): { heading: string; text: string } | null {
  if (!status.open) return { heading: SHOP_COPY.closed, text: status.closedMessage };
  if (status.full) return { heading: SHOP_COPY.full, text: SHOP_COPY.fullText };
  return null;
}

/** A page of the shopper's orders, newest first, 20 a page by cursor, as the console's queue (cursorPage); a failed read lists none. */
export async function shopperOrders(
  api: BackendRequest,
  user: User,
  place: PagePlace,
): Promise<{ orders: Order[]; before: string | null; after: string | null }> {
  const { items, before, after } = await cursorPage(place, ORDERS_PAGE_SIZE, async (cursor, backward, limit) => {
    const { rows, error } = await api.listOrders(user.id, { page: { limit, after: cursor, backward } });
    if (error) getLog().error({ code: error.code, err: error.message }, "my-mixtapes: load failed");
    return rows.flatMap((row) => {
      const order = readOrderRow(row);
      return order ? [{ item: order, cursor: row.cursor }] : [];
    });
  });
  return { orders: items, before, after };
}
