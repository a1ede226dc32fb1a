import { describe, expect, it } from "vitest";
import { CODENAME_RE, generateCodename, generateCoverNumber } from "~/domain/codename";
import { highest, lowest } from "./helpers";

describe("generateCodename", () => {
  it("every adjective/noun combination matches CODENAME_RE", () => {
    const seen = new Set<string>();
    for (let a = 0; a < 16; a++) {
      for (let n = 0; n < 16; n++) {
        const script = [a, n];
        const name = generateCodename((max) => Math.min(script.shift()!, max - 1));
        expect(name).toMatch(CODENAME_RE);
        seen.add(name);
      }
    }
    expect(seen.size).toBe(256);
  });
  it("is deterministic for a given random source", () => {
    expect(generateCodename(lowest)).toBe(generateCodename(lowest));
    expect(generateCodename(highest)).toMatch(/^[A-Z]+ [A-Z]+$/);
  });
  it("CODENAME_RE rejects lowercase, one word and extra spaces", () => {
    for (const bad of ["neon cipher", "NEON", "NEON  CIPHER", " NEON CIPHER", "NEON CIPHER ", "NEON-CIPHER", "N C"]) {
      expect(CODENAME_RE.test(bad)).toBe(false);
    }
  });
});

describe("generateCoverNumber (spec: random 100 to 999)", () => {
  it("lowest is 100 and highest is 999", () => {
    expect(generateCoverNumber(lowest)).toBe(100);
    expect(generateCoverNumber(highest)).toBe(999);
  });
  it("asks for one of 900 values", () => {
    const calls: number[] = [];
    generateCoverNumber((max) => {
      calls.push(max);
      return 0;
    });
    expect(calls).toEqual([900]);
  });
});
