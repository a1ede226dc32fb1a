// Shared helpers for the unit tests (not a test file itself).
import type { RandomInt } from "~/domain/random";
import type { Deck, DeckResult } from "~/domain/deck";

export const UID = "3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b";
export const OTHER_UID = "7d9e1f3a-5b6c-4d8e-9f0a-2b4c6d8e0f1a";

/** A RandomInt that returns the scripted values in order and checks each is in range. */
export function scripted(values: number[]): RandomInt & { calls: number[] } {
  const queue = [...values];
  const calls: number[] = [];
  const fn = ((max: number) => {
    calls.push(max);
    if (queue.length === 0) throw new Error("scripted RandomInt ran out of values");
    const v = queue.shift()!;
    if (!Number.isInteger(v) || v < 0 || v >= max) throw new Error(`scripted value ${v} out of range for max ${max}`);
    return v;
  }) as RandomInt & { calls: number[] };
  fn.calls = calls;
  return fn;
}

/** Always the lowest value. */
export const lowest: RandomInt = () => 0;
/** Always the highest value. */
export const highest: RandomInt = (max) => max - 1;

export function makeDeck(overrides: Partial<Deck> = {}): Deck {
  return {
    uid: UID,
    songs: [],
    design: null,
    toggles: { Aikavoice: false, djIntro: false, retronoise: false },
    note: "",
    code: null,
    codename: "NEON CIPHER",
    coverNo: 512,
    coverBg: 1,
    ...overrides,
  };
}

/** A deck holding songs "1".."n". */
export const deckWith = (n: number, overrides: Partial<Deck> = {}): Deck =>
  makeDeck({ songs: Array.from({ length: n }, (_, i) => String(i + 1)), ...overrides });

export function form(entries: Record<string, string | Blob> | [string, string | Blob][]): FormData {
  const fd = new FormData();
  const list = Array.isArray(entries) ? entries : Object.entries(entries);
  for (const [k, v] of list) fd.append(k, v);
  return fd;
}

/** The deck of an ok DeckResult (a test fails on an error). */
export function okDeck(r: DeckResult): Deck {
  if (!r.ok) throw new Error(`expected ok, got error: ${r.error}`);
  return r.deck;
}
/** The error of a DeckResult (a test fails on ok). */
export function errorOf(r: DeckResult): string {
  if (r.ok) throw new Error("expected an error, got ok");
  return r.error;
}
export const snapshot = (d: Deck) => JSON.parse(JSON.stringify(d)) as Deck;
