import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { deckSchema, readDeck } from "~/domain/schemas";
import { freshDeck, type Deck } from "~/domain/deck";
import { deckWith, highest, lowest, makeDeck, OTHER_UID, UID } from "./helpers";
import { SEEDED_CATALOGUE } from "~/domain/catalogue";

const valid = (): Deck =>
  deckWith(10, {
    design: "system-burnout",
    toggles: { Aikavoice: true, djIntro: false, retronoise: true },
    note: "x".repeat(120),
    code: "AB12CD34",
    codename: "PHANTOM RAVEN",
    coverNo: 999,
    coverBg: 2,
  });

/** Simulates the cookie round trip (JSON-serialised). */
const roundTrip = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe("readDeck: valid decks round-trip", () => {
  it("a full, valid deck comes back equal", () => {
    const d = valid();
    expect(readDeck(roundTrip(d), UID, SEEDED_CATALOGUE)).toEqual(d);
  });
  it("a minimal deck comes back equal", () => {
    const d = makeDeck();
    expect(readDeck(roundTrip(d), UID, SEEDED_CATALOGUE)).toEqual(d);
  });
  it("fresh decks at both random extremes are valid", () => {
    for (const rnd of [lowest, highest]) {
      const d = freshDeck(UID, rnd);
      expect(readDeck(roundTrip(d), UID, SEEDED_CATALOGUE)).toEqual(d);
    }
  });
  it("a random v4 uuid is accepted", () => {
    const uid = randomUUID();
    const d = makeDeck({ uid });
    expect(readDeck(d, uid, SEEDED_CATALOGUE)).toEqual(d);
  });
  it("coverNo 100 and coverBg 0 are accepted", () => {
    const d = makeDeck({ coverNo: 100, coverBg: 0 });
    expect(readDeck(d, UID, SEEDED_CATALOGUE)).toEqual(d);
  });
  it("every design id is accepted", () => {
    for (const design of ["ice-cold", "system-burnout", "high-voltage", "unicorn-mix"]) {
      expect(readDeck(makeDeck({ design }), UID, SEEDED_CATALOGUE)?.design).toBe(design);
    }
  });
});

describe("readDeck: foreign or stale decks give null", () => {
  it("another user's deck", () => {
    const d = makeDeck({ uid: OTHER_UID });
    expect(deckSchema.safeParse(d).success).toBe(true);
    expect(readDeck(d, UID, SEEDED_CATALOGUE)).toBeNull();
  });
  it("a non-uuid uid, even when it equals the caller's uid", () => {
    expect(readDeck(makeDeck({ uid: "user-1" }), "user-1", SEEDED_CATALOGUE)).toBeNull();
    expect(readDeck(makeDeck({ uid: "" }), "", SEEDED_CATALOGUE)).toBeNull();
  });
  it("uid compared exactly (case matters)", () => {
    expect(readDeck(makeDeck(), UID.toUpperCase(), SEEDED_CATALOGUE)).toBeNull();
  });
});

