// Queued in the order change's own transaction: an SMTP outage delays an email, never the order.
import { MIXER_EMAIL_COPY } from "~/domain/copy-console";
import { ORDERS_COPY } from "~/domain/copy-orders";
import { REVIEW_COPY } from "~/domain/copy-review";
import { readOrderRow, payLink } from "~/domain/orders";
import { shopperName } from "~/domain/display-name";
import { orderEmailSubject } from "~/domain/email-subjects";
import { formatMoney, liveLines } from "~/domain/money";
import type { Backend, QueuedEmail } from "../backend/port.server";
import { backgroundJob } from "../platform/background-job.server";
import { getConfig } from "../platform/config.server";
import { getLog, reason } from "../platform/log.server";
import { composeMail, type Mail, type Mailer } from "../platform/mailer.server";
import type { Worker } from "../root.server";

const POLL_MS = 2_000;
const BATCH = 20;
/** The error recorded on an email claimed but not sent when the server stopped: retried a few seconds later. */
const STOPPED = "not sent: the server stopped first";

/** The last email a shopper's budget allows this mixer for now says so (the rest is in the console). */
const budgetNote = (email: QueuedEmail) =>
  email.closesBudget ? [MIXER_EMAIL_COPY.budgetSpent(shopperName(email.order, email.shopper))] : [];

export function orderEmail(email: QueuedEmail, config = getConfig()): Mail {
  const order = readOrderRow(email.order);
  if (!order) throw new Error(`queued email ${email.id}: its order cannot be read`);
  const shop = config.SHOP_TITLE;
  const tracks = order.tracks.map((t) => t.title);
  const subject = orderEmailSubject(email.kind, order.code);
  const shopperPage = `${config.siteUrl}/my-mixtapes/${order.code}`;
  const mixerPage = `${config.siteUrl}/mixer/orders/${order.code}`;
  if (email.kind === "message") {
    const [first] = email.messages;
    if (!first) throw new Error(`queued email ${email.id}: its messages cannot be read`);
    const from = first.fromMixer ? config.MIXER_NAME : shopperName(email.order, email.shopper);
    // Messages sent within 10 minutes of the last email come together in one.
    return composeMail(email.recipient, subject, shop, [
      email.messages.length === 1
        ? `${from} wrote about order ${order.code}:`
        : `${from} wrote ${email.messages.length} messages about order ${order.code}:`,
      ...email.messages.map((m) => m.body),
      ...budgetNote(email),
      first.fromMixer
        ? { label: "Read and reply", href: `${shopperPage}#messages` }
        : { label: "Read and reply in the console", href: `${mixerPage}#messages` },
    ]);
  }
  if (email.kind === "new_order") {
    const shopper = shopperName(email.order, email.shopper);
    return composeMail(email.recipient, subject, shop, [
      `${shopper} placed order ${order.code}.`,
      { label: "Open it in the console", href: mixerPage },
      { list: tracks },
      `Note: ${order.note || ORDERS_COPY.none}`,
      ...budgetNote(email),
    ]);
  }
  if (email.kind === "sent") {
    return composeMail(email.recipient, subject, shop, [
      `${config.MIXER_NAME} blended your tape ${order.code} and sent it.`,
      ...(order.mixer_message ? [`${ORDERS_COPY.fromMixer(config.MIXER_NAME)}:\n${order.mixer_message}`] : []),
      ...(order.delivery_url ? [{ label: ORDERS_COPY.listen, href: order.delivery_url }] : []),
      // The tape itself is behind the shopper's sign-in: the email links to the order page, never to the file.
      ...(order.tape && !order.tape.deletedAt ? ["Play it or download it on your order page."] : []),
      { label: "Your order", href: shopperPage },
    ]);
  }
  const entryAmount = email.entry ? formatMoney(email.entry.amount, email.entry.currency) : null;
  if (email.kind === "paid" && email.entry?.orderWasPaid) {
    // The shopper is thanked once: a payment that came after the order was paid is named as the extra one.
    return composeMail(email.recipient, subject, shop, [
      `${config.MIXER_NAME} received a second payment${entryAmount ? ` of ${entryAmount}` : ""} for order ${order.code}, which was already paid. ${config.MIXER_NAME} will refund the extra payment, unless you asked to keep it.`,
      { label: "Follow your order", href: shopperPage },
    ]);
  }
  if (email.kind === "paid") {
    return composeMail(email.recipient, subject, shop, [
      `${config.MIXER_NAME} received your payment${entryAmount ? ` of ${entryAmount}` : ""} for order ${order.code}. Thank you!`,
      { label: "Follow your order", href: shopperPage },
    ]);
  }
  if (email.kind === "refunded") {
    return composeMail(email.recipient, subject, shop, [
      !entryAmount
        ? `Your payment for order ${order.code} was refunded.`
        : email.entry?.runningTotal
          ? `A refund was made on order ${order.code}: ${entryAmount} refunded in all so far.`
          : `A refund of ${entryAmount} was made on order ${order.code}.`,
      { label: "Your order", href: shopperPage },
    ]);
  }
  // Live money only: test money was never paid, so nothing of it is refunded.
  const refundDueNow = liveLines(order.money).some((l) => l.due > 0 || l.net > 0);
  if (email.kind === "cancelled") {
    if (order.cancelled_by_shopper) {
      const shopper = shopperName(email.order, email.shopper);
      return composeMail(email.recipient, subject, shop, [
        `${shopper} cancelled order ${order.code}.${refundDueNow ? " It was paid: a refund is due." : ""}`,
        ...budgetNote(email),
        { label: "Open it in the console", href: mixerPage },
      ]);
    }
    return composeMail(email.recipient, subject, shop, [
      `${config.MIXER_NAME} cancelled your order ${order.code}.`,
      ...(order.cancel_reason ? [`Reason:\n${order.cancel_reason}`] : []),
      ...(refundDueNow ? ["Your payment will be refunded."] : []),
      { label: "Your order", href: shopperPage },
    ]);
  }
  return composeMail(email.recipient, orderEmailSubject("received", order.code), shop, [
    `Your order ${order.code} reached ${config.MIXER_NAME}.`,
    { list: tracks },
    `${REVIEW_COPY.total}: ${REVIEW_COPY.totalValue} (${config.PRICE_NOTE})\n${REVIEW_COPY.delivery}: ${REVIEW_COPY.deliveryValue}`,
    { label: REVIEW_COPY.payNow, href: payLink(config.CHECKOUT_URL, order.code) },
    { label: "Follow your order", href: shopperPage },
  ]);
}

