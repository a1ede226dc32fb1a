import { describe, expect, it } from "vitest";
import { displayName } from "~/domain/display-name";

const ready = (username: string | null | undefined, email: string | null | undefined) =>
  displayName({ state: "ready", username, email });

describe("displayName (spec section 9)", () => {
  it('"..." while loading', () => {
    expect(displayName({ state: "loading" })).toBe("...");
  });
  it('"(profile error)" when the profile could not be read', () => {
    expect(displayName({ state: "error" })).toBe("(profile error)");
  });
  it("a non-blank username wins over the email", () => {
    expect(ready("night_rider", "someone@example.com")).toBe("night_rider");
    expect(ready("x", null)).toBe("x");
  });
  it("a username with surrounding spaces is shown trimmed", () => {
    expect(ready("  night_rider  ", "someone@example.com")).toBe("night_rider");
  });
  it.each([null, undefined, "", " ", "   ", "\t\n"])("blank username %j falls back to the email local part", (username) => {
    expect(ready(username, "someone@example.com")).toBe("someone");
  });
  it("the local part is everything before the first @", () => {
    expect(ready(null, "first.last+tag@example.com")).toBe("first.last+tag");
  });
  it("an email without an @ is shown whole", () => {
    expect(ready(null, "someone")).toBe("someone");
  });
  it.each([null, undefined, "", "@example.com", "   @example.com"])(
    'no usable email (%j) and no username -> "(unknown user)"',
    (email) => {
      expect(ready(null, email)).toBe("(unknown user)");
      expect(ready("  ", email)).toBe("(unknown user)");
    },
  );
});
