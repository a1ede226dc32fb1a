// An order's conversation and the insights: the pure rules (what a message may hold, when
// the conversation closes, the timeline's order, reading the aggregate) and the emails.
import { describe, expect, it } from "vitest";
import type { MoneyKind, Movement } from "~/domain/money";
import { findSong, SEEDED_CATALOGUE } from "~/domain/catalogue";
import { isUnsent } from "~/domain/unsent";
import {
  conversationOpen,
  orderTimeline,
  readMessageBody,
  readMessageRow,
  readUnreadRow,
  type Message,
} from "~/domain/conversation";

import { readInsights, weekLabel } from "~/domain/insights";
import { readQueuedEmail } from "~/server/backend/port.server";
import type { Config } from "~/server/platform/config.server";
import { orderEmail } from "~/server/services/order-emails.server";
import { CONVERSATION_COPY } from "~/domain/copy-orders";

describe("readMessageBody: 1 to 1,000 characters, no control character but the newline", () => {
  it("keeps the text, newlines as \\n, trimmed", () => {
    expect(readMessageBody("  Can you add a shout-out for Sam?\r\nThanks  ")).toEqual({
      body: "Can you add a shout-out for Sam?\nThanks",
    });
  });
  it("counts code points, as the database does", () => {
    expect(readMessageBody("🎧".repeat(1000))).toEqual({ body: "🎧".repeat(1000) });
    expect(readMessageBody("🎧".repeat(1001))).toEqual({ error: "The message is limited to 1,000 characters." });
  });
  it.each(["", "   ", "\n\n", null, undefined])("%j: write a message first", (raw) => {
    expect(readMessageBody(raw)).toEqual(
      raw == null ? { error: CONVERSATION_COPY.tooLong(1000) } : { error: CONVERSATION_COPY.empty },
    );
  });
  it.each(["tab\there", "bell\u0007", "nul\u0000", "del\u007f", "c1\u0085", "esc\u001b[31m"])(
    "%j: refused with a clear message",
    (raw) => {
      expect(readMessageBody(raw)).toEqual({ error: CONVERSATION_COPY.controlCharacters });
    },
  );
});

describe("conversationOpen: until 30 days after the order is sent or cancelled", () => {
  const now = new Date("2026-12-31T12:00:00Z");
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000).toISOString();
  const order = (over: Partial<Parameters<typeof conversationOpen>[0]>) => ({
    status: "received" as const,
    created_at: daysAgo(400),
    sent_at: null,
    cancelled_at: null,
    ...over,
  });
  it("stays open while the order is received or mixing, however old", () => {
    expect(conversationOpen(order({}), now)).toBe(true);
    expect(conversationOpen(order({ status: "mixing" }), now)).toBe(true);
  });
  it("closes 30 days after sent or cancelled", () => {
    expect(conversationOpen(order({ status: "sent", sent_at: daysAgo(29.9) }), now)).toBe(true);
    expect(conversationOpen(order({ status: "sent", sent_at: daysAgo(30.1) }), now)).toBe(false);
    expect(conversationOpen(order({ status: "cancelled", cancelled_at: daysAgo(29) }), now)).toBe(true);
    expect(conversationOpen(order({ status: "cancelled", cancelled_at: daysAgo(31) }), now)).toBe(false);
  });
});

