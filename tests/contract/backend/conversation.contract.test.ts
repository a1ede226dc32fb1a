// The Backend port's contract, an order's conversation and the shop's insights; run
// against every adapter.
import "../../support/env";
import { describe, expect, it } from "vitest";
import { CONVERSATION_COPY } from "~/domain/copy-orders";
import { findSong, SEEDED_CATALOGUE } from "~/domain/catalogue";
import { readOrderRow } from "~/domain/orders";
import { conversationOpen, readMessageRow, readUnreadRow, type Side } from "~/domain/conversation";
import { readInsights } from "~/domain/insights";
import { sendMessage } from "~/server/services/conversation.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { unique, track, order, backendContract, shopHelpers, type SignedIn } from "../../support/backend-contract";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { browser } = contract;
  const { shoppersAndMixer, place, backdate } = shopHelpers(contract);

  // ---- An order's conversation and the shop's insights ------------------------------
  describe("order conversations and insights", () => {
    /** Alice with two orders, Bob with one, and a mixer. */
    async function shop() {
      const { alice, bob, mixer } = await shoppersAndMixer();
      const a1 = order(alice.user.id);
      const a2 = order(alice.user.id, { design_id: null, tracks: [track("7")] });
      const b1 = order(bob.user.id);
      await place([
        [alice, a1],
        [alice, a2],
        [bob, b1],
      ]);
      const idOf = async (code: string) => String((await ctx.ordersWithCode(code))[0].id);
      return { alice, bob, mixer, a1, a2, b1, idOf };
    }
    type Who = SignedIn;
    const post = (who: Who | null, code: string, fromMixer: boolean, body: string) =>
      (who?.browser ?? browser()).call((api) => api.postMessage({ code, fromMixer, body }));
    const messagesIn = async (orderId: string) =>
      (await ctx.sql.query(`select body from public.order_messages where order_id = $1 order by id`, [orderId])).rows.map(
        (r) => r.body,
      );
    /** Unread messages for this side, per order code. */
    const unread = async (who: Who, side: Side) =>
      Object.fromEntries(
        (await who.browser.call((api) => api.unreadMessages(side))).rows.map(readUnreadRow).map((u) => [u!.code, u!.unread]),
      );

    it("only the order's shopper and the mixers read and write its messages; another shopper is refused and nothing is stored", async () => {
      const { alice, bob, mixer, a1, b1, idOf } = await shop();
      const id = await idOf(a1.code);
      const asked = await post(alice, a1.code, false, "Can you add a shout-out for Sam?");
      expect(asked.error).toBeNull();
      expect(asked.id).toMatch(/^\d+$/);
      const answered = await post(mixer, a1.code, true, "Which version of track 3?\nThe long one?");
      expect(answered.error).toBeNull();
      for (const reader of [alice, mixer]) {
        const { rows, error } = await reader.browser.call((api) => api.listMessages(a1.code));
        expect(error).toBeNull();
        expect(rows.map(readMessageRow).map((m) => m && [m.id, m.fromMixer, m.body])).toEqual([
          [asked.id, false, "Can you add a shout-out for Sam?"],
          [answered.id, true, "Which version of track 3?\nThe long one?"],
        ]);
      }
      // Bob reads nothing of Alice's order and cannot write to it, as a shopper or posing as a mixer.
      expect(await bob.browser.call((api) => api.listMessages(a1.code))).toEqual({ rows: [], error: null });
      for (const fromMixer of [false, true]) {
        const refused = await post(bob, a1.code, fromMixer, "let me in");
        expect(refused.id).toBeNull();
        expect(refused.error?.code).toBe("42501");
      }
      // Alice cannot post as the mixer, nor a signed-out visitor at all.
      expect((await post(alice, a1.code, true, "I am the DJ now")).error?.code).toBe("42501");
      const anonymous = await post(null, a1.code, false, "hello?");
      expect(anonymous.id).toBeNull();
      expect(anonymous.error).not.toBeNull();
      expect((await browser().call((api) => api.listMessages(a1.code))).rows).toEqual([]);
      expect(await messagesIn(id)).toEqual(["Can you add a shout-out for Sam?", "Which version of track 3?\nThe long one?"]);
      expect(await messagesIn(await idOf(b1.code))).toEqual([]);
      // The database refuses what the form refuses: control characters other than newlines, an empty or over-long text.
      for (const body of ["tab\there", "bell\u0007", "", "x".repeat(1001)]) {
        expect((await post(alice, a1.code, false, body)).error?.code).toBe("23514");
      }
      expect((await post(alice, a1.code, false, "🎧".repeat(1000))).error).toBeNull();
    });

    it("each message is emailed through the queue: the shopper's to every mixer, the mixer's to the shopper", async () => {
      const { alice, mixer, a1 } = await shop();
      const emails = ctx.backend.emails!;
      await emails.claim(100); // the order emails
      await post(alice, a1.code, false, "Shout-out for Sam, please");
      await post(mixer, a1.code, true, "Done!");
      const queued = (await emails.claim(100)).filter((e) => e.kind === "message");
      expect(queued.map((e) => [e.recipient.toLowerCase(), e.order.code, e.messages[0]?.fromMixer, e.messages[0]?.body])).toEqual(
        [
          [mixer.email.toLowerCase(), a1.code, false, "Shout-out for Sam, please"],
          [alice.email.toLowerCase(), a1.code, true, "Done!"],
        ],
      );
      expect(queued[0].shopper).toEqual({ username: alice.username, email: alice.email });
    });

    it("unread counts per side, and the read marks that clear them (each side only its own)", async () => {
      const { alice, bob, mixer, a1, a2, idOf } = await shop();
      const id = await idOf(a1.code);
      await post(alice, a1.code, false, "one");
      await post(alice, a1.code, false, "two");
      await post(alice, a2.code, false, "three");
      expect(await unread(mixer, "mixer")).toEqual({ [a1.code]: 2, [a2.code]: 1 });
      expect(await unread(alice, "shopper")).toEqual({}); // her own messages
      expect(await unread(alice, "mixer")).toEqual({}); // not a mixer
      expect(await unread(bob, "mixer")).toEqual({});
      // Opening the order's page marks it read for that side only, and only for those on that side.
      expect(await bob.browser.call((api) => api.markOrderRead(a1.code, "shopper"))).toEqual({ marked: false, error: null });
      expect(await alice.browser.call((api) => api.markOrderRead(a1.code, "mixer"))).toEqual({ marked: false, error: null });
      expect(await mixer.browser.call((api) => api.markOrderRead("ZZZZ9999", "mixer"))).toEqual({ marked: false, error: null });
      expect(await unread(mixer, "mixer")).toEqual({ [a1.code]: 2, [a2.code]: 1 });
      expect(await mixer.browser.call((api) => api.markOrderRead(a1.code, "mixer"))).toEqual({ marked: true, error: null });
      expect(await unread(mixer, "mixer")).toEqual({ [a2.code]: 1 });
      // The mixer's reply: unread for Alice until she opens the order, for nobody else.
      await post(mixer, a1.code, true, "Sure");
      expect(await unread(alice, "shopper")).toEqual({ [a1.code]: 1 });
      expect(await unread(bob, "shopper")).toEqual({});
      expect(await unread(mixer, "mixer")).toEqual({ [a2.code]: 1 });
      expect(await alice.browser.call((api) => api.markOrderRead(a1.code, "shopper"))).toEqual({ marked: true, error: null });
      expect(await unread(alice, "shopper")).toEqual({});
      // A new message after the mark counts again.
      await post(alice, a1.code, false, "Thanks!");
      expect(await unread(mixer, "mixer")).toEqual({ [a1.code]: 1, [a2.code]: 1 });
      // Nobody writes read marks directly.
      await expect(
        ctx.sql.transaction(async (tx) => {
          await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`, [
            JSON.stringify({ sub: alice.user.id, role: "authenticated" }),
          ]);
          await tx.query(`insert into public.order_reads (order_id, reader) values ($1, 'mixer')`, [id]);
        }),
      ).rejects.toMatchObject({ code: "42501" });
    });

    it("the conversation closes 30 days after the order is sent or cancelled: nobody writes, everyone still reads", async () => {
      const { alice, mixer, a1, a2, idOf } = await shop();
      const sentId = await idOf(a1.code);
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }));
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "sent", deliveryUrl: null, message: null }));
      await alice.browser.call((api) => api.updateOrder(a2.code, { to: "cancelled", from: "received", reason: null }));
      expect((await post(alice, a1.code, false, "Got it, thanks")).error).toBeNull();
      await backdate(a1.code, "sent_at", 29);
      await backdate(a2.code, "cancelled_at", 29);
      expect((await post(mixer, a1.code, true, "Enjoy")).error).toBeNull();
      expect((await post(alice, a2.code, false, "Sorry!")).error).toBeNull();
      const row = async (code: string) => readOrderRow((await ctx.ordersWithCode(code))[0])!;
      expect(conversationOpen(await row(a1.code))).toBe(true);
      await backdate(a1.code, "sent_at", 31);
      await backdate(a2.code, "cancelled_at", 31);
      expect(conversationOpen(await row(a1.code))).toBe(false);
      expect(conversationOpen(await row(a2.code))).toBe(false);
      for (const [who, code, fromMixer] of [
        [alice, a1.code, false],
        [mixer, a1.code, true],
        [alice, a2.code, false],
        [mixer, a2.code, true],
      ] as const) {
        const refused = await post(who, code, fromMixer, "one more thing");
        expect(refused.error?.code).toBe("42501");
      }
      expect(await messagesIn(sentId)).toEqual(["Got it, thanks", "Enjoy"]);
      expect((await alice.browser.call((api) => api.listMessages(a1.code))).rows).toHaveLength(2);
      // Through the service: the refusal says the conversation is closed, and nothing is stored.
      const sent = await alice.browser.call((api) =>
        sendMessage(api, a1.code, "shopper", "hi", async () => readOrderRow({ ...a1, id: sentId, status: "sent" })),
      );
      expect(sent?.outcome).toEqual({ ok: false, status: 409, message: CONVERSATION_COPY.closed });
      expect(await messagesIn(sentId)).toHaveLength(2);
    });

    it("insights: mixers only; orders per week with the cancelled apart, revenue per currency, songs, designs, turnaround, late", async () => {
      const { alice, bob, mixer, a1, a2, b1 } = await shop();
      for (const who of [alice, bob]) {
        const refused = await who.browser.call((api) => api.insights({ weeks: 12, dueDays: 5, turnaroundDays: 30 }));
        expect(refused.insights).toBeNull();
        expect(refused.error?.code).toBe("42501");
      }
      expect((await browser().call((api) => api.insights({ weeks: 12, dueDays: 5, turnaroundDays: 30 }))).insights).toBeNull();
      // a1: paid $12.00, sent 3 days after it was placed; a2: cancelled; b1: paid €9.00, placed 8 days ago, open (late).
      const ledger = ctx.backend.payments!;
      const paid = (code: string, amount: number, currency: string) =>
        ledger.record({
          provider: "checkout",
          eventId: `evt_${unique()}`,
          kind: "payment",
          code,
          amount,
          currency,
          reference: null,
        });
      expect(await paid(a1.code, 1200, "USD")).toBe("paid");
      expect(await paid(b1.code, 900, "EUR")).toBe("paid");
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }));
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "sent", deliveryUrl: null, message: null }));
      await backdate(a1.code, "created_at", 3);
      await alice.browser.call((api) => api.updateOrder(a2.code, { to: "cancelled", from: "received", reason: null }));
      await backdate(b1.code, "created_at", 8);
      const { insights: raw, error } = await mixer.browser.call((api) =>
        api.insights({ weeks: 12, dueDays: 5, turnaroundDays: 30 }),
      );
      expect(error).toBeNull();
      const got = readInsights(raw!, SEEDED_CATALOGUE);
      const monday = (d: Date) => {
        const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
        return new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * 86_400_000).toISOString();
      };
      const now = new Date();
      const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);
      expect(got.weeks).toHaveLength(12);
      expect(got.weeks.at(-1)!.week).toBe(monday(now));
      const expected = new Map<string, { orders: number; cancelled: number }>();
      for (const [at, cancelled] of [
        [ago(3), false],
        [now, true],
        [ago(8), false],
      ] as const) {
        const week = expected.get(monday(at)) ?? { orders: 0, cancelled: 0 };
        if (cancelled) week.cancelled++;
        else week.orders++;
        expected.set(monday(at), week);
      }
      for (const w of got.weeks)
        expect({ orders: w.orders, cancelled: w.cancelled }).toEqual(expected.get(w.week) ?? { orders: 0, cancelled: 0 });
      expect(got.revenue.map((r) => [r.currency, r.total, r.payments])).toEqual([
        ["EUR", 900, 1],
        ["USD", 1200, 1],
      ]);
      expect(got.revenue[1].weeks.at(-1)).toEqual({ week: monday(now), amount: 1200 });
      expect(got.songs.slice(0, 3).map((s) => [s.id, s.picks])).toEqual([
        ["1", 2],
        ["3", 2],
        ["30", 2],
      ]);
      expect(got.songs[3]).toEqual({ id: "7", title: findSong(SEEDED_CATALOGUE, "7")!.title, picks: 1 });
      expect(got.designs.map((d) => [d.id, d.orders])).toEqual([
        ["high-voltage", 2],
        [null, 1],
      ]);
      expect(got.turnaround).toMatchObject({ sent: 1, over: 0, promise: 5 });
      expect(got.turnaround.median).toBeCloseTo(3, 1);
      expect(got.turnaround.p90).toBeCloseTo(3, 1);
      expect({ open: got.open, late: got.late }).toEqual({ open: 1, late: 1 });
    });
  });
});
