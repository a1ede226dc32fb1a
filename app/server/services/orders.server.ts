// Transmit: exactly one order per code, whatever the repeats.
import { COPY } from "~/domain/copy";
import { afterTransmit, type Deck } from "~/domain/deck";
import { isOrderCode } from "~/domain/order-code";
import { orderFromDeck, payLink, readOrderRow } from "~/domain/orders";
import { getConfig } from "../platform/config.server";
import type { BackendRequest, User } from "../backend/port.server";
import { getLog } from "../platform/log.server";
import { commitDeck, loadDeck } from "./deck.server";
import { nudgeOrderEmails } from "./order-emails.server";

export type TransmitOutcome = { ok: true; repeat: boolean } | { ok: false; status: number; title: string; message: string };

const failed = (status: number, message: string, title: string = COPY.toast.error): TransmitOutcome => ({
  ok: false,
  status,
  title,
  message,
});

/**
 * Stores the deck as one order with the given code. A code that is already stored
 * for this user answers as a success (double click, replayed form, concurrent POST);
 * the database's unique code is what makes that exact.
 */
export async function transmitOrder(api: BackendRequest, userId: string, deck: Deck, code: string): Promise<TransmitOutcome> {
  const stored = async () => {
    const { rows, error } = await api.listOrders(userId, { code });
    return !error && rows.length > 0;
  };
  if (deck.code !== code) {
    if (await stored()) return { ok: true, repeat: true };
    return failed(409, COPY.review.codeStale);
  }
  if (deck.songs.length === 0) {
    if (await stored()) return { ok: true, repeat: true };
    return failed(400, COPY.review.emptyDeck);
  }
  const { error } = await api.insertOrder(orderFromDeck(deck, userId));
  if (!error) {
    nudgeOrderEmails();
    return { ok: true, repeat: false };
  }
  if (error.code === "23505") {
    if (await stored()) return { ok: true, repeat: true };
    return failed(409, COPY.review.codeTaken, COPY.toast.submissionFailed);
  }
  getLog().error({ code: error.code, err: error.message }, "order insert failed");
  return failed(400, error.message, COPY.toast.submissionFailed);
}

/**
 * Transmits this user's deck under the code the review showed. When the deck's own
 * code went out, the deck resets (tracks, note, options, code): the cookie to set.
 */
export async function transmit(
  request: Request,
  api: BackendRequest,
  user: User,
  code: string,
): Promise<TransmitOutcome & { cookie?: string }> {
  const { deck } = await loadDeck(request, user.id);
  const outcome = await transmitOrder(api, user.id, deck, code);
  if (!outcome.ok || deck.code !== code) return outcome;
  return { ...outcome, cookie: await commitDeck(request, afterTransmit(deck)) };
}

/** This shopper's just-placed order, for the page a transmit lands on; null for any other code. */
export async function placedOrder(api: BackendRequest, user: User, code: string | null) {
  if (!isOrderCode(code)) return null;
  const { rows } = await api.listOrders(user.id, { code });
  const order = rows[0] ? readOrderRow(rows[0]) : null;
  return order && { code: order.code, paid: order.paid, payUrl: payLink(getConfig().CHECKOUT_URL, order.code) };
}
