import type { RandomInt } from "./random";

/** A–Z and 0–9 without the look-alikes O, I and L (0, 1 and 1 stay). Codes stored before still match ORDER_CODE_RE. */
export const ORDER_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ0123456789";
export const ORDER_CODE_LENGTH = 8;
export const ORDER_CODE_RE = /^[A-Z0-9]{8}$/;

export function generateOrderCode(randomInt: RandomInt): string {
  let code = "";
  for (let i = 0; i < ORDER_CODE_LENGTH; i++) {
    code += ORDER_CODE_ALPHABET[randomInt(ORDER_CODE_ALPHABET.length)];
  }
  return code;
}

export const isOrderCode = (value: unknown): value is string => typeof value === "string" && ORDER_CODE_RE.test(value);

/**
 * A typed code (or its start) as the console searches it: any case, and the look-alikes folded as the
 * alphabet has them (O as 0; I and L as 1), since codes are made without O, I and L. Null when it is not
 * 1 to 8 of A–Z and 0–9. The database folds the stored codes alike (public.order_code_key), so a code
 * stored before the alphabet, with an O in it, is still found.
 */
export function codeSearchKey(typed: string): string | null {
  const key = typed.trim().toUpperCase().replace(/O/g, "0").replace(/[IL]/g, "1");
  return /^[A-Z0-9]{1,8}$/.test(key) ? key : null;
}
