import { describe, expect, it } from "vitest";
import { formatMoney } from "~/domain/money";
import { dueAt, isLate, normalizeDeliveryUrl, orderFromDeck, readOrderRow, readStoredTracks } from "~/domain/orders";
import { SEEDED_CATALOGUE } from "~/domain/catalogue";

const SONGS = SEEDED_CATALOGUE.songs;
import { deckWith, makeDeck, UID } from "./helpers";

const track = (n: number) => {
  const s = SONGS[n - 1]!;
  return { id: s.id, title: s.title, thumbnail: s.thumbnail, previewUrl: s.previewUrl };
};

describe("orderFromDeck", () => {
  it("builds the insert payload (the backend's field names)", () => {
    const deck = makeDeck({
      songs: ["3", "1", "30"],
      design: "high-voltage",
      toggles: { Aikavoice: true, djIntro: false, retronoise: true },
      note: "loud please",
      code: "AB12CD34",
    });
    const order = orderFromDeck(deck, UID, SEEDED_CATALOGUE);
    expect(order).toEqual({
      user_id: UID,
      code: "AB12CD34",
      tracks: [track(3), track(1), track(30)],
      toggles: { Aikavoice: true, djIntro: false, retronoise: true },
      note: "loud please",
      design_id: "high-voltage",
      codename: deck.codename,
    });
    expect(Object.keys(order).sort()).toEqual(["code", "codename", "design_id", "note", "toggles", "tracks", "user_id"]);
  });
  it("each track is exactly {id,title,thumbnail,previewUrl} taken from the catalogue", () => {
    const order = orderFromDeck(deckWith(10, { code: "ZZZZZZZZ" }), UID, SEEDED_CATALOGUE);
    expect(order.tracks).toHaveLength(10);
    order.tracks.forEach((t, i) => {
      expect(Object.keys(t).sort()).toEqual(["id", "previewUrl", "thumbnail", "title"]);
      expect(t).toEqual(track(i + 1));
    });
  });
  it("keeps the deck order", () => {
    const order = orderFromDeck(makeDeck({ songs: ["9", "2", "17"], code: "AAAAAAAA" }), UID, SEEDED_CATALOGUE);
    expect(order.tracks.map((t) => t.id)).toEqual(["9", "2", "17"]);
  });
  it("a null design gives design_id null", () => {
    expect(orderFromDeck(deckWith(1, { code: "AAAAAAAA" }), UID, SEEDED_CATALOGUE).design_id).toBeNull();
  });
  it("toggles are copied, not shared with the deck", () => {
    const deck = deckWith(1, { code: "AAAAAAAA" });
    expect(orderFromDeck(deck, UID, SEEDED_CATALOGUE).toggles).not.toBe(deck.toggles);
  });
  it("throws without a code", () => {
    expect(() => orderFromDeck(deckWith(2), UID, SEEDED_CATALOGUE)).toThrow();
    expect(() => orderFromDeck(deckWith(2, { code: "" }), UID, SEEDED_CATALOGUE)).toThrow();
  });
  it("throws on a song that is not in the catalogue", () => {
    expect(() => orderFromDeck(makeDeck({ songs: ["31"], code: "AAAAAAAA" }), UID, SEEDED_CATALOGUE)).toThrow();
  });
});

describe("readStoredTracks", () => {
  const good = { id: "1", title: "T", thumbnail: "/t.svg", previewUrl: "/p.mp3" };

  it("keeps valid tracks in order", () => {
    const b = { ...good, id: "2" };
    expect(readStoredTracks([good, b])).toEqual([good, b]);
  });
  it.each(["id", "title", "thumbnail", "previewUrl"])("drops a track missing %s", (key) => {
    const t: Record<string, unknown> = { ...good };
    delete t[key];
    expect(readStoredTracks([t, good])).toEqual([good]);
  });
  it.each([
    ["a number", 1],
    ["null", null],
    ["undefined", undefined],
    ["an object", { x: 1 }],
    ["an array", ["a"]],
    ["a boolean", true],
  ])("drops a track whose field is %s", (_name, bad) => {
    for (const key of ["id", "title", "thumbnail", "previewUrl"]) {
      expect(readStoredTracks([{ ...good, [key]: bad }])).toEqual([]);
    }
  });
  it("keeps empty strings (they are strings)", () => {
    const t = { id: "", title: "", thumbnail: "", previewUrl: "" };
    expect(readStoredTracks([t])).toEqual([t]);
  });
  it("drops non-object entries", () => {
    expect(readStoredTracks([null, undefined, 1, "x", true, [], good])).toEqual([good]);
  });
  it("strips unknown fields", () => {
    expect(readStoredTracks([{ ...good, extra: "<script>" }])).toEqual([good]);
  });
  it.each([null, undefined, "[]", 5, {}, { 0: good, length: 1 }, true])("non-array %j -> []", (v) => {
    expect(readStoredTracks(v)).toEqual([]);
  });
});

