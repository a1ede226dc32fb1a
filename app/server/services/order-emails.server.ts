// Queued in the order change's own transaction: an SMTP outage delays an email, never the order.
import { MIXER_EMAIL_COPY } from "~/domain/copy-console";
import { findDesign, NO_DESIGN_COLOUR, SEEDED_CATALOGUE, type Catalogue } from "~/domain/catalogue";
import { DROP_COPY, ORDERS_COPY } from "~/domain/copy-orders";
import { REVIEW_COPY } from "~/domain/copy-review";
import { readOrderRow, payLink } from "~/domain/orders";
import { shopperName } from "~/domain/display-name";
import { orderEmailSubject } from "~/domain/email-subjects";
import { formatMoney, liveLines } from "~/domain/money";
import { formatDuration, formatSize } from "~/domain/tape";
import type { Backend, QueuedEmail } from "../backend/port.server";
import { backgroundJob } from "../platform/background-job.server";
import type { ShopWords } from "~/domain/shop-words";
import { getConfig, shopCopy } from "../platform/config.server";
import { getLog, reason } from "../platform/log.server";
import { composeMail as composeAny, type Mail, type MailBlock, type Mailer } from "../platform/mailer.server";
import { readShop } from "./catalogue.server";
import type { Worker } from "../root.server";

const POLL_MS = 2_000;
const BATCH = 20;
/** The error recorded on an email claimed but not sent when the server stopped: retried a few seconds later. */
const STOPPED = "not sent: the server stopped first";

/** The last email a shopper's budget allows this mixer for now says so (the rest is in the console). */
const budgetNote = (email: QueuedEmail) =>
  email.closesBudget ? [MIXER_EMAIL_COPY.budgetSpent(shopperName(email.order, email.shopper))] : [];

