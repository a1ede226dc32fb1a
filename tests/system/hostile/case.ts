// What a hostile request of tests/system/hostile.test.ts is, and the values its cases share.
export const REFUSED = {
  crossSite: "Cross-site requests are not allowed.",
  tooLarge: "The request is too large.",
  unsupported: "Unsupported form encoding",
};

export type Who = "A" | "B" | "anon";
/** The codes beforeAll makes: A's and B's stored orders, and the one pending on A's deck. */
export type Known = { orderA: string; orderB: string; pendingA: string };
export type Case = {
  name: string;
  as: Who;
  path: string;
  method?: string;
  /** urlencoded body, exactly as written (duplicates and odd keys allowed); a function
   * when it needs a value known only after beforeAll. */
  raw?: string | ((known: Known) => string);
  body?: BodyInit;
  headers?: Record<string, string>;
  status: number;
  /** Text the answer must show (a toast, the form's red box, or the refusal page). */
  message?: string;
  location?: string;
};

export const enc = encodeURIComponent;
export const big = "x".repeat(10 * 1024); // a 10 KB field: under the 16 KB body limit
export const UUID = "0b7c1c53-8d0a-4f34-9d5e-1c2f3a4b5c6d";