describe("readOrderRow", () => {
  const row = {
    id: "42",
    code: "AB12CD34",
    tracks: [track(1), track(2)],
    toggles: { Aikavoice: true, djIntro: false, retronoise: true },
    note: "hi",
    design_id: "ice-cold",
    created_at: "2024-05-01T12:34:56.000Z",
    user_id: UID,
  };

  it("reads an unparseable created_at as the epoch instead of throwing", () => {
    expect(readOrderRow({ ...row, created_at: "not a date" })?.created_at).toBe("1970-01-01T00:00:00.000Z");
    expect(readOrderRow({ ...row, created_at: new Date(Number.NaN) })?.created_at).toBe("1970-01-01T00:00:00.000Z");
  });

  it("reads a well-formed row", () => {
    expect(readOrderRow(row)).toEqual({
      id: "42",
      code: "AB12CD34",
      tracks: [track(1), track(2)],
      toggles: { Aikavoice: true, djIntro: false, retronoise: true },
      note: "hi",
      design_id: "ice-cold",
      // Without the design's copy (design_name, design_image): no design to show.
      design: null,
      created_at: "2024-05-01T12:34:56.000Z",
      // A row stored before the lifecycle: received, unpaid, nothing delivered.
      status: "received",
      paid: false,
      money: { lines: [], movements: [] },
      tape: null,
      delivery_url: null,
      mixer_message: null,
      codename: null,
      cancel_reason: null,
      mixing_at: null,
      sent_at: null,
      cancelled_at: null,
      cancelled_by_shopper: null,
    });
  });
  it("reads the design as it was sold", () => {
    const sold = readOrderRow({ ...row, design_name: "ice cold (old)", design_image: "/media/catalogue/designs/x.webp" });
    expect(sold?.design).toEqual({ name: "ice cold (old)", image: "/media/catalogue/designs/x.webp" });
    expect(readOrderRow({ ...row, design_id: null, design_name: "x", design_image: "/x.webp" })?.design).toBeNull();
  });
  it("numeric and bigint ids become strings", () => {
    expect(readOrderRow({ ...row, id: 7 })?.id).toBe("7");
    expect(readOrderRow({ ...row, id: 9007199254740993n })?.id).toBe("9007199254740993");
  });
  it("a Date created_at is read", () => {
    expect(readOrderRow({ ...row, created_at: new Date("2023-01-02T03:04:05Z") })?.created_at).toBe("2023-01-02T03:04:05.000Z");
  });
  it("a string created_at with an offset is normalised to ISO UTC", () => {
    expect(readOrderRow({ ...row, created_at: "2024-05-01T14:34:56+02:00" })?.created_at).toBe("2024-05-01T12:34:56.000Z");
    expect(readOrderRow({ ...row, created_at: "2024-05-01 12:34:56.123+00" })?.created_at).toBe("2024-05-01T12:34:56.123Z");
  });
  it("a missing created_at becomes the epoch", () => {
    const { created_at: _omit, ...rest } = row;
    expect(readOrderRow(rest)?.created_at).toBe("1970-01-01T00:00:00.000Z");
  });
  it("toggles not strictly true become false", () => {
    expect(readOrderRow({ ...row, toggles: { Aikavoice: "true", djIntro: 1, retronoise: null } })?.toggles).toEqual({
      Aikavoice: false,
      djIntro: false,
      retronoise: false,
    });
    expect(readOrderRow({ ...row, toggles: null })?.toggles).toEqual({ Aikavoice: false, djIntro: false, retronoise: false });
    expect(readOrderRow({ ...row, toggles: "x" })?.toggles).toEqual({ Aikavoice: false, djIntro: false, retronoise: false });
  });
  it("a missing or non-string note becomes empty", () => {
    const { note: _omit, ...rest } = row;
    expect(readOrderRow(rest)?.note).toBe("");
    expect(readOrderRow({ ...row, note: null })?.note).toBe("");
    expect(readOrderRow({ ...row, note: 5 })?.note).toBe("");
  });
  it("a missing or non-string design_id becomes null", () => {
    expect(readOrderRow({ ...row, design_id: null })?.design_id).toBeNull();
    expect(readOrderRow({ ...row, design_id: 3 })?.design_id).toBeNull();
    const { design_id: _omit, ...rest } = row;
    expect(readOrderRow(rest)?.design_id).toBeNull();
  });
  it("bad tracks are dropped, non-array tracks give []", () => {
    expect(readOrderRow({ ...row, tracks: [track(1), { id: 2 }, null] })?.tracks).toEqual([track(1)]);
    expect(readOrderRow({ ...row, tracks: "nope" })?.tracks).toEqual([]);
    expect(readOrderRow({ ...row, tracks: null })?.tracks).toEqual([]);
  });
  it("does not leak extra columns such as user_id", () => {
    expect(readOrderRow(row)).not.toHaveProperty("user_id");
  });
  it.each([
    ["no id", { code: "AB12CD34" }],
    ["null id", { id: null, code: "AB12CD34" }],
    ["object id", { id: {}, code: "AB12CD34" }],
    ["no code", { id: "1" }],
    ["numeric code", { id: "1", code: 12345678 }],
    ["null code", { id: "1", code: null }],
    ["empty row", {}],
  ])("a row with %s -> null", (_name, bad) => {
    expect(readOrderRow(bad as Record<string, unknown>)).toBeNull();
  });
  it("works as an Array.map callback over mixed rows", () => {
    const rows: Record<string, unknown>[] = [row, {}, { ...row, id: "43" }];
    expect(rows.map(readOrderRow).map((o) => o?.id ?? null)).toEqual(["42", null, "43"]);
  });
});

