/** Code points, as PostgreSQL's char_length counts: an emoji is one, where String.length says two. */
export const textLength = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** HTML counts UTF-16 units, two at most per code point. */
export const maxLengthAttribute = (max: number) => max * 2;

export function hasControlCharacter(text: string, allow: { newlines?: boolean } = {}): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (allow.newlines && (code === 0x0a || code === 0x09)) continue;
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function withoutControlCharacters(text: string, allow: { newlines?: boolean } = {}): string {
  if (!hasControlCharacter(text, allow)) return text;
  return [...text].filter((c) => !hasControlCharacter(c, allow)).join("");
}