let dates: Intl.DateTimeFormat | undefined;
/** "Feb 25, 2027": an email is read in any time zone, so the day is UTC's. */
const formatDay = (at: Date) => (dates ??= new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" })).format(at);

/** words and catalogue: the shop's now (readShop); the environment's and the seeded ones when none were saved. */
export function orderEmail(
  email: QueuedEmail,
  config = getConfig(),
  words: ShopWords = shopCopy(config),
  catalogue: Catalogue = SEEDED_CATALOGUE,
): Mail {
  const order = readOrderRow(email.order);
  if (!order) throw new Error(`queued email ${email.id}: its order cannot be read`);
  // Every order email wears the order's cover: its codename and its design's colour.
  const cover = {
    code: order.code,
    codename: order.codename,
    colour: findDesign(catalogue, order.design_id)?.colour ?? NO_DESIGN_COLOUR,
  };
  const composeMail = (to: string, subject: string, shopTitle: string, blocks: MailBlock[]) =>
    composeAny(to, subject, shopTitle, blocks, cover);
  const shop = words.title;
  const mixerName = words.mixerName;
  const tracks = order.tracks.map((t) => t.title);
  const subject = orderEmailSubject(email.kind, order.code);
  const shopperPage = `${config.siteUrl}/my-mixtapes/${order.code}`;
  const mixerPage = `${config.siteUrl}/mixer/orders/${order.code}`;
  if (email.kind === "message") {
    const [first] = email.messages;
    if (!first) throw new Error(`queued email ${email.id}: its messages cannot be read`);
    const from = first.fromMixer ? mixerName : shopperName(email.order, email.shopper);
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
      `${mixerName} blended your tape ${order.code} and sent it.`,
      ...(order.mixer_message ? [`${ORDERS_COPY.fromMixer(mixerName)}:\n${order.mixer_message}`] : []),
      ...(order.delivery_url ? [{ label: ORDERS_COPY.listen, href: order.delivery_url }] : []),
      // The tape itself is behind the shopper's sign-in: the email links to the order page's player, never to the file.
      ...(order.tape && !order.tape.deletedAt
        ? tapeBlocks(order.tape, order.codename, order.sent_at, `${shopperPage}#tape`, config)
        : []),
      { label: "Your order", href: shopperPage },
    ]);
  }
  const entryAmount = email.entry ? formatMoney(email.entry.amount, email.entry.currency) : null;
  if (email.kind === "paid" && email.entry?.orderWasPaid) {
    // The shopper is thanked once: a payment that came after the order was paid is named as the extra one.
    return composeMail(email.recipient, subject, shop, [
      `${mixerName} received a second payment${entryAmount ? ` of ${entryAmount}` : ""} for order ${order.code}, which was already paid. ${mixerName} will refund the extra payment, unless you asked to keep it.`,
      { label: "Follow your order", href: shopperPage },
    ]);
  }
  if (email.kind === "paid") {
    return composeMail(email.recipient, subject, shop, [
      `${mixerName} received your payment${entryAmount ? ` of ${entryAmount}` : ""} for order ${order.code}. Thank you!`,
      { label: "Follow your order", href: shopperPage },
    ]);
  }
  if (email.kind === "refunded") {
    // Against what was paid in that currency, so a partial refund reads as one: "$5.00 of the $15.00 you paid".
    const currency = email.entry?.currency?.toUpperCase() ?? null;
    const line = liveLines(order.money).find((l) => l.currency === currency && l.paid > 0);
    const ofPaid = line ? ` of the ${formatMoney(line.paid, line.currency)} you paid` : "";
    return composeMail(email.recipient, subject, shop, [
      !entryAmount
        ? `Your payment for order ${order.code} was refunded.`
        : email.entry?.runningTotal
          ? `A refund was made on order ${order.code}: ${entryAmount} refunded in all so far${ofPaid}.`
          : `A refund of ${entryAmount}${ofPaid} was made on order ${order.code}.`,
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
      `${mixerName} cancelled your order ${order.code}.`,
      ...(order.cancel_reason ? [`Reason:\n${order.cancel_reason}`] : []),
      ...(refundDueNow ? ["Your payment will be refunded."] : []),
      { label: "Your order", href: shopperPage },
    ]);
  }
  return composeMail(email.recipient, orderEmailSubject("received", order.code), shop, [
    `Your order ${order.code} reached ${mixerName}.`,
    { list: tracks },
    `${REVIEW_COPY.total}: ${REVIEW_COPY.totalValue} (${words.priceNote})\n${REVIEW_COPY.delivery}: ${REVIEW_COPY.deliveryValue}`,
    { label: REVIEW_COPY.payNow, href: payLink(words.checkoutUrl, order.code) },
    { label: "Follow your order", href: shopperPage },
  ]);
}

/** The tape's codename, length and size, the day it goes, and the button to the order page's tape panel. */
function tapeBlocks(
  tape: { durationSeconds: number; size: number },
  codename: string | null,
  sentAt: string | null,
  href: string,
  config: Pick<ReturnType<typeof getConfig>, "DROP_KEEP_DAYS">,
): MailBlock[] {
  const days = config.DROP_KEEP_DAYS;
  const from = sentAt ? new Date(sentAt) : new Date();
  const until = formatDay(new Date(from.getTime() + days * 86_400_000));
  return [
    DROP_COPY.mailFacts(codename ?? DROP_COPY.yourTape, formatDuration(tape.durationSeconds), formatSize(tape.size)),
    DROP_COPY.mailKeep(days, until),
    { label: DROP_COPY.playYourTape, href },
  ];
}

/** The shop's words and catalogue now, as a signed-out visitor reads them; the defaults when the read fails. */
async function shopNow(backend: Backend): Promise<{ words: ShopWords; catalogue: Catalogue }> {
  try {
    const { words, catalogue } = await readShop(backend.forRequest(new Request(getConfig().siteUrl)));
    return { words, catalogue };
  } catch {
    return { words: shopCopy(), catalogue: SEEDED_CATALOGUE };
  }
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
      // Read once a batch.
      const shop = batch.length ? await shopNow(backend) : null;
      for (const [i, email] of batch.entries()) {
        if (stopping) {
          // The server is stopping: the rest of the batch goes back to the queue for the next process.
          for (const left of batch.slice(i)) await queue.finish(left.id, STOPPED);
          return;
        }
        try {
          await mailer.send(orderEmail(email, getConfig(), shop?.words, shop?.catalogue));
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
