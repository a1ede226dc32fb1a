import { describe, expect, it } from "vitest";
import { randomInt } from "node:crypto";
import { ORDER_CODE_ALPHABET, ORDER_CODE_LENGTH, ORDER_CODE_RE, generateOrderCode, isOrderCode } from "~/domain/order-code";
import { highest, lowest, scripted } from "./helpers";

describe("order code constants (spec section 9)", () => {
  it("8 characters from A-Z and 0-9", () => {
    expect(ORDER_CODE_LENGTH).toBe(8);
    expect(ORDER_CODE_ALPHABET).toBe("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
    expect(ORDER_CODE_ALPHABET).toHaveLength(36);
    expect(new Set(ORDER_CODE_ALPHABET).size).toBe(36);
  });
});

describe("generateOrderCode", () => {
  it("lowest index everywhere gives AAAAAAAA", () => {
    expect(generateOrderCode(lowest)).toBe("AAAAAAAA");
  });
  it("highest index everywhere gives 99999999", () => {
    expect(generateOrderCode(highest)).toBe("99999999");
  });
  it("maps scripted indices 0 and 35 to A and 9, in order", () => {
    const rnd = scripted([0, 35, 25, 26, 0, 35, 1, 34]);
    expect(generateOrderCode(rnd)).toBe("A9Z0A9B8");
    expect(rnd.calls).toEqual(new Array(8).fill(36));
  });
  it("asks for exactly 8 values, each over the whole alphabet", () => {
    const rnd = scripted([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(generateOrderCode(rnd)).toBe("BCDEFGHI");
    expect(rnd.calls).toHaveLength(8);
  });
  it("every alphabet index maps to its character", () => {
    for (let i = 0; i < 36; i++) {
      expect(generateOrderCode(() => i)).toBe(ORDER_CODE_ALPHABET[i]!.repeat(8));
    }
  });
  it("codes from a real random source always match the format", () => {
    for (let i = 0; i < 200; i++) {
      const code = generateOrderCode((max) => randomInt(max));
      expect(code).toHaveLength(8);
      expect(code).toMatch(/^[A-Z0-9]{8}$/);
      expect(isOrderCode(code)).toBe(true);
    }
  });
});

describe("ORDER_CODE_RE / isOrderCode", () => {
  it.each(["AAAAAAAA", "99999999", "AB12CD34", "Z0Z0Z0Z0"])("accepts %j", (code) => {
    expect(ORDER_CODE_RE.test(code)).toBe(true);
    expect(isOrderCode(code)).toBe(true);
  });
  it.each([
    "ab12cd34",
    "AB12cD34",
    "AB12CD3",
    "AB12CD345",
    "",
    "AB12-D34",
    "AB12CD3!",
    "AB12 CD3",
    " AB12CD34",
    "AB12CD34\n",
    "ÄB12CD34",
    "AB12CD3４",
  ])("rejects %j", (code) => {
    expect(ORDER_CODE_RE.test(code)).toBe(false);
    expect(isOrderCode(code)).toBe(false);
  });
  it.each([12345678, null, undefined, {}, ["AB12CD34"], true])("isOrderCode rejects non-string %j", (v) => {
    expect(isOrderCode(v)).toBe(false);
  });
});