describe("orderTimeline", () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 10, minute)).toISOString();
  const message = (id: string, minute: number, fromMixer = false): Message => ({
    id,
    fromMixer,
    body: `m${id}`,
    created_at: at(minute),
  });
  const movement = (kind: MoneyKind, minute: number, amount: number, extra: Partial<Movement> = {}): Movement => ({
    kind,
    provider: "stripe",
    amount,
    currency: "USD",
    at: at(minute),
    status: null,
    reason: null,
    event: `evt_${minute}`,
    test: false,
    flagged: false,
    extra: false,
    undo: false,
    reference: null,
    ...extra,
  });
  it("every change with its time and every message, oldest first; a change before a message at the same time", () => {
    const entries = orderTimeline(
      {
        created_at: at(0),
        mixing_at: at(5),
        sent_at: at(30),
        cancelled_at: null,
        money: { lines: [], movements: [movement("payment", 20, 1200)] },
      },
      [message("2", 30, true), message("1", 3)],
    );
    expect(entries.map((e) => (e.kind === "event" ? e.event : e.id))).toEqual(["placed", "1", "mixing", "paid", "sent", "2"]);
  });
  it("each movement of money with its amount: a cancelled order's payment and partial refunds; disputes for the mixer only", () => {
    const order = {
      created_at: at(0),
      mixing_at: null,
      sent_at: null,
      cancelled_at: at(2),
      money: {
        lines: [],
        movements: [
          movement("payment", 1, 1200),
          movement("refund", 3, 100),
          movement("dispute", 4, 1100, { status: "needs_response", reason: "fraudulent" }),
        ],
      },
    };
    const said = (side: "shopper" | "mixer") =>
      orderTimeline(order, [], side).map((e) => (e.kind === "event" ? [e.event, e.amount ?? null, e.detail ?? null] : null));
    expect(said("shopper")).toEqual([
      ["placed", null, null],
      ["paid", "$12.00", null],
      ["cancelled", null, null],
      ["refunded", "$1.00", null],
    ]);
    expect(said("mixer").at(-1)).toEqual(["disputed", "$11.00", "fraudulent, needs_response"]);
  });
  it("test money, the extra payment and a refund to check say so; the check is the mixer's", () => {
    const order = {
      created_at: at(0),
      mixing_at: null,
      sent_at: null,
      cancelled_at: null,
      money: {
        lines: [],
        movements: [
          movement("payment", 1, 1200, { test: true }),
          movement("payment", 2, 1000),
          movement("payment", 3, 1000, { extra: true }),
          movement("refund", 4, 1500, { flagged: true }),
        ],
      },
    };
    const details = (side: "shopper" | "mixer") =>
      orderTimeline(order, [], side).flatMap((e) => (e.kind === "event" && e.event !== "placed" ? [e.detail ?? null] : []));
    expect(details("mixer")).toEqual(["test money", null, "extra payment", "to check"]);
    expect(details("shopper")).toEqual(["test money", null, "extra payment", null]);
  });
});

describe("reading stored rows tolerantly", () => {
  it("messages", () => {
    expect(readMessageRow({ id: 7, from_mixer: true, body: "hi", created_at: "2026-11-23T10:00:00.123456+00:00" })).toEqual({
      id: "7",
      fromMixer: true,
      body: "hi",
      created_at: "2026-11-23T10:00:00.123Z",
    });
    expect(readMessageRow({ id: 7, body: null, created_at: "2026-11-23" })).toBeNull();
    expect(readMessageRow({ id: 7, body: "x", created_at: "yesterday" })).toBeNull();
  });
  it("unread counts", () => {
    expect(readUnreadRow({ code: "AB12CD34", unread: "3", since: new Date("2026-11-23T10:00:00Z") })).toEqual({
      code: "AB12CD34",
      unread: 3,
      since: "2026-11-23T10:00:00.000Z",
    });
    expect(readUnreadRow({ code: "AB12CD34", unread: 0, since: "2026-11-23" })).toBeNull();
  });
  it("a message the request never delivered is told apart from a refusal", () => {
    expect(isUnsent({ ok: false, error: "x", body: "y", unsent: true })).toBe(true);
    expect(isUnsent({ ok: false, error: "x", body: "y" })).toBe(false);
    expect(isUnsent(undefined)).toBe(false);
  });
});

