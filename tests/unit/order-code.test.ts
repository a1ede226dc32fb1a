import { describe, expect, it } from "vitest";
import { randomInt } from "node:crypto";
import {
  ORDER_CODE_ALPHABET,
  ORDER_CODE_LENGTH,
  ORDER_CODE_RE,
  codeSearchKey,
  generateOrderCode,
  isOrderCode,
} from "~/domain/order-code";
import { highest, lowest, scripted } from "./helpers";

describe("order code constants (spec section 9)", () => {
  it("8 characters from A-Z and 0-9, without the look-alikes O, I and L", () => {
    expect(ORDER_CODE_LENGTH).toBe(8);
    expect(ORDER_CODE_ALPHABET).toBe("ABCDEFGHJKMNPQRSTUVWXYZ0123456789");
    expect(ORDER_CODE_ALPHABET).toHaveLength(33);
    expect(new Set(ORDER_CODE_ALPHABET).size).toBe(33);
    expect(ORDER_CODE_ALPHABET).toMatch(/^[A-Z0-9]+$/);
    expect(ORDER_CODE_ALPHABET).not.toMatch(/[OIL]/);
  });
});

describe("generateOrderCode", () => {
  it("lowest index everywhere gives AAAAAAAA", () => {
    expect(generateOrderCode(lowest)).toBe("AAAAAAAA");
  });
  it("highest index everywhere gives 99999999", () => {
    expect(generateOrderCode(highest)).toBe("99999999");
  });
  it("maps scripted indices 0 and 32 to A and 9, in order", () => {
    const rnd = scripted([0, 32, 22, 23, 0, 32, 1, 31]);
    expect(generateOrderCode(rnd)).toBe("A9Z0A9B8");
    expect(rnd.calls).toEqual(new Array(8).fill(33));
  });
  it("asks for exactly 8 values, each over the whole alphabet", () => {
    const rnd = scripted([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(generateOrderCode(rnd)).toBe("BCDEFGHJ");
    expect(rnd.calls).toHaveLength(8);
  });
  it("every alphabet index maps to its character", () => {
    for (let i = 0; i < 33; i++) {
      expect(generateOrderCode(() => i)).toBe(ORDER_CODE_ALPHABET[i]!.repeat(8));
    }
  });
  it("codes from a real random source always match the format", () => {
    for (let i = 0; i < 200; i++) {
      const code = generateOrderCode((max) => randomInt(max));
      expect(code).toHaveLength(8);
      expect(code).toMatch(/^[A-HJKMNP-Z0-9]{8}$/);
      expect(isOrderCode(code)).toBe(true);
    }
  });
});

describe("ORDER_CODE_RE / isOrderCode", () => {
  // Codes made before the look-alikes were dropped may hold O, I and L: they stay valid (and the database's check is unchanged).
  it.each(["AAAAAAAA", "99999999", "AB12CD34", "Z0Z0Z0Z0", "QO608CYE", "ILO00000"])("accepts %j", (code) => {
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

describe("codeSearchKey: a typed code as the console searches it", () => {
  // Codes are made without O, I and L: typed, they can only mean 0, 1 and 1.
  it.each([
    ["ab12cd34", "AB12CD34"],
    [" ab12 ", "AB12"],
    ["QO6O8", "Q0608"],
    ["oO0", "000"],
    ["iIlL1", "11111"],
    ["b0", "B0"],
    ["9", "9"],
  ])("%j is searched as %j", (typed, key) => {
    expect(codeSearchKey(typed)).toBe(key);
  });
  it("leaves every letter of the alphabet as it is", () => {
    expect(codeSearchKey(ORDER_CODE_ALPHABET.slice(0, 8))).toBe(ORDER_CODE_ALPHABET.slice(0, 8));
    for (const c of ORDER_CODE_ALPHABET) expect(codeSearchKey(c)).toBe(c);
  });
  it.each(["", "   ", "AB-12", "ABCDEFGHJ", "ÄB", "AB 12", "AB%", "AB_"])("refuses %j", (typed) => {
    expect(codeSearchKey(typed)).toBeNull();
  });
});
