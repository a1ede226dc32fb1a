// The rest of the deck: design, options and toggles, a fresh deck, its code, after a transmit,
// the intents that change it, and the labels of its options.
import { describe, expect, it } from "vitest";
import {
  EMPTY_TOGGLES,
  afterTransmit,
  enabledToggleKeys,
  freshDeck,
  optionLabels,
  readToggles,
  setCode,
  setDesign,
  setOptions,
} from "~/domain/deck";
import { CODENAME_RE } from "~/domain/codename";
import { applyIntent } from "~/domain/intents";
import { deckWith, errorOf, highest, lowest, makeDeck, okDeck, scripted, UID } from "./helpers";
import { COVER_BACKGROUND_COUNT, SEEDED_CATALOGUE } from "~/domain/catalogue";

describe("setDesign", () => {
  it.each(["ice-cold", "system-burnout", "high-voltage", "unicorn-mix"])("accepts known design %s", (id) => {
    expect(okDeck(setDesign(makeDeck(), id, SEEDED_CATALOGUE)).design).toBe(id);
  });
  it("null clears the design", () => {
    expect(okDeck(setDesign(makeDeck({ design: "ice-cold" }), null, SEEDED_CATALOGUE)).design).toBeNull();
  });
  it.each(["", "ice cold", "Ice-Cold", "nope", "none", "__proto__"])("rejects unknown design %j", (id) => {
    const d = makeDeck({ design: "high-voltage" });
    expect(errorOf(setDesign(d, id, SEEDED_CATALOGUE))).toBe("That cover design does not exist.");
    expect(d.design).toBe("high-voltage");
  });
});

describe("setOptions", () => {
  const on = { Aikavoice: true, djIntro: false, retronoise: true };
  it("sets toggles and the note", () => {
    const d = okDeck(setOptions(makeDeck(), on, "play it loud"));
    expect(d.toggles).toEqual(on);
    expect(d.note).toBe("play it loud");
  });
  it("accepts a note of exactly 120 characters", () => {
    const note = "x".repeat(120);
    expect(okDeck(setOptions(makeDeck(), EMPTY_TOGGLES, note)).note).toBe(note);
  });
  it("rejects a note of 121 characters with the exact message, deck unchanged", () => {
    const d = makeDeck({ note: "old" });
    expect(errorOf(setOptions(d, on, "x".repeat(121)))).toBe("The note is limited to 120 characters.");
    expect(d.note).toBe("old");
    expect(d.toggles).toEqual(EMPTY_TOGGLES);
  });
  it("an empty note clears the note", () => {
    expect(okDeck(setOptions(makeDeck({ note: "old" }), EMPTY_TOGGLES, "")).note).toBe("");
  });
  it("coerces non-boolean toggle values through readToggles", () => {
    const sloppy = { Aikavoice: "true", djIntro: 1, retronoise: true, extra: true } as unknown as typeof on;
    const d = okDeck(setOptions(makeDeck(), sloppy, ""));
    expect(d.toggles).toEqual({ Aikavoice: false, djIntro: false, retronoise: true });
    expect(Object.keys(d.toggles).sort()).toEqual(["Aikavoice", "djIntro", "retronoise"]);
  });
});

describe("readToggles", () => {
  it("keeps strictly true values", () => {
    expect(readToggles({ Aikavoice: true, djIntro: true, retronoise: true })).toEqual({
      Aikavoice: true,
      djIntro: true,
      retronoise: true,
    });
  });
  it.each([["true"], [1], [null], [undefined], [[]], [[true]], [{}], ["yes"], [new Boolean(true)], [false], [0]])(
    "treats %j as false",
    (v) => {
      expect(readToggles({ Aikavoice: v, djIntro: v, retronoise: v })).toEqual(EMPTY_TOGGLES);
    },
  );
  it.each([null, undefined, "x", 42, true, [], [true, true, true]])("non-object input %j gives all false", (v) => {
    expect(readToggles(v)).toEqual(EMPTY_TOGGLES);
  });
  it("missing keys are false and unknown keys are dropped", () => {
    const t = readToggles({ djIntro: true, admin: true });
    expect(t).toEqual({ Aikavoice: false, djIntro: true, retronoise: false });
    expect(Object.keys(t).sort()).toEqual(["Aikavoice", "djIntro", "retronoise"]);
  });
  it("returns a new object each time", () => {
    expect(readToggles(null)).not.toBe(EMPTY_TOGGLES);
  });
});