describe("readInsights", () => {
  const weeks = ["2026-11-09T00:00:00+00:00", "2026-11-16T00:00:00+00:00", "2026-11-23T00:00:00+00:00"];
  const raw = {
    weeks: weeks.map((week, i) => ({ week, orders: i, cancelled: i === 2 ? 1 : 0 })),
    revenue: [
      { week: weeks[0], currency: "EUR", amount: 900, payments: 1 },
      { week: weeks[2], currency: "USD", amount: 1200, payments: 1 },
      { week: weeks[2], currency: "USD", amount: 800, payments: 1 },
      { week: weeks[1], currency: "usd!", amount: 5, payments: 1 },
    ],
    unpriced: 2,
    songs: [
      { id: "3", title: "old title", picks: 4 },
      { id: "999", picks: 1 },
    ],
    designs: [
      { design: "high-voltage", orders: 3 },
      { design: null, orders: 1 },
      { design: "retired-design", orders: 1 },
    ],
    turnaround: { sent: 4, median: 2.25, p90: 6.1, over: 1 },
    open: 5,
    late: 2,
  };
  it("shapes the aggregate: weeks filled per currency, catalogue titles, designs' shares", () => {
    const got = readInsights(raw, SEEDED_CATALOGUE);
    expect(got.weeks.map((w) => [weekLabel(w.week), w.orders, w.cancelled])).toEqual([
      ["Nov 9", 0, 0],
      ["Nov 16", 1, 0],
      ["Nov 23", 2, 1],
    ]);
    expect(got.revenue).toEqual(
      [
        {
          currency: "USD",
          total: 800,
          payments: 1,
          weeks: weeks.map((w, i) => ({ week: new Date(w).toISOString(), amount: i === 2 ? 800 : 0 })),
        },
        {
          currency: "EUR",
          total: 900,
          payments: 1,
          weeks: weeks.map((w, i) => ({ week: new Date(w).toISOString(), amount: i === 0 ? 900 : 0 })),
        },
      ].sort((a, b) => a.currency.localeCompare(b.currency)),
    );
    expect(got.songs).toEqual([
      { id: "3", title: findSong(SEEDED_CATALOGUE, "3")!.title, picks: 4 },
      { id: "999", title: "999", picks: 1 },
    ]);
    expect(got.designs).toEqual([
      { id: "high-voltage", name: "high voltage", colour: "#ffd23f", orders: 3, share: 0.6 },
      { id: null, name: "", colour: "#b9b2c7", orders: 2, share: 0.4 },
    ]);
    expect(got.turnaround).toEqual({ sent: 4, median: 2.25, p90: 6.1, over: 1, promise: 5 });
    expect([got.unpriced, got.open, got.late]).toEqual([2, 5, 2]);
  });
  it("reads an empty or broken aggregate as zeros", () => {
    expect(readInsights({}, SEEDED_CATALOGUE)).toEqual({
      weeks: [],
      revenue: [],
      unpriced: 0,
      songs: [],
      designs: [],
      turnaround: { sent: 0, median: null, p90: null, over: 0, promise: 5 },
      open: 0,
      late: 0,
    });
  });
});

describe("message emails", () => {
  const config = {
    SHOP_TITLE: "Underground Mixtape Shop",
    MIXER_NAME: "DJ Aika",
    CHECKOUT_URL: "https://pay.example/checkout",
    siteUrl: "https://shop.example",
  } as Config;
  const row = (fromMixer: boolean, recipient: string) =>
    readQueuedEmail({
      id: 1,
      kind: "message",
      recipient,
      attempts: 1,
      order_row: { id: 5, code: "AB12CD34", tracks: [], user_id: "u" },
      username: "rebel_sam",
      email: "sam@example.com",
      messages: [{ id: 9, from_mixer: fromMixer, body: "Can you add a shout-out for Sam?", created_at: "2026-11-23T10:00:00Z" }],
    });
  it("a shopper's message goes to the mixer with a link to the console's order page", () => {
    const mail = orderEmail(row(false, "dj@example.com"), config);
    expect(mail.subject).toBe("Message about AB12CD34");
    expect(mail.text).toContain("rebel_sam wrote about order AB12CD34:");
    expect(mail.text).toContain("Can you add a shout-out for Sam?");
    expect(mail.text).toContain("https://shop.example/mixer/orders/AB12CD34#messages");
    expect(mail.text).not.toContain("/my-mixtapes/");
  });
  it("the mixer's message goes to the shopper with a link to their order page", () => {
    const mail = orderEmail(row(true, "sam@example.com"), config);
    expect(mail.subject).toBe("Message about AB12CD34");
    expect(mail.text).toContain("DJ Aika wrote about order AB12CD34:");
    expect(mail.text).toContain("https://shop.example/my-mixtapes/AB12CD34#messages");
    expect(mail.html).toContain("Can you add a shout-out for Sam?");
  });
  it("the receipt, the new-order notice and the sent notice link to the order pages", () => {
    const email = (kind: string) =>
      orderEmail(
        readQueuedEmail({
          id: 1,
          kind,
          recipient: "x@example.com",
          attempts: 1,
          order_row: { id: 5, code: "AB12CD34", tracks: [] },
        }),
        config,
      );
    expect(email("received").text).toContain("https://shop.example/my-mixtapes/AB12CD34");
    expect(email("new_order").text).toContain("https://shop.example/mixer/orders/AB12CD34");
    expect(email("sent").text).toContain("https://shop.example/my-mixtapes/AB12CD34");
  });
});
