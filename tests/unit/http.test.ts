import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/server/platform/http.server";
import { hostAllowed, redactSecrets, requestPath } from "../../server/app";
import { parseReviewIntent } from "~/domain/order-intents";
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

describe("the HTTP layer's reading of a request", () => {
  it("cuts an absolute-form target to its path, and refuses what is no target", () => {
    expect(requestPath("/auth/forgot?x=1")).toBe("/auth/forgot?x=1");
    expect(requestPath("//attacker.example/auth/forgot")).toBe("//attacker.example/auth/forgot");
    expect(requestPath("http://attacker.example/auth/forgot?a=b")).toBe("/auth/forgot?a=b");
    expect(requestPath("*")).toBeNull();
    expect(requestPath("attacker.example:443")).toBeNull();
  });
  it("ALLOWED_HOSTS: a listed host (with or without its port) only; an empty list allows any", () => {
    expect(hostAllowed("http://shop.example:3000", ["shop.example"])).toBe(true);
    expect(hostAllowed("http://shop.example:3000", ["shop.example:3000"])).toBe(true);
    expect(hostAllowed("http://attacker.example", ["shop.example"])).toBe(false);
    expect(hostAllowed("http://attacker.example", [])).toBe(true);
  });
  it("writes no token value to the log", () => {
    expect(redactSecrets("/auth/reset?token_hash=abc&type=recovery")).toBe("/auth/reset?token_hash=[redacted]&type=recovery");
    expect(redactSecrets("/auth/confirm?type=email&code=xyz")).toBe("/auth/confirm?type=email&code=[redacted]");
    expect(redactSecrets("/mixer?q=ABC")).toBe("/mixer?q=ABC");
  });
});