describe("freshDeck", () => {
  it("starts empty for the given user", () => {
    const d = freshDeck(UID, lowest);
    expect(d.uid).toBe(UID);
    expect(d.songs).toEqual([]);
    expect(d.design).toBeNull();
    expect(d.toggles).toEqual({ Aikavoice: false, djIntro: false, retronoise: false });
    expect(d.note).toBe("");
    expect(d.code).toBeNull();
  });
  it("lowest random values: cover No. 100, background 0", () => {
    const d = freshDeck(UID, lowest);
    expect(d.coverNo).toBe(100);
    expect(d.coverBg).toBe(0);
    expect(d.codename).toMatch(CODENAME_RE);
  });
  it("highest random values: cover No. 999, background 2", () => {
    const d = freshDeck(UID, highest);
    expect(d.coverNo).toBe(999);
    expect(d.coverBg).toBe(2);
    expect(d.codename).toMatch(CODENAME_RE);
  });
  it("asks for the cover number over 900 values and the background over 3", () => {
    const rnd = scripted([0, 0, 899, 2]);
    const d = freshDeck(UID, rnd);
    expect(rnd.calls).toContain(900);
    expect(rnd.calls).toContain(COVER_BACKGROUND_COUNT);
    expect(d.coverNo).toBe(999);
    expect(d.coverBg).toBe(2);
  });
  it("never calls RandomInt with a bound it cannot satisfy", () => {
    const calls: number[] = [];
    freshDeck(UID, (max) => {
      calls.push(max);
      return 0;
    });
    for (const max of calls) {
      expect(Number.isInteger(max)).toBe(true);
      expect(max).toBeGreaterThan(0);
    }
  });
  it("cover number stays within 100..999 and background within 0..2 for every value", () => {
    for (const v of [0, 1, 450, 898, 899]) {
      const d = freshDeck(UID, (max) => Math.min(v, max - 1));
      expect(d.coverNo).toBeGreaterThanOrEqual(100);
      expect(d.coverNo).toBeLessThanOrEqual(999);
      expect(d.coverBg).toBeGreaterThanOrEqual(0);
      expect(d.coverBg).toBeLessThanOrEqual(2);
      expect(String(d.coverNo)).toMatch(/^\d{3}$/);
    }
  });
  it("the codename is two upper-case words", () => {
    for (const rnd of [lowest, highest, (max: number) => Math.floor(max / 2)]) {
      expect(freshDeck(UID, rnd).codename).toMatch(/^[A-Z]+ [A-Z]+$/);
    }
  });
  it("toggles are a fresh object, not the shared EMPTY_TOGGLES", () => {
    const d = freshDeck(UID, lowest);
    expect(d.toggles).not.toBe(EMPTY_TOGGLES);
  });
});

describe("setCode", () => {
  it("sets the code and keeps the rest", () => {
    const d = deckWith(2);
    const next = setCode(d, "ABCD1234");
    expect(next.code).toBe("ABCD1234");
    expect({ ...next, code: null }).toEqual(d);
    expect(d.code).toBeNull();
  });
});

describe("afterTransmit", () => {
  it("resets songs, note, toggles and code; keeps design, codename, cover and uid", () => {
    const d = deckWith(5, {
      design: "unicorn-mix",
      note: "for Ann",
      code: "ZZZZ9999",
      toggles: { Aikavoice: true, djIntro: true, retronoise: true },
      codename: "ACID WOLF",
      coverNo: 777,
      coverBg: 2,
    });
    const next = afterTransmit(d);
    expect(next).toEqual({
      uid: UID,
      songs: [],
      design: "unicorn-mix",
      toggles: { Aikavoice: false, djIntro: false, retronoise: false },
      note: "",
      code: null,
      codename: "ACID WOLF",
      coverNo: 777,
      coverBg: 2,
    });
    expect(d.songs).toHaveLength(5);
    expect(d.code).toBe("ZZZZ9999");
  });
});

