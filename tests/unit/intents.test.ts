import { describe, expect, it } from "vitest";
import {
  DECK_INTENTS,
  intentAnswer,
  OPTIONS_ANSWER_PLACE,
  parseDeckIntent,
  SAVE_OPTIONS_FIELD,
  type DeckIntent,
  type IntentParse,
} from "~/domain/intents";
import { form } from "./helpers";

const UNKNOWN_INTENT = "Unknown action. Please reload the page and try again.";
const BAD_REQUEST = "That request was not understood. Please reload the page and try again.";
const NOTE_TOO_LONG = "The note is limited to 120 characters.";

function intentOf(r: IntentParse<DeckIntent>): DeckIntent {
  if (!r.ok) throw new Error(`expected ok, got error: ${r.error}`);
  return r.intent;
}
function errorOf(r: IntentParse<DeckIntent>): string {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.intent)}`);
  return r.error;
}

describe("the intents", () => {
  it("are add, remove, move, design, options", () => {
    expect([...DECK_INTENTS]).toEqual(["add", "remove", "move", "design", "options"]);
  });
});

describe("unknown intents", () => {
  it.each(["", "ADD", "Add", "add ", "delete", "transmit", "__proto__", "constructor", "toString"])(
    "intent %j -> unknownIntent",
    (intent) => {
      expect(errorOf(parseDeckIntent(form({ intent, songId: "1" })))).toBe(UNKNOWN_INTENT);
    },
  );
  it("a missing intent -> unknownIntent", () => {
    expect(errorOf(parseDeckIntent(form({ songId: "1" })))).toBe(UNKNOWN_INTENT);
    expect(errorOf(parseDeckIntent(new FormData()))).toBe(UNKNOWN_INTENT);
  });
  it("an intent sent as a file -> unknownIntent", () => {
    expect(errorOf(parseDeckIntent(form({ intent: new Blob(["add"]), songId: "1" })))).toBe(UNKNOWN_INTENT);
  });
});

describe("add / remove", () => {
  it.each(["add", "remove"] as const)("%s parses the song id", (intent) => {
    expect(intentOf(parseDeckIntent(form({ intent, songId: "12" })))).toEqual({ intent, songId: "12" });
  });
  it("works with URLSearchParams too", () => {
    expect(intentOf(parseDeckIntent(new URLSearchParams("intent=add&songId=3")))).toEqual({ intent: "add", songId: "3" });
  });
  it("does not check the catalogue (the deck rules do)", () => {
    expect(intentOf(parseDeckIntent(form({ intent: "add", songId: "999" })))).toEqual({ intent: "add", songId: "999" });
  });
  it.each(["add", "remove"])("%s without a song id -> badRequest", (intent) => {
    expect(errorOf(parseDeckIntent(form({ intent })))).toBe(BAD_REQUEST);
  });
  it("a song id sent as a file -> badRequest", () => {
    expect(errorOf(parseDeckIntent(form({ intent: "add", songId: new Blob(["1"]) })))).toBe(BAD_REQUEST);
  });
  it("a song id of 200 chars is accepted by the parser, 201 is rejected", () => {
    expect(parseDeckIntent(form({ intent: "add", songId: "1".repeat(200) })).ok).toBe(true);
    expect(errorOf(parseDeckIntent(form({ intent: "add", songId: "1".repeat(201) })))).toBe(BAD_REQUEST);
  });
  it("a huge song id -> badRequest", () => {
    expect(errorOf(parseDeckIntent(form({ intent: "remove", songId: "9".repeat(100_000) })))).toBe(BAD_REQUEST);
  });
  it("the first of repeated fields wins", () => {
    const fd = form([
      ["intent", "add"],
      ["songId", "4"],
      ["songId", "5"],
      ["intent", "remove"],
    ]);
    expect(intentOf(parseDeckIntent(fd))).toEqual({ intent: "add", songId: "4" });
  });
  it("extra fields are ignored", () => {
    expect(intentOf(parseDeckIntent(form({ intent: "add", songId: "4", admin: "1", to: "3" })))).toEqual({
      intent: "add",
      songId: "4",
    });
  });
  it("a __proto__ field is ignored, not turned into data", () => {
    const r = intentOf(
      parseDeckIntent(
        form([
          ["__proto__", "x"],
          ["intent", "add"],
          ["songId", "2"],
        ]),
      ),
    );
    expect(r).toEqual({ intent: "add", songId: "2" });
  });
});

describe("move", () => {
  it.each([
    ["0", 0],
    ["3", 3],
    ["9", 9],
    ["-1", -1],
    ["010", 10],
    ["999", 999],
  ])("to=%j parses as %d (range checked by the deck rules)", (to, n) => {
    expect(intentOf(parseDeckIntent(form({ intent: "move", songId: "2", to })))).toEqual({ intent: "move", songId: "2", to: n });
  });
  it.each(["", "abc", "1.5", "1e2", " 1", "1 ", "+1", "0x1", "1000", "-1000", "Infinity", "NaN", "--1"])(
    "non-numeric or oversized to=%j -> badRequest",
    (to) => {
      expect(errorOf(parseDeckIntent(form({ intent: "move", songId: "2", to })))).toBe(BAD_REQUEST);
    },
  );
  it("missing to -> badRequest", () => {
    expect(errorOf(parseDeckIntent(form({ intent: "move", songId: "2" })))).toBe(BAD_REQUEST);
  });
  it("missing songId -> badRequest", () => {
    expect(errorOf(parseDeckIntent(form({ intent: "move", to: "1" })))).toBe(BAD_REQUEST);
  });
  it("oversized songId -> badRequest", () => {
    expect(errorOf(parseDeckIntent(form({ intent: "move", songId: "x".repeat(201), to: "1" })))).toBe(BAD_REQUEST);
  });
});

describe("design", () => {
  it("a design id passes through", () => {
    expect(intentOf(parseDeckIntent(form({ intent: "design", designId: "ice-cold" })))).toEqual({
      intent: "design",
      designId: "ice-cold",
    });
  });
  it('"" and "none" clear the design', () => {
    expect(intentOf(parseDeckIntent(form({ intent: "design", designId: "" })))).toEqual({ intent: "design", designId: null });
    expect(intentOf(parseDeckIntent(form({ intent: "design", designId: "none" })))).toEqual({
      intent: "design",
      designId: null,
    });
  });
  it("missing designId -> badRequest", () => {
    expect(errorOf(parseDeckIntent(form({ intent: "design" })))).toBe(BAD_REQUEST);
  });
  it("oversized designId -> badRequest", () => {
    expect(errorOf(parseDeckIntent(form({ intent: "design", designId: "d".repeat(201) })))).toBe(BAD_REQUEST);
  });
});

describe("options", () => {
  it('checked boxes ("on") are true, absent ones false', () => {
    const r = intentOf(parseDeckIntent(form({ intent: "options", Aikavoice: "on", retronoise: "on", note: "hi" })));
    expect(r).toEqual({ intent: "options", toggles: { Aikavoice: true, djIntro: false, retronoise: true }, note: "hi" });
  });
  it("all absent -> all false, and a missing note is empty", () => {
    expect(intentOf(parseDeckIntent(form({ intent: "options" })))).toEqual({
      intent: "options",
      toggles: { Aikavoice: false, djIntro: false, retronoise: false },
      note: "",
    });
  });
  it('"true" also counts as checked', () => {
    const r = intentOf(parseDeckIntent(form({ intent: "options", djIntro: "true" })));
    expect(r).toMatchObject({ toggles: { Aikavoice: false, djIntro: true, retronoise: false } });
  });
  it.each(["", "off", "false", "1", "yes", "ON", "On"])("checkbox value %j is false", (v) => {
    const r = intentOf(parseDeckIntent(form({ intent: "options", Aikavoice: v, djIntro: v, retronoise: v })));
    expect(r).toMatchObject({ toggles: { Aikavoice: false, djIntro: false, retronoise: false } });
  });
  it("a long checkbox value -> badRequest", () => {
    expect(errorOf(parseDeckIntent(form({ intent: "options", Aikavoice: "on".repeat(100) })))).toBe(BAD_REQUEST);
  });
  it("only the three toggle keys come out", () => {
    const r = intentOf(parseDeckIntent(form({ intent: "options", Aikavoice: "on", free: "on" })));
    if (r.intent !== "options") throw new Error("wrong intent");
    expect(Object.keys(r.toggles).sort()).toEqual(["Aikavoice", "djIntro", "retronoise"]);
  });
  it("a note of exactly 120 characters is accepted", () => {
    const note = "z".repeat(120);
    expect(intentOf(parseDeckIntent(form({ intent: "options", note })))).toMatchObject({ note });
  });
  it("a note of 121 characters -> noteTooLong", () => {
    expect(errorOf(parseDeckIntent(form({ intent: "options", note: "z".repeat(121) })))).toBe(NOTE_TOO_LONG);
  });
  it("a note of 500 characters -> noteTooLong", () => {
    expect(errorOf(parseDeckIntent(form({ intent: "options", note: "z".repeat(500) })))).toBe(NOTE_TOO_LONG);
  });
  it("a huge note is rejected", () => {
    const r = parseDeckIntent(form({ intent: "options", note: "z".repeat(1_000_000) }));
    expect(r.ok).toBe(false);
    expect([NOTE_TOO_LONG, BAD_REQUEST]).toContain(errorOf(r));
  });
  it("CRLF and lone CR are normalised to LF", () => {
    const r = intentOf(parseDeckIntent(form({ intent: "options", note: "a\r\nb\rc\nd" })));
    expect(r).toMatchObject({ note: "a\nb\nc\nd" });
  });
  it("CRLF counts as one character: 60 lines of 'a' + CRLF fits in 120 after normalising", () => {
    // 3 chars per line before normalising (180), 2 after (120).
    const note = "a\r\n".repeat(60);
    expect(note.length).toBe(180);
    const r = intentOf(parseDeckIntent(form({ intent: "options", note })));
    expect(r).toMatchObject({ note: "a\n".repeat(60) });
  });
  it("keeps other whitespace and unicode as typed", () => {
    const note = "  Für Ann – 🎧  ";
    expect(intentOf(parseDeckIntent(form({ intent: "options", note })))).toMatchObject({ note });
  });
});

describe("control characters in the note", () => {
  it.each(["a\u0000b", "bell\u0007", "del\u007f", "esc\u001b[31m", "cr\rinside"])(
    "%j -> the note's control-character message",
    (note) => {
      const r = parseDeckIntent(form({ intent: "options", note: note.replace("\r", "\u000b") }));
      expect(errorOf(r)).toBe("The note contains characters that cannot be stored. Please retype it.");
    },
  );
  it("newlines and tabs are fine", () => {
    expect(intentOf(parseDeckIntent(form({ intent: "options", note: "a\n\tb" })))).toMatchObject({ note: "a\n\tb" });
  });
});

describe("the answer in place", () => {
  const options: DeckIntent = { intent: "options", toggles: { Aikavoice: false, djIntro: true, retronoise: false }, note: "" };
  it("Save options answers 'Options saved'; a tick or a pause in typing 'Saved'; other edits nothing", () => {
    const saved = new FormData();
    saved.set(SAVE_OPTIONS_FIELD, "1");
    expect(intentAnswer(options, saved)).toEqual({ message: "Options saved", place: OPTIONS_ANSWER_PLACE });
    expect(intentAnswer(options, new FormData())).toEqual({ message: "Saved", place: OPTIONS_ANSWER_PLACE });
    expect(intentAnswer({ intent: "add", songId: "1" }, saved)).toBeNull();
  });
});
