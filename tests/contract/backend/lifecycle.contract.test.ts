// The Backend port's contract, the order lifecycle: the mixer's queue, status changes once and
// by mixers only, order emails, messages' rate, shop settings, cancelling, late orders.
import "../../support/env";
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { SHOP_COPY } from "~/domain/copy";
import { MIXER_EMAIL_COPY } from "~/domain/copy-console";
import { readOrderRow } from "~/domain/orders";
import { readQueueCursor } from "~/domain/queue";
import { TOO_MANY_MESSAGES, type OrderChange, type QueuedEmail, type QueueRead } from "~/server/backend/port.server";
import { transmitOrder } from "~/server/services/orders.server";
import { SEEDED_CATALOGUE } from "~/domain/catalogue";
import { orderEmail } from "~/server/services/order-emails.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { newCode, deckFor, backendContract, order } from "../../support/backend-contract";
import { queue, settings, line, lifecycleHelpers, type Who } from "../../support/order-cases";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { browser, signedInUser } = contract;
  const { shop, moneyOf, statusOf, mark, kindsFor, backdate, undoWindowPasses } = lifecycleHelpers(contract);

  // ---- The order lifecycle ---------------------------------------------------------------

  describe("the order lifecycle", () => {
    it("a mixer's queue holds every order with its shopper, oldest unfinished first; a shopper's only their own", async () => {
      const { alice, bob, mixer, a1, b1, a2 } = await shop();
      const { rows, error } = await mixer.browser.call((api) => api.listQueue(queue()));
      expect(error).toBeNull();
      expect(rows.map((r) => r.code)).toEqual([a1.code, b1.code, a2.code]);
      expect(rows[1]).toMatchObject({ username: bob.username, email: bob.email, status: "received" });
      expect(readOrderRow(rows[0])).toMatchObject({ code: a1.code, status: "received", paid: false, tracks: a1.tracks });
      const own = await alice.browser.call((api) => api.listQueue(queue()));
      expect(own.rows.map((r) => r.code)).toEqual([a1.code, a2.code]);
      // Filters, search and pages.
      await mixer.browser.call((api) => api.updateOrder(b1.code, { to: "mixing" }));
      expect(await mark(mixer, a2.code, "payment", 1000)).toEqual({ outcome: "paid", error: null });
      const codes = async (over: Partial<QueueRead>) =>
        (await mixer.browser.call((api) => api.listQueue(queue(over)))).rows.map((r) => r.code);
      expect(await codes({ status: "mixing" })).toEqual([b1.code]);
      expect(await codes({ status: "received" })).toEqual([a1.code, a2.code]);
      expect(await codes({ unpaid: true })).toEqual([a1.code, b1.code]);
      expect(await codes({ code: a2.code.slice(0, 5) })).toEqual([a2.code]);
      const [first] = (await mixer.browser.call((api) => api.listQueue(queue({ limit: 1 })))).rows;
      expect(await codes({ limit: 2, after: readQueueCursor(first.cursor as string) })).toEqual([b1.code, a2.code]);
      expect(await codes({ newestFirst: true })).toEqual([a2.code, b1.code, a1.code]);
    });

    it("an order moves forward once: start mixing, mark sent with a link and message, mark paid by hand; replays change nothing", async () => {
      const { mixer, a1 } = await shop();
      const change = (c: OrderChange) => mixer.browser.call((api) => api.updateOrder(a1.code, c));
      expect(await change({ to: "sent", deliveryUrl: null, message: null })).toEqual({ updated: false, error: null }); // not mixing yet
      expect(await change({ to: "mixing" })).toEqual({ updated: true, error: null });
      expect(await change({ to: "mixing" })).toEqual({ updated: false, error: null });
      expect(await statusOf(a1.code)).toMatchObject({ status: "mixing", paid: false });
      expect(await change({ to: "sent", deliveryUrl: "https://tapes.example/a1", message: "Loud, please." })).toEqual({
        updated: true,
        error: null,
      });
      expect(await change({ to: "sent", deliveryUrl: "https://tapes.example/other", message: "again" })).toEqual({
        updated: false,
        error: null,
      });
      const token = crypto.randomUUID();
      expect(await mark(mixer, a1.code, "payment", 1500, "USD", token)).toEqual({ outcome: "paid", error: null });
      expect(await mark(mixer, a1.code, "payment", 1500, "USD", token)).toEqual({ outcome: "duplicate", error: null });
      expect(await statusOf(a1.code)).toEqual({
        status: "sent",
        paid: true,
        delivery_url: "https://tapes.example/a1",
        mixer_message: "Loud, please.",
      });
    });

    it("a shopper's session can change no status and no payment, not even of their own order", async () => {
      const { alice, bob, a1, b1 } = await shop();
      for (const [who, code] of [
        [alice, a1.code],
        [alice, b1.code],
        [bob, a1.code],
      ] as const) {
        expect((await who.browser.call((api) => api.updateOrder(code, { to: "mixing" }))).updated).toBe(false);
        const marked = await mark(who, code, "payment", 1000);
        expect(marked.outcome).toBeNull();
        expect(marked.error?.code).toBe("42501");
      }
      expect((await mark({ browser: browser() }, a1.code, "payment", 1000)).outcome).toBeNull();
      expect(await statusOf(a1.code)).toMatchObject({ status: "received", paid: false });
      expect(await statusOf(b1.code)).toMatchObject({ status: "received", paid: false });
    });

    it("concurrent transitions: exactly one is applied", async () => {
      const { mixer, b1 } = await shop();
      const results = await Promise.all(
        [1, 2, 3].map(() => mixer.browser.call((api) => api.updateOrder(b1.code, { to: "mixing" }))),
      );
      expect(results.filter((r) => r.updated)).toHaveLength(1);
      expect(results.every((r) => r.error === null)).toBe(true);
      const token = crypto.randomUUID();
      const paid = await Promise.all([1, 2].map(() => mark(mixer, b1.code, "payment", 1000, "USD", token)));
      expect(paid.map((r) => r.outcome).sort()).toEqual(["duplicate", "paid"]);
    });

    it("order emails: each order queues the shopper's receipt and one per mixer; sent queues the shopper's note", async () => {
      const { mixer, alice, a1 } = await shop();
      const emails = ctx.backend.emails!;
      expect(emails).not.toBeNull();
      const claimed = await emails.claim(50);
      const forA1 = claimed.filter((e) => e.order.code === a1.code);
      expect(forA1.map((e) => [e.kind, e.recipient.toLowerCase()]).sort()).toEqual([
        ["new_order", mixer.email.toLowerCase()],
        ["received", alice.email.toLowerCase()],
      ]);
      expect(forA1[0].shopper).toEqual({ username: alice.username, email: alice.email });
      expect(readOrderRow(forA1[0].order)).toMatchObject({ code: a1.code, tracks: a1.tracks });
      for (const e of claimed) await emails.finish(e.id, null);
      expect(await emails.claim(50)).toEqual([]);
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }));
      await mixer.browser.call((api) =>
        api.updateOrder(a1.code, { to: "sent", deliveryUrl: "https://tapes.example/x", message: "Here" }),
      );
      const sent = await emails.claim(50);
      expect(sent.map((e) => [e.kind, e.recipient.toLowerCase(), e.order.code])).toEqual([
        ["sent", alice.email.toLowerCase(), a1.code],
      ]);
      expect(readOrderRow(sent[0].order)).toMatchObject({ delivery_url: "https://tapes.example/x", mixer_message: "Here" });
      // A failed send comes back only after its backoff.
      await emails.finish(sent[0].id, "SMTP refused");
      expect(await emails.claim(50)).toEqual([]);
    });

    it("finding 7: at most 10 messages per order and side in 10 minutes; each recipient gets one email, later ones gathered", async () => {
      const { alice, mixer, a1 } = await shop();
      const say = (who: Who, fromMixer: boolean, body: string) =>
        who.browser.call((api) => api.postMessage({ code: a1.code, fromMixer, body }));
      const emails = ctx.backend.emails!;
      await emails.claim(100); // the order's own emails
      // The first message goes out at once; the shopper's reply window is their own, the mixer's too.
      expect((await say(alice, false, "First")).error).toBeNull();
      expect((await say(mixer, true, "Hi")).error).toBeNull();
      const first = (await emails.claim(100)).filter((e) => e.kind === "message");
      expect(first.map((e) => [e.recipient.toLowerCase(), e.messages.map((m) => m.body)]).sort()).toEqual(
        [
          [alice.email.toLowerCase(), ["Hi"]],
          [mixer.email.toLowerCase(), ["First"]],
        ].sort(),
      );
      for (const e of first) await emails.finish(e.id, null);
      // A flood: nine more are stored (ten in ten minutes), the rest refused; none is emailed before the window ends.
      const sent = await Promise.all(Array.from({ length: 14 }, (_, i) => say(alice, false, `Flood ${i}`)));
      expect(sent.filter((r) => r.id !== null)).toHaveLength(9);
      expect(sent.filter((r) => r.error?.code === TOO_MANY_MESSAGES)).toHaveLength(5);
      expect((await say(mixer, true, "Still there")).error).toBeNull();
      expect((await emails.claim(100)).filter((e) => e.kind === "message")).toEqual([]);
      await ctx.sql.query(`update public.order_emails set next_attempt_at = now() where sent_at is null and kind = 'message'`);
      const later = (await emails.claim(100)).filter((e) => e.kind === "message");
      expect(later.map((e) => [e.recipient.toLowerCase(), e.messages.length]).sort()).toEqual(
        [
          [alice.email.toLowerCase(), 1],
          [mixer.email.toLowerCase(), 9],
        ].sort(),
      );
      const toMixer = later.find((e) => e.recipient.toLowerCase() === mixer.email.toLowerCase())!;
      expect(orderEmail(toMixer).text).toContain(`wrote 9 messages about order ${a1.code}:`);
    });

    it("an email budget per shopper: each mixer gets at most 6 emails an hour about one shopper's orders, the last says so; the console keeps all", async () => {
      const { alice, bob, mixer } = await shop(); // Alice's two orders: two of her six already
      const emails = ctx.backend.emails!;
      const aboutOf = (all: QueuedEmail[], who: { email: string }) =>
        all.filter((e) => e.recipient.toLowerCase() === mixer.email.toLowerCase() && e.shopper.email === who.email);
      const before = aboutOf(await emails.claim(100), alice);
      expect(before.map((e) => [e.kind, e.closesBudget])).toEqual([
        ["new_order", false],
        ["new_order", false],
      ]);
      // The flood: ten orders at once, a message about each, then each cancelled.
      const flood = Array.from({ length: 10 }, () => order(alice.user.id));
      const cancel = { to: "cancelled", from: "received", reason: null } as const;
      await Promise.all(flood.map((o) => alice.browser.call((api) => api.insertOrder(o))));
      await Promise.all(
        flood.map((o) => alice.browser.call((api) => api.postMessage({ code: o.code, fromMixer: false, body: "Hi?" }))),
      );
      await Promise.all(flood.map((o) => alice.browser.call((api) => api.updateOrder(o.code, cancel))));
      const b2 = order(bob.user.id);
      await bob.browser.call((api) => api.insertOrder(b2));
      const claimed = await emails.claim(100);
      const flooded = aboutOf(claimed, alice);
      expect(before.length + flooded.length).toBe(6);
      expect(flooded.map((e) => e.closesBudget)).toEqual([false, false, false, true]);
      expect(orderEmail(flooded[3]).text).toContain(MIXER_EMAIL_COPY.budgetSpent(alice.username));
      // Bob's budget is his own; Alice's own receipts are hers, not the mixers'.
      expect(aboutOf(claimed, bob).map((e) => [e.kind, e.order.code])).toEqual([["new_order", b2.code]]);
      expect(claimed.filter((e) => e.kind === "received" && e.recipient === alice.email)).toHaveLength(10);
      // The console still holds everything: the orders, cancelled, and the messages unread.
      const listed = await mixer.browser.call((api) => api.listQueue(queue({ status: "cancelled" })));
      expect(listed.rows.filter((r) => flood.some((o) => o.code === r.code))).toHaveLength(10);
      const unread = (await mixer.browser.call((api) => api.unreadMessages("mixer"))).rows;
      expect(unread.filter((r) => flood.some((o) => o.code === r.code))).toHaveLength(10);
      // An hour on, Alice's emails reach the mixer again.
      await ctx.sql.query(`update public.order_emails set created_at = created_at - interval '61 minutes'`);
      const next = order(alice.user.id);
      await alice.browser.call((api) => api.insertOrder(next));
      expect(aboutOf(await emails.claim(100), alice).map((e) => [e.kind, e.order.code])).toEqual([["new_order", next.code]]);
    });

    it("shop settings: anyone reads them, only a mixer changes them; a closed shop refuses new orders, the deck kept", async () => {
      const { alice, mixer } = await shop();
      expect((await browser().call((api) => api.shopSettings())).settings).toEqual(settings());
      expect((await alice.browser.call((api) => api.shopStatus())).status).toEqual({
        open: true,
        closedMessage: "",
        full: false,
      });
      const refused = await alice.browser.call((api) => api.saveShopSettings(settings({ open: false })));
      expect(refused.saved).toBe(false);
      const closed = settings({ open: false, closedMessage: "Back on Monday 🎧" });
      expect(await mixer.browser.call((api) => api.saveShopSettings(closed))).toEqual({ saved: true, error: null });
      expect((await browser().call((api) => api.shopSettings())).settings).toEqual(closed);
      expect((await alice.browser.call((api) => api.shopStatus())).status).toEqual({
        open: false,
        closedMessage: "Back on Monday 🎧",
        full: false,
      });
      const deck = deckFor(alice.user.id, newCode());
      const outcome = await alice.browser.call((api) => transmitOrder(api, alice.user.id, deck, deck.code!, SEEDED_CATALOGUE));
      expect(outcome).toEqual({ ok: false, status: 409, title: SHOP_COPY.closed, message: "Back on Monday 🎧" });
      expect(await ctx.ordersWithCode(deck.code!)).toHaveLength(0);
      await mixer.browser.call((api) => api.saveShopSettings(settings()));
      expect(await alice.browser.call((api) => transmitOrder(api, alice.user.id, deck, deck.code!, SEEDED_CATALOGUE))).toEqual({
        ok: true,
        repeat: false,
      });
    });

    it("a full shop: 20 transmits at once for the last 3 places store exactly 3 orders; the others are told the queue is full", async () => {
      const { mixer } = await shop(); // 3 open orders
      await mixer.browser.call((api) => api.saveShopSettings(settings({ maxOpenOrders: 6 })));
      const shoppers = await Promise.all(Array.from({ length: 20 }, () => signedInUser()));
      const decks = shoppers.map((s) => deckFor(s.user.id, newCode()));
      const outcomes = await Promise.all(
        shoppers.map((s, i) =>
          s.browser.call((api) => transmitOrder(api, s.user.id, decks[i], decks[i].code!, SEEDED_CATALOGUE)),
        ),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(3);
      expect(outcomes.filter((o) => !o.ok)).toEqual(
        Array(17).fill({ ok: false, status: 409, title: SHOP_COPY.full, message: SHOP_COPY.fullText }),
      );
      let stored = 0;
      for (const d of decks) stored += (await ctx.ordersWithCode(d.code!)).length;
      expect(stored).toBe(3);
      expect((await browser().call((api) => api.shopStatus())).status?.full).toBe(true);
      // A repeat of a transmit that went through is still a success, full or not.
      const winner = outcomes.findIndex((o) => o.ok);
      expect(
        await shoppers[winner].browser.call((api) =>
          transmitOrder(api, shoppers[winner].user.id, decks[winner], decks[winner].code!, SEEDED_CATALOGUE),
        ),
      ).toEqual({ ok: true, repeat: true });
    });

    it("a shopper cancels their own order while it is received, and nothing else; the mixers are told", async () => {
      const { alice, bob, mixer, a1, a2, b1 } = await shop();
      await ctx.backend.emails!.claim(100);
      const cancel = { to: "cancelled", from: "received", reason: null } as const;
      expect((await bob.browser.call((api) => api.updateOrder(a1.code, cancel))).updated).toBe(false);
      expect((await browser().call((api) => api.updateOrder(a1.code, cancel))).updated).toBe(false);
      expect(await alice.browser.call((api) => api.updateOrder(a1.code, cancel))).toEqual({ updated: true, error: null });
      expect(await alice.browser.call((api) => api.updateOrder(a1.code, cancel))).toEqual({ updated: false, error: null });
      const [row] = await ctx.ordersWithCode(a1.code);
      expect(readOrderRow(row)).toMatchObject({ status: "cancelled", cancelled_by_shopper: true, cancel_reason: null });
      expect(await kindsFor(a1.code)).toEqual([["cancelled", mixer.email.toLowerCase()]]);
      // Once mixing, only the mixer cancels; a shopper cannot reach anything else either.
      await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "mixing" }));
      expect((await alice.browser.call((api) => api.updateOrder(a2.code, { ...cancel, from: "mixing" }))).updated).toBe(false);
      expect((await alice.browser.call((api) => api.updateOrder(b1.code, cancel))).updated).toBe(false);
      expect((await mark(alice, a2.code, "refund", 100)).outcome).toBeNull();
      expect(await statusOf(a2.code)).toMatchObject({ status: "mixing" });
    });

    it("a cancel racing Start Mixing: exactly one wins", async () => {
      const { alice, mixer, a1 } = await shop();
      const [cancelled, started] = await Promise.all([
        alice.browser.call((api) => api.updateOrder(a1.code, { to: "cancelled", from: "received", reason: null })),
        mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" })),
      ]);
      expect([cancelled.updated, started.updated].filter(Boolean)).toHaveLength(1);
      expect(["cancelled", "mixing"]).toContain((await statusOf(a1.code)).status);
    });

    it("the mixer cancels a paid order with a reason: all of it is due, then Mark Refunded with an amount; the shopper is told each step", async () => {
      const { alice, mixer, b1, a1 } = await shop();
      expect((await mark(mixer, a1.code, "payment", 1200)).outcome).toBe("paid");
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }));
      await ctx.backend.emails!.claim(100);
      const cancel = { to: "cancelled", from: "mixing", reason: "Out of tape, sorry" } as const;
      expect((await mixer.browser.call((api) => api.updateOrder(b1.code, cancel))).updated).toBe(false); // b1 is received
      expect(await mixer.browser.call((api) => api.updateOrder(a1.code, cancel))).toEqual({ updated: true, error: null });
      const row = readOrderRow((await ctx.ordersWithCode(a1.code))[0])!;
      expect(row).toMatchObject({ status: "cancelled", cancel_reason: "Out of tape, sorry", cancelled_by_shopper: false });
      expect(await kindsFor(a1.code)).toEqual([["cancelled", alice.email.toLowerCase()]]);
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, net: 1200, due: 1200 })]);
      // More than is left is refused; a part, then the rest; a replayed form once.
      expect((await mark(mixer, a1.code, "refund", 1300)).outcome).toBe("over");
      const token = crypto.randomUUID();
      expect((await mark(mixer, a1.code, "refund", 200, "USD", token)).outcome).toBe("refunded");
      expect((await mark(mixer, a1.code, "refund", 200, "USD", token)).outcome).toBe("duplicate");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 200, net: 1000, due: 1000 })]);
      expect((await mark(mixer, a1.code, "refund", 1000)).outcome).toBe("refunded");
      expect((await moneyOf(a1.code)).lines).toEqual([line({ paid: 1200, refunded: 1200, net: 0, due: 0 })]);
      // Told of each mark by hand once it can no longer be undone.
      expect(await kindsFor(a1.code)).toEqual([]);
      await undoWindowPasses();
      expect((await kindsFor(a1.code)).sort()).toEqual([
        ["paid", alice.email.toLowerCase()],
        ["refunded", alice.email.toLowerCase()],
        ["refunded", alice.email.toLowerCase()],
      ]);
      expect((await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }))).updated).toBe(false);
      // The ledger says who marked each row by hand.
      const { rows } = await mixer.browser.call((api) => api.ledger({ provider: "manual", filter: "all", limit: 10, offset: 0 }));
      const mine = rows.filter((r) => r.order_code === a1.code);
      expect(mine.map((r) => [r.kind, r.amount, r.marked_by])).toEqual([
        ["refund", 1000, mixer.username],
        ["refund", 200, mixer.username],
        ["payment", 1200, mixer.username],
      ]);
    });

    it("late orders: due 5 days after placing; the Late filter lists open ones past due, oldest first", async () => {
      const { mixer, a1, b1, a2 } = await shop();
      await backdate(a1.code, "created_at", 7);
      await backdate(b1.code, "created_at", 6);
      await backdate(a2.code, "created_at", 8);
      await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "mixing" }));
      await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "sent", deliveryUrl: null, message: null }));
      const late = await mixer.browser.call((api) => api.listQueue(queue({ late: true })));
      expect(late.rows.map((r) => r.code)).toEqual([a1.code, b1.code]);
      await mixer.browser.call((api) => api.updateOrder(b1.code, { to: "cancelled", from: "received", reason: null }));
      expect((await mixer.browser.call((api) => api.listQueue(queue({ late: true })))).rows.map((r) => r.code)).toEqual([
        a1.code,
      ]);
      // Sent and cancelled orders sort after the open ones.
      const all = (await mixer.browser.call((api) => api.listQueue(queue()))).rows.map((r) => r.code);
      expect(all[0]).toBe(a1.code);
    });
  });
});
