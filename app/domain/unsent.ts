// Apart from domain/conversation.ts: the root route reads it on every page, the message rules only the order pages need.

/** A message the server did not take: reloading the page now would fail too. */
export const isUnsent = (result: unknown) =>
  !!result && typeof result === "object" && (result as { unsent?: unknown }).unsent === true;