describe("applyIntent", () => {
  it("dispatches add", () => {
    expect(okDeck(applyIntent(makeDeck(), { intent: "add", songId: "4" }, SEEDED_CATALOGUE)).songs).toEqual(["4"]);
    expect(errorOf(applyIntent(deckWith(10), { intent: "add", songId: "11" }, SEEDED_CATALOGUE))).toBe(
      "Your mixtape is full: 10 tracks at most.",
    );
  });
  it("dispatches remove", () => {
    expect(okDeck(applyIntent(deckWith(2), { intent: "remove", songId: "1" }, SEEDED_CATALOGUE)).songs).toEqual(["2"]);
    expect(errorOf(applyIntent(deckWith(2), { intent: "remove", songId: "3" }, SEEDED_CATALOGUE))).toBe(
      "That song is not in your mixtape.",
    );
  });
  it("dispatches move", () => {
    expect(okDeck(applyIntent(deckWith(3), { intent: "move", songId: "3", to: 0 }, SEEDED_CATALOGUE)).songs).toEqual([
      "3",
      "1",
      "2",
    ]);
    expect(errorOf(applyIntent(deckWith(3), { intent: "move", songId: "3", to: 3 }, SEEDED_CATALOGUE))).toBe(
      "That track cannot move there.",
    );
  });
  it("dispatches design", () => {
    expect(okDeck(applyIntent(makeDeck(), { intent: "design", designId: "high-voltage" }, SEEDED_CATALOGUE)).design).toBe(
      "high-voltage",
    );
    expect(
      okDeck(applyIntent(makeDeck({ design: "ice-cold" }), { intent: "design", designId: null }, SEEDED_CATALOGUE)).design,
    ).toBeNull();
    expect(errorOf(applyIntent(makeDeck(), { intent: "design", designId: "x" }, SEEDED_CATALOGUE))).toBe(
      "That cover design does not exist.",
    );
  });
  it("dispatches options", () => {
    const toggles = { Aikavoice: false, djIntro: true, retronoise: false };
    const d = okDeck(applyIntent(makeDeck(), { intent: "options", toggles, note: "n" }, SEEDED_CATALOGUE));
    expect(d.toggles).toEqual(toggles);
    expect(d.note).toBe("n");
    expect(errorOf(applyIntent(makeDeck(), { intent: "options", toggles, note: "y".repeat(121) }, SEEDED_CATALOGUE))).toBe(
      "The note is limited to 120 characters.",
    );
  });
});

describe("enabledToggleKeys / optionLabels", () => {
  it("no options enabled gives no labels", () => {
    expect(enabledToggleKeys(EMPTY_TOGGLES)).toEqual([]);
    expect(optionLabels(EMPTY_TOGGLES, "DJ Kai")).toEqual([]);
  });
  it("labels use the mixer name and follow the spec order", () => {
    const all = { retronoise: true, djIntro: true, Aikavoice: true };
    expect(enabledToggleKeys(all)).toEqual(["Aikavoice", "djIntro", "retronoise"]);
    expect(optionLabels(all, "DJ Kai")).toEqual(["Add DJ Kai voice", "Include Custom Intro", "Add cassette noise"]);
  });
  it("only the enabled ones", () => {
    expect(optionLabels({ Aikavoice: false, djIntro: false, retronoise: true }, "Aika")).toEqual(["Add cassette noise"]);
    expect(optionLabels({ Aikavoice: true, djIntro: false, retronoise: false }, "Aika")).toEqual(["Add Aika voice"]);
    expect(optionLabels({ Aikavoice: false, djIntro: true, retronoise: false }, "Aika")).toEqual(["Include Custom Intro"]);
  });
});
