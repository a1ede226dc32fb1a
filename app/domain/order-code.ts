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
