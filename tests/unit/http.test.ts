import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/server/platform/http.server";
import { parseReviewIntent } from "~/domain/intents";
import { loginSchema } from "~/domain/schemas";

describe("safeRedirectPath: only same-origin paths", () => {
  it.each(["/", "/my-mixtapes", "/review?x=1#deck"])("keeps %s", (to) => expect(safeRedirectPath(to)).toBe(to));
  it.each([
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "javascript:alert(1)",
    "",
    null,
    42,
  ])("refuses %j", (to) => expect(safeRedirectPath(to, "/home")).toBe("/home"));
});

describe("over-long fields get their own message", () => {
  it("a 10 KB email or password", () => {
    const r = loginSchema.safeParse({ mode: "login", email: "a".repeat(10_000), password: "x" });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe("That entry is too long.");
    const p = loginSchema.safeParse({ mode: "login", email: "a@b.c", password: "x".repeat(2000) });
    expect(p.error!.issues[0].message).toBe("That entry is too long.");
  });
  it("a 10 KB order code", () => {
    const r = parseReviewIntent(new URLSearchParams({ intent: "transmit", code: "A".repeat(10_000) }));
    expect(r).toEqual({ ok: false, error: "The order code must be 8 characters from A–Z and 0–9." });
  });
});