describe("readDeck: tampered or malformed decks give null", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["11 songs", { songs: Array.from({ length: 11 }, (_, i) => String(i + 1)) }],
    ["duplicate songs", { songs: ["1", "2", "1"] }],
    ["unknown song id 0", { songs: ["0"] }],
    ["numeric song id", { songs: [1] }],
    ["null song id", { songs: [null] }],
    ["songs as a string", { songs: "1,2,3" }],
    ["songs as an object", { songs: { 0: "1" } }],
    ["design by display name", { design: "ice cold" }],
    ["empty design string", { design: "" }],
    ["note of 121 chars", { note: "x".repeat(121) }],
    ["note not a string", { note: 5 }],
    ["note null", { note: null }],
    ["lowercase code", { code: "ab12cd34" }],
    ["7-char code", { code: "AB12CD3" }],
    ["9-char code", { code: "AB12CD345" }],
    ["code with a symbol", { code: "AB12CD3!" }],
    ["code as a number", { code: 12345678 }],
    ["empty code", { code: "" }],
    ["bad codename", { codename: "neon cipher" }],
    ["one-word codename", { codename: "NEON" }],
    ["empty codename", { codename: "" }],
    ["coverNo 99", { coverNo: 99 }],
    ["coverNo 1000", { coverNo: 1000 }],
    ["coverNo fractional", { coverNo: 100.5 }],
    ["coverNo as string", { coverNo: "500" }],
    ["coverNo NaN", { coverNo: Number.NaN }],
    ["coverNo Infinity", { coverNo: Number.POSITIVE_INFINITY }],
    ["coverBg 3", { coverBg: 3 }],
    ["coverBg -1", { coverBg: -1 }],
    ["coverBg fractional", { coverBg: 0.5 }],
    ["coverBg as string", { coverBg: "1" }],
    ["toggle as string", { toggles: { Aikavoice: "true", djIntro: false, retronoise: false } }],
    ["toggle as number", { toggles: { Aikavoice: 1, djIntro: false, retronoise: false } }],
    ["toggle missing", { toggles: { Aikavoice: true, djIntro: false } }],
    ["toggles null", { toggles: null }],
    ["toggles array", { toggles: [true, true, true] }],
    ["uid number", { uid: 1 }],
  ];
  it.each(cases)("%s", (_name, patch) => {
    const tampered = { ...valid(), ...patch };
    expect(readDeck(tampered, UID, SEEDED_CATALOGUE)).toBeNull();
    expect(deckSchema.safeParse(tampered).success).toBe(false);
  });

  // Well formed, but the catalogue never had them: the shape passes, the deck does not.
  it.each([
    ["unknown song id 31", { songs: ["1", "31"] }],
    ["unknown design", { design: "gold-edition" }],
  ] as const)("%s", (_name, patch) => {
    const deck = { ...valid(), ...patch };
    expect(readDeck(deck, UID, SEEDED_CATALOGUE)).toBeNull();
    expect(deckSchema.safeParse(deck).success).toBe(true);
  });

  it("a retired song or design stays in the deck that holds it", () => {
    const retired = {
      ...SEEDED_CATALOGUE,
      songs: SEEDED_CATALOGUE.songs.map((s) => (s.id === "2" ? { ...s, active: false } : s)),
      designs: SEEDED_CATALOGUE.designs.map((d) => (d.id === "ice-cold" ? { ...d, active: false } : d)),
    };
    const deck = { ...valid(), songs: ["1", "2"], design: "ice-cold" };
    expect(readDeck(deck, UID, retired)).toEqual(deck);
  });

  it.each(["uid", "songs", "design", "toggles", "note", "code", "codename", "coverNo", "coverBg"])("missing field %s", (key) => {
    const d: Record<string, unknown> = { ...valid() };
    delete d[key];
    expect(readDeck(d, UID, SEEDED_CATALOGUE)).toBeNull();
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["a string", "deck"],
    ["a JSON string of a valid deck", JSON.stringify(makeDeck())],
    ["a number", 42],
    ["a boolean", true],
    ["an empty object", {}],
    ["an empty array", []],
    ["an array holding a valid deck", [makeDeck()]],
  ])("%s instead of an object", (_name, value) => {
    expect(readDeck(value, UID, SEEDED_CATALOGUE)).toBeNull();
  });

  it("an oversized songs array (10,000 entries)", () => {
    const songs = Array.from({ length: 10_000 }, (_, i) => String((i % 30) + 1));
    expect(readDeck({ ...valid(), songs }, UID, SEEDED_CATALOGUE)).toBeNull();
  });
  it("10,000 copies of one valid id", () => {
    expect(readDeck({ ...valid(), songs: new Array(10_000).fill("1") }, UID, SEEDED_CATALOGUE)).toBeNull();
  });
  it("a huge note string (1 MB)", () => {
    expect(readDeck({ ...valid(), note: "n".repeat(1_000_000) }, UID, SEEDED_CATALOGUE)).toBeNull();
  });
  it("a huge codename string", () => {
    expect(readDeck({ ...valid(), codename: `${"A".repeat(100_000)} B` }, UID, SEEDED_CATALOGUE)).toBeNull();
  });
});

describe("readDeck: unknown keys", () => {
  it("extra top-level keys are stripped, the rest is kept", () => {
    const d = valid();
    const out = readDeck({ ...d, admin: true, price: 0 }, UID, SEEDED_CATALOGUE);
    expect(out).toEqual(d);
    expect(out && Object.keys(out).sort()).toEqual(Object.keys(d).sort());
    expect(out).not.toHaveProperty("admin");
  });
  it("extra toggle keys are stripped", () => {
    const d = valid();
    const out = readDeck({ ...d, toggles: { ...d.toggles, free: true } }, UID, SEEDED_CATALOGUE);
    expect(out?.toggles).toEqual(d.toggles);
    expect(out?.toggles).not.toHaveProperty("free");
  });
  it("a __proto__ key from JSON does not pollute the result", () => {
    const json = JSON.stringify(valid()).replace(/^\{/, '{"__proto__":{"polluted":true},');
    const parsed = JSON.parse(json) as unknown;
    const out = readDeck(parsed, UID, SEEDED_CATALOGUE) as (Deck & { polluted?: unknown }) | null;
    expect(out).not.toBeNull();
    expect(out?.polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
  it("the result is a copy, not the input object", () => {
    const d = valid();
    const out = readDeck(d, UID, SEEDED_CATALOGUE);
    expect(out).not.toBe(d);
  });
});
