import { describe, expect, it } from "vitest";
import { hasControlCharacter, textLength } from "~/domain/text";
import { formatLocal, formatLocalDate, formatPlaced, formatPlacedDate, humanWait, timeLeftWords } from "~/domain/time";

describe("humanWait: the real wait, rounded for people", () => {
  it.each([
    [1, "a few seconds"],
    [44, "a few seconds"],
    [45, "about a minute"],
    [89, "about a minute"],
    [90, "about 2 minutes"],
    [50 * 60 - 7, "about 50 minutes"],
    [89 * 60, "about 89 minutes"],
    [90 * 60, "about 2 hours"],
    [5 * 3600, "about 5 hours"],
  ])("%i s → %s", (seconds, text) => expect(humanWait(seconds)).toBe(text));
});

describe("timeLeftWords: an upload's time left, honest to the ten seconds", () => {
  it.each([
    [3, "a few seconds"],
    [16, "about 20 seconds"],
    [14, "about 10 seconds"],
    [44, "about 40 seconds"],
    [60, "about a minute"],
    [300, "about 5 minutes"],
  ])("%i s → %s", (seconds, text) => expect(timeLeftWords(seconds)).toBe(text));
});

describe("a date without its time ('Expected by', 'Downloaded')", () => {
  it("the day only, in UTC on the server and in the reader's zone after hydration", () => {
    const iso = "2026-11-28T23:30:00.000Z";
    expect(formatPlacedDate(iso)).toBe("Nov 28, 2026");
    expect(formatLocalDate(iso, "Asia/Tokyo")).toBe("Nov 29, 2026");
  });
});

describe("hasControlCharacter", () => {
  it.each(["plain", "Für Ann – 🎧", ""])("%j has none", (text) => expect(hasControlCharacter(text)).toBe(false));
  it.each(["a\u0000b", "\u0007", "a\u007fb", "a\nb", "a\tb", "\r"])("%j has one", (text) =>
    expect(hasControlCharacter(text)).toBe(true),
  );
  it("newline and tab are allowed where text has lines", () => {
    expect(hasControlCharacter("a\nb\tc", { newlines: true })).toBe(false);
    expect(hasControlCharacter("a\u0000b", { newlines: true })).toBe(true);
    expect(hasControlCharacter("a\rb", { newlines: true })).toBe(true);
  });
});

describe("formatPlaced: one format on the server and in the browser", () => {
  it("writes UTC, labelled", () => {
    expect(formatPlaced("2026-11-23T02:34:56.000Z")).toBe("Nov 23, 2026, 2:34 AM UTC");
    expect(formatPlaced("2026-01-05T14:05:00.000Z")).toBe("Jan 5, 2026, 2:05 PM UTC");
  });
});

describe("formatLocal: after hydration, in the shopper's time zone", () => {
  it("writes the zone's time, with its short name", () => {
    expect(formatLocal("2026-11-23T02:34:56.000Z", "Asia/Tokyo")).toBe("Nov 23, 2026, 11:34 AM GMT+9");
    expect(formatLocal("2026-01-05T14:05:00.000Z", "America/New_York")).toBe("Jan 5, 2026, 9:05 AM EST");
    expect(formatLocal("2026-07-05T14:05:00.000Z", "America/New_York")).toBe("Jul 5, 2026, 10:05 AM EDT");
    expect(formatLocal("2026-11-23T02:34:56.000Z", "UTC")).toBe("Nov 23, 2026, 2:34 AM UTC");
  });
});

describe("textLength: what a person counts, as char_length does", () => {
  it("counts an emoji once, and plain text as String.length does", () => {
    expect(textLength("🎵")).toBe(1);
    expect("🎵".length).toBe(2);
    expect(textLength("🎵".repeat(120))).toBe(120);
    expect(textLength("Play it loud")).toBe(12);
    expect(textLength("")).toBe(0);
  });
});
