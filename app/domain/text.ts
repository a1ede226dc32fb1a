// Rules about typed text that more than one input shares.

/**
 * The length of a text as a person counts it, and as PostgreSQL's char_length does: in
 * code points (an emoji is one, where String.length says two). Every text limit uses it.
 */
export const textLength = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** The maxlength attribute for a limit in code points: HTML counts UTF-16 units, two at most per code point. */
export const maxLengthAttribute = (max: number) => max * 2;

/** True when the text holds a control character (C0 or DEL); newline and tab only where allowed. */
export function hasControlCharacter(text: string, allow: { newlines?: boolean } = {}): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (allow.newlines && (code === 0x0a || code === 0x09)) continue;
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** A wait, rounded for people: "a few seconds", "about a minute", "about 50 minutes", "about 2 hours". */
export function humanWait(seconds: number): string {
  if (seconds < 45) return "a few seconds";
  const minutes = Math.round(seconds / 60);
  if (minutes <= 1) return "about a minute";
  if (minutes < 90) return `about ${minutes} minutes`;
  return `about ${Math.round(minutes / 60)} hours`;
}

/** The text with its control characters removed (newline and tab kept where allowed). */
export function withoutControlCharacters(text: string, allow: { newlines?: boolean } = {}): string {
  if (!hasControlCharacter(text, allow)) return text;
  return [...text].filter((c) => !hasControlCharacter(c, allow)).join("");
}

const PLACED = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** When an order was placed, as both the server and the browser write it: "Nov 23, 2026, 2:34 AM UTC". */
export const formatPlaced = (iso: string) => `${PLACED.format(new Date(iso)).replace(/\u202f/g, " ")} UTC`;