/** Started by the composition root (server/root.ts), which wakes it when a request queued an email and stops it at shutdown. */
export function startOrderEmails(backend: Backend, mailer: Mailer): Worker {
  const queue = backend.emails;
  if (!queue) getLog().warn("order emails are queued in the database but not sent: set SUPABASE_SERVICE_ROLE_KEY");
  if (!queue && !backend.authEmails) return { nudge() {}, async stop() {} };
  let stopping = false;
  const drain = async () => {
    await backend.authEmails?.send();
    for (;;) {
      if (!queue || stopping) return;
      const batch = await queue.claim(BATCH);
      for (const [i, email] of batch.entries()) {
        if (stopping) {
          // The server is stopping: the rest of the batch goes back to the queue for the next process.
          for (const left of batch.slice(i)) await queue.finish(left.id, STOPPED);
          return;
        }
        try {
          await mailer.send(orderEmail(email));
          await queue.finish(email.id, null);
        } catch (error) {
          getLog().warn(
            { email: email.id, kind: email.kind, attempts: email.attempts, err: reason(error) },
            "order email not sent; retrying later",
          );
          await queue.finish(email.id, reason(error));
        }
      }
      if (batch.length < BATCH) return;
    }
  };
  const job = backgroundJob(
    () => drain().catch((error) => getLog().error({ err: reason(error) }, "order emails: the queue could not be read")),
    { everyMs: POLL_MS },
  );
  return {
    nudge: job.nudge,
    /** Lets the current send finish; sends nothing more. */
    async stop() {
      stopping = true;
      await job.stop();
    },
  };
}
