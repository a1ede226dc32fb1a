// The deck's tracks: the limits, adding (one or a block), removing and moving.
import { describe, expect, it } from "vitest";
import { EMPTY_TOGGLES, MAX_TRACKS, NOTE_MAX, TOGGLE_KEYS, addBlock, addTrack, moveTrack, removeTrack } from "~/domain/deck";
import { deckWith, errorOf, makeDeck, okDeck, snapshot } from "./helpers";
import { SEEDED_CATALOGUE } from "~/domain/catalogue";

describe("constants (spec section 9)", () => {
  it("max 10 tracks and a 120-character note", () => {
    expect(MAX_TRACKS).toBe(10);
    expect(NOTE_MAX).toBe(120);
  });
  it("toggle keys are Aikavoice, djIntro, retronoise and all start false", () => {
    expect([...TOGGLE_KEYS]).toEqual(["Aikavoice", "djIntro", "retronoise"]);
    expect(EMPTY_TOGGLES).toEqual({ Aikavoice: false, djIntro: false, retronoise: false });
  });
});

describe("addTrack", () => {
  it("adds a known song to an empty deck", () => {
    const deck = okDeck(addTrack(makeDeck(), "7", SEEDED_CATALOGUE));
    expect(deck.songs).toEqual(["7"]);
  });

  it("appends in the order added", () => {
    let deck = makeDeck();
    for (const id of ["30", "1", "15", "2"]) deck = okDeck(addTrack(deck, id, SEEDED_CATALOGUE));
    expect(deck.songs).toEqual(["30", "1", "15", "2"]);
  });

  it("does not mutate the input deck", () => {
    const deck = deckWith(2);
    const before = snapshot(deck);
    okDeck(addTrack(deck, "9", SEEDED_CATALOGUE));
    expect(deck).toEqual(before);
  });

  it("keeps every other field", () => {
    const deck = makeDeck({
      design: "ice-cold",
      note: "hi",
      code: "ABCD1234",
      toggles: { Aikavoice: true, djIntro: false, retronoise: true },
    });
    const next = okDeck(addTrack(deck, "3", SEEDED_CATALOGUE));
    expect({ ...next, songs: [] }).toEqual({ ...deck, songs: [] });
  });

  it.each(["0", "31", "", " 1", "1 ", "01", "abc", "-1", "1.0", "__proto__", "constructor"])(
    "rejects unknown song id %j with the exact message",
    (id) => {
      const deck = deckWith(3);
      const r = addTrack(deck, id, SEEDED_CATALOGUE);
      expect(errorOf(r)).toBe("That song is not in the catalogue.");
      expect(deck.songs).toEqual(["1", "2", "3"]);
    },
  );

  it("rejects a duplicate with the exact message, deck unchanged", () => {
    const deck = deckWith(3);
    expect(errorOf(addTrack(deck, "2", SEEDED_CATALOGUE))).toBe("That song is already in your mixtape.");
    expect(deck.songs).toEqual(["1", "2", "3"]);
  });

  it("accepts the 10th track", () => {
    const deck = okDeck(addTrack(deckWith(9), "10", SEEDED_CATALOGUE));
    expect(deck.songs).toHaveLength(10);
    expect(deck.songs[9]).toBe("10");
  });

  it("rejects an 11th track with the exact message", () => {
    const deck = deckWith(10);
    expect(errorOf(addTrack(deck, "11", SEEDED_CATALOGUE))).toBe("Your mixtape is full: 10 tracks at most.");
    expect(deck.songs).toHaveLength(10);
  });

  it("a duplicate on a full deck reports the duplicate", () => {
    expect(errorOf(addTrack(deckWith(10), "5", SEEDED_CATALOGUE))).toBe("That song is already in your mixtape.");
  });

  it("an unknown song on a full deck reports the unknown song", () => {
    expect(errorOf(addTrack(deckWith(10), "99", SEEDED_CATALOGUE))).toBe("That song is not in the catalogue.");
  });

  it("every catalogue song id 1..30 can be added to an empty deck", () => {
    for (let i = 1; i <= 30; i++) expect(addTrack(makeDeck(), String(i), SEEDED_CATALOGUE).ok).toBe(true);
  });
});

describe("addBlock", () => {
  it("null when the song can be added", () => {
    expect(addBlock({ songs: [] }, "1")).toBeNull();
    expect(addBlock({ songs: ["1", "2"] }, "3")).toBeNull();
    expect(addBlock({ songs: deckWith(9).songs }, "10")).toBeNull();
  });
  it('"duplicate" when already present', () => {
    expect(addBlock({ songs: ["1", "2"] }, "2")).toBe("duplicate");
  });
  it('"full" at 10 tracks', () => {
    expect(addBlock({ songs: deckWith(10).songs }, "11")).toBe("full");
  });
  it('"duplicate" wins over "full" for a song already on a full deck', () => {
    expect(addBlock({ songs: deckWith(10).songs }, "1")).toBe("duplicate");
  });
});