describe("normalizeDeliveryUrl: one rule for the form and the database", () => {
  it("keeps https links, scheme and host in lower case", () => {
    expect(normalizeDeliveryUrl("https://files.example/tape.mp3")).toBe("https://files.example/tape.mp3");
    expect(normalizeDeliveryUrl("HTTPS://X.EXAMPLE/upper")).toBe("https://x.example/upper");
    expect(normalizeDeliveryUrl("  https://x.example  ")).toBe("https://x.example/");
  });
  it("refuses other schemes, credentials and control characters, raw or percent-encoded", () => {
    for (const bad of [
      "http://x.example/",
      "javascript:alert(1)",
      "https://user:pw@x.example/",
      "https://x.example/%00",
      "https://x.example/%01ctl",
      "https://x.example/%1f",
      "https://x.example/%7F",
      "https://x.example/a\u0001b",
      "https://x.example/a\nb",
      `https://x.example/${"a".repeat(2000)}`,
      "not a url",
    ])
      expect(normalizeDeliveryUrl(bad), bad).toBeNull();
  });
});

describe("the shop's rules of an order", () => {
  const at = (iso: string) => readOrderRow({ id: 1, code: "AB12CD34", created_at: iso })!;
  it("is due 5 days after it was placed, and late after that while neither sent nor cancelled", () => {
    const order = at("2026-11-20T10:00:00.000Z");
    expect(dueAt(order)).toBe("2026-11-25T10:00:00.000Z");
    expect(isLate(order, new Date("2026-11-25T09:59:59Z"))).toBe(false);
    expect(isLate(order, new Date("2026-11-25T10:00:01Z"))).toBe(true);
    expect(isLate({ ...order, status: "mixing" }, new Date("2026-12-01T00:00:00Z"))).toBe(true);
    expect(isLate({ ...order, status: "sent" }, new Date("2026-12-01T00:00:00Z"))).toBe(false);
    expect(isLate({ ...order, status: "cancelled" }, new Date("2026-12-01T00:00:00Z"))).toBe(false);
  });
  it("reads who cancelled: the shopper when cancelled_by is the owner", () => {
    const row = { id: 1, code: "AB12CD34", user_id: "u1", cancelled_at: "2026-11-21T00:00:00Z", cancelled_by: "u1" };
    expect(readOrderRow(row)?.cancelled_by_shopper).toBe(true);
    expect(readOrderRow({ ...row, cancelled_by: "m1" })?.cancelled_by_shopper).toBe(false);
  });
  it("is paid when the ledger holds a payment, whatever a stored flag says", () => {
    const money = { lines: [{ currency: "USD", payments: 1, paid: 1200, refunded: 0, disputed: 0, net: 1200, due: 0 }] };
    expect(readOrderRow({ id: 1, code: "AB12CD34", money })?.paid).toBe(true);
    expect(readOrderRow({ id: 1, code: "AB12CD34", paid: true })?.paid).toBe(false);
  });
});

describe("formatMoney", () => {
  it("writes the amount in its currency's own digits", () => {
    expect(formatMoney(1200, "USD")).toBe("$12.00");
    expect(formatMoney(950, "EUR")).toBe("€9.50");
    expect(formatMoney(1200, "JPY")).toBe("¥1,200");
    expect(formatMoney(null, "USD")).toBeNull();
  });
});