describe("removeTrack", () => {
  it("removes by id and keeps the order of the rest", () => {
    const deck = okDeck(removeTrack(makeDeck({ songs: ["4", "8", "15", "16"] }), "8"));
    expect(deck.songs).toEqual(["4", "15", "16"]);
  });
  it("removes the first and the last", () => {
    expect(okDeck(removeTrack(deckWith(3), "1")).songs).toEqual(["2", "3"]);
    expect(okDeck(removeTrack(deckWith(3), "3")).songs).toEqual(["1", "2"]);
  });
  it("removing the only track leaves an empty deck", () => {
    expect(okDeck(removeTrack(deckWith(1), "1")).songs).toEqual([]);
  });
  it("rejects a song that is not in the deck, deck unchanged", () => {
    const deck = deckWith(3);
    expect(errorOf(removeTrack(deck, "9"))).toBe("That song is not in your mixtape.");
    expect(errorOf(removeTrack(makeDeck(), "1"))).toBe("That song is not in your mixtape.");
    expect(deck.songs).toEqual(["1", "2", "3"]);
  });
  it("does not mutate the input", () => {
    const deck = deckWith(3);
    okDeck(removeTrack(deck, "2"));
    expect(deck.songs).toEqual(["1", "2", "3"]);
  });
  it("a removed song can be added again", () => {
    const deck = okDeck(removeTrack(deckWith(10), "4"));
    expect(okDeck(addTrack(deck, "4", SEEDED_CATALOGUE)).songs).toEqual(["1", "2", "3", "5", "6", "7", "8", "9", "10", "4"]);
  });
});

describe("moveTrack", () => {
  const deck = () => makeDeck({ songs: ["11", "12", "13", "14"] });

  it("moves up by one (Move Up)", () => {
    expect(okDeck(moveTrack(deck(), "13", 1)).songs).toEqual(["11", "13", "12", "14"]);
  });
  it("moves down by one (Move Down)", () => {
    expect(okDeck(moveTrack(deck(), "12", 2)).songs).toEqual(["11", "13", "12", "14"]);
  });
  it("moves to the first and to the last slot", () => {
    expect(okDeck(moveTrack(deck(), "14", 0)).songs).toEqual(["14", "11", "12", "13"]);
    expect(okDeck(moveTrack(deck(), "11", 3)).songs).toEqual(["12", "13", "14", "11"]);
  });
  it("moving to the same index is accepted and changes nothing", () => {
    const d = deck();
    const r = okDeck(moveTrack(d, "12", 1));
    expect(r.songs).toEqual(["11", "12", "13", "14"]);
    expect(r).toEqual(d);
  });
  it("keeps the same set of songs", () => {
    const r = okDeck(moveTrack(deckWith(10), "3", 8));
    expect([...r.songs].sort()).toEqual([...deckWith(10).songs].sort());
    expect(r.songs).toHaveLength(10);
  });
  it.each([-1, -5, 4, 5, 100, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    "rejects out-of-range or non-integer target %s, deck unchanged",
    (to) => {
      const d = deck();
      const before = snapshot(d);
      expect(errorOf(moveTrack(d, "12", to))).toBe("That track cannot move there.");
      expect(d).toEqual(before);
    },
  );
  it("Move Up on the first slot (-1) and Move Down on the last (length) are rejected", () => {
    expect(errorOf(moveTrack(deck(), "11", -1))).toBe("That track cannot move there.");
    expect(errorOf(moveTrack(deck(), "14", 4))).toBe("That track cannot move there.");
  });
  it("rejects a song that is not in the deck", () => {
    expect(errorOf(moveTrack(deck(), "1", 0))).toBe("That song is not in your mixtape.");
    expect(errorOf(moveTrack(makeDeck(), "1", 0))).toBe("That song is not in your mixtape.");
  });
  it("does not mutate the input", () => {
    const d = deck();
    okDeck(moveTrack(d, "11", 3));
    expect(d.songs).toEqual(["11", "12", "13", "14"]);
  });
});

describe("a retired song (the mixer took it off sale)", () => {
  const retired = (...ids: string[]) => ({
    ...SEEDED_CATALOGUE,
    songs: SEEDED_CATALOGUE.songs.map((s) => (ids.includes(s.id) ? { ...s, active: false } : s)),
  });
  it("cannot be added, with a message that names it", () => {
    expect(errorOf(addTrack(makeDeck(), "4", retired("4")))).toBe('"Signal Jammer" is retired: it is no longer in the library.');
  });
  it("stays in a deck that holds it, which still moves and removes it", () => {
    const deck = deckWith(3);
    const catalogue = retired("2");
    expect(okDeck(moveTrack(deck, "2", 0)).songs).toEqual(["2", "1", "3"]);
    expect(okDeck(removeTrack(deck, "2")).songs).toEqual(["1", "3"]);
    // A replayed Add of the song the deck holds: refused as a duplicate, nothing changes.
    expect(errorOf(addTrack(deck, "2", catalogue))).toBe("That song is already in your mixtape.");
    // Removed, it cannot come back.
    expect(errorOf(addTrack(okDeck(removeTrack(deck, "2")), "2", catalogue))).toMatch(/is retired/);
  });
  it("leaves the other songs as they were: 10 at most, no duplicates", () => {
    const catalogue = retired("30");
    expect(errorOf(addTrack(deckWith(10), "11", catalogue))).toBe("Your mixtape is full: 10 tracks at most.");
    expect(okDeck(addTrack(deckWith(9), "10", catalogue)).songs).toHaveLength(10);
  });
  it("a song added to the catalogue (id 31) can be added", () => {
    const added = {
      ...SEEDED_CATALOGUE,
      songs: [...SEEDED_CATALOGUE.songs, { ...SEEDED_CATALOGUE.songs[0], id: "31", title: "New" }],
    };
    expect(okDeck(addTrack(makeDeck(), "31", added)).songs).toEqual(["31"]);
    expect(errorOf(addTrack(makeDeck(), "31", SEEDED_CATALOGUE))).toBe("That song is not in the catalogue.");
  });
});
