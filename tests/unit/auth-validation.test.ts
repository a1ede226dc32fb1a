import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseReviewIntent } from "~/domain/order-intents";
import {
  EMAIL_RE,
  PASSWORD_MIN,
  authSchema,
  changePasswordSchema,
  forgotSchema,
  loginSchema,
  resendSchema,
  resetPasswordSchema,
  signupSchema,
} from "~/domain/schemas";
import { form } from "./helpers";

const ALL_REQUIRED = "All fields are required.";
const INVALID_EMAIL = "Please provide a valid email address.";
const TOO_SHORT = "Password must be at least 8 characters.";

/** Field errors from conform, as submitted by the browser form. */
function conformErrors(fields: Record<string, string>): Record<string, string[] | null> | null {
  const submission = parseWithZod(form(fields), { schema: authSchema });
  if (submission.status === "success") return null;
  return (submission.error ?? {}) as Record<string, string[] | null>;
}
function conformValue(fields: Record<string, string>) {
  const submission = parseWithZod(form(fields), { schema: authSchema });
  if (submission.status !== "success") throw new Error(`expected success: ${JSON.stringify(submission.error)}`);
  return submission.value;
}
/** Messages per path from plain zod. */
function zodErrors(
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
) {
  const r = schema.safeParse(value);
  if (r.success) return null;
  const out: Record<string, string[]> = {};
  for (const issue of r.error!.issues) (out[issue.path.join(".")] ??= []).push(issue.message);
  return out;
}

const goodSignup = { mode: "signup", username: "night_rider", email: "rebel@example.com", password: "correct horse" };
const goodLogin = { mode: "login", email: "rebel@example.com", password: "x" };

describe("constants", () => {
  it("password minimum is 8", () => expect(PASSWORD_MIN).toBe(8));
});

describe("login (conform)", () => {
  it("accepts an email and any non-empty password", () => {
    expect(conformValue(goodLogin)).toEqual(goodLogin);
  });
  it("does not validate the email format: a username is allowed", () => {
    expect(conformValue({ mode: "login", email: "night_rider", password: "pw" })).toMatchObject({ email: "night_rider" });
    expect(conformValue({ mode: "login", email: "a@b", password: "pw" })).toMatchObject({ email: "a@b" });
  });
  it("does not enforce the 8-character minimum on login", () => {
    expect(conformValue({ mode: "login", email: "a@b.c", password: "1" })).toMatchObject({ password: "1" });
  });
  it("trims the identifier", () => {
    expect(conformValue({ mode: "login", email: "  rebel@example.com  ", password: "pw" })).toMatchObject({
      email: "rebel@example.com",
    });
  });
  it("an empty password -> All fields are required.", () => {
    expect(conformErrors({ mode: "login", email: "a@b.c", password: "" })).toEqual({ password: [ALL_REQUIRED] });
  });
  it("a missing password -> All fields are required.", () => {
    expect(conformErrors({ mode: "login", email: "a@b.c" })).toEqual({ password: [ALL_REQUIRED] });
  });
  it("an empty or blank identifier -> All fields are required.", () => {
    expect(conformErrors({ mode: "login", email: "", password: "pw" })).toEqual({ email: [ALL_REQUIRED] });
    expect(conformErrors({ mode: "login", email: "   ", password: "pw" })).toEqual({ email: [ALL_REQUIRED] });
    expect(conformErrors({ mode: "login", password: "pw" })).toEqual({ email: [ALL_REQUIRED] });
  });
  it("everything empty -> All fields are required. on each field", () => {
    expect(conformErrors({ mode: "login", email: "", password: "" })).toEqual({
      email: [ALL_REQUIRED],
      password: [ALL_REQUIRED],
    });
  });
  it("an unknown mode is rejected", () => {
    expect(conformErrors({ mode: "admin", email: "a@b.c", password: "pw" })).not.toBeNull();
    expect(conformErrors({ email: "a@b.c", password: "pw" })).not.toBeNull();
  });
  it("an oversized identifier or password is rejected", () => {
    expect(conformErrors({ mode: "login", email: `${"a".repeat(400)}@b.c`, password: "pw" })).toHaveProperty("email");
    expect(conformErrors({ mode: "login", email: "a@b.c", password: "p".repeat(2000) })).toHaveProperty("password");
  });
});

describe("sign-up (conform)", () => {
  it("accepts a complete, valid form", () => {
    expect(conformValue(goodSignup)).toEqual(goodSignup);
  });
  it.each(["username", "email", "password"])("an empty %s -> All fields are required.", (key) => {
    expect(conformErrors({ ...goodSignup, [key]: "" })).toEqual({ [key]: [ALL_REQUIRED] });
  });
  it.each(["username", "email", "password"])("a missing %s -> All fields are required.", (key) => {
    const fields: Record<string, string> = { ...goodSignup };
    delete fields[key];
    expect(conformErrors(fields)).toEqual({ [key]: [ALL_REQUIRED] });
  });
  it("all three empty -> All fields are required. on each", () => {
    expect(conformErrors({ mode: "signup", username: "", email: "", password: "" })).toEqual({
      username: [ALL_REQUIRED],
      email: [ALL_REQUIRED],
      password: [ALL_REQUIRED],
    });
  });
  it.each(["a@b.c", "rebel@example.com", "first.last+tag@sub.example.co.uk", "ü@ñ.io"])("email %j is valid", (email) => {
    expect(conformValue({ ...goodSignup, email })).toMatchObject({ email });
  });
  it.each(["a@b", "a b@c.d", "@b.c", "a@.c", "a@b.", "ab.c", "a@b c.d", "a@@b.c", "a@b@c.d", "plainaddress"])(
    "email %j -> Please provide a valid email address.",
    (email) => {
      expect(conformErrors({ ...goodSignup, email })).toEqual({ email: [INVALID_EMAIL] });
    },
  );
  it("surrounding spaces are trimmed before the email check", () => {
    expect(conformValue({ ...goodSignup, email: "  a@b.c  " })).toMatchObject({ email: "a@b.c" });
  });
  it.each(["1234567", "a", "       "])("password %j (< 8 chars) -> Password must be at least 8 characters.", (password) => {
    expect(conformErrors({ ...goodSignup, password })).toEqual({ password: [TOO_SHORT] });
  });
  it("a password of exactly 8 characters is accepted", () => {
    expect(conformValue({ ...goodSignup, password: "12345678" })).toMatchObject({ password: "12345678" });
  });
  it("reports every broken field together", () => {
    expect(conformErrors({ mode: "signup", username: "", email: "a@b", password: "short" })).toEqual({
      username: [ALL_REQUIRED],
      email: [INVALID_EMAIL],
      password: [TOO_SHORT],
    });
  });
  it("a username with spaces is rejected with the username format message", () => {
    expect(conformErrors({ ...goodSignup, username: "night rider" })).toEqual({
      username: ["Username must be 2 to 32 letters, digits, dots, dashes or underscores."],
    });
  });
});

describe("plain zod safeParse", () => {
  it("loginSchema: valid input parses", () => {
    expect(loginSchema.safeParse(goodLogin).success).toBe(true);
    expect(loginSchema.safeParse({ mode: "login", email: "someuser", password: "pw" }).success).toBe(true);
  });
  it("loginSchema: missing or empty fields -> All fields are required.", () => {
    expect(zodErrors(loginSchema, { mode: "login" })).toEqual({ email: [ALL_REQUIRED], password: [ALL_REQUIRED] });
    expect(zodErrors(loginSchema, { mode: "login", email: "", password: "" })).toEqual({
      email: [ALL_REQUIRED],
      password: [ALL_REQUIRED],
    });
    expect(zodErrors(loginSchema, { mode: "login", email: null, password: 5 })).toEqual({
      email: [ALL_REQUIRED],
      password: [ALL_REQUIRED],
    });
  });
  it("signupSchema: valid input parses", () => {
    expect(signupSchema.safeParse(goodSignup).success).toBe(true);
  });
  it("signupSchema: missing fields -> All fields are required. (only)", () => {
    expect(zodErrors(signupSchema, { mode: "signup" })).toEqual({
      username: [ALL_REQUIRED],
      email: [ALL_REQUIRED],
      password: [ALL_REQUIRED],
    });
  });
  it("signupSchema: empty strings -> All fields are required. (not the format messages)", () => {
    expect(zodErrors(signupSchema, { mode: "signup", username: "", email: "", password: "" })).toEqual({
      username: [ALL_REQUIRED],
      email: [ALL_REQUIRED],
      password: [ALL_REQUIRED],
    });
  });
  it("signupSchema: email format and password length", () => {
    expect(zodErrors(signupSchema, { ...goodSignup, email: "a@b" })).toEqual({ email: [INVALID_EMAIL] });
    expect(zodErrors(signupSchema, { ...goodSignup, email: "a b@c.d" })).toEqual({ email: [INVALID_EMAIL] });
    expect(zodErrors(signupSchema, { ...goodSignup, email: "@b.c" })).toEqual({ email: [INVALID_EMAIL] });
    expect(zodErrors(signupSchema, { ...goodSignup, email: "a@b.c" })).toBeNull();
    expect(zodErrors(signupSchema, { ...goodSignup, password: "1234567" })).toEqual({ password: [TOO_SHORT] });
  });
  it("authSchema dispatches on mode", () => {
    expect(authSchema.safeParse({ ...goodLogin, email: "not-an-email" }).success).toBe(true);
    expect(authSchema.safeParse({ ...goodSignup, email: "not-an-email" }).success).toBe(false);
    expect(authSchema.safeParse({ ...goodLogin, mode: "other" }).success).toBe(false);
  });
  it("EMAIL_RE: text, an @, a dot, no spaces", () => {
    expect(EMAIL_RE.test("a@b.c")).toBe(true);
    expect(EMAIL_RE.test("a@b")).toBe(false);
    expect(EMAIL_RE.test("a b@c.d")).toBe(false);
    expect(EMAIL_RE.test("@b.c")).toBe(false);
    expect(EMAIL_RE.test("a@b.c\n")).toBe(false);
    expect(EMAIL_RE.test("a@b.c\td")).toBe(false);
  });
});

describe("the recovery forms (conform)", () => {
  const errors = (schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string>) => {
    const submission = parseWithZod(form(fields), { schema });
    return submission.status === "success" ? null : submission.error;
  };
  it("forgot password: one valid email address", () => {
    expect(errors(forgotSchema, { email: " rebel@example.com " })).toBeNull();
    expect(errors(forgotSchema, {})).toEqual({ email: [ALL_REQUIRED] });
    expect(errors(forgotSchema, { email: "rebel" })).toEqual({ email: [INVALID_EMAIL] });
  });
  it("new passwords (reset and change) follow the sign-up length rule; the current one only needs to be there", () => {
    expect(errors(resetPasswordSchema, { password: "12345678" })).toBeNull();
    expect(errors(resetPasswordSchema, { password: "short" })).toEqual({ password: [TOO_SHORT] });
    expect(errors(resetPasswordSchema, {})).toEqual({ password: [ALL_REQUIRED] });
    expect(errors(changePasswordSchema, { currentPassword: "x", newPassword: "12345678" })).toBeNull();
    expect(errors(changePasswordSchema, { currentPassword: "x", newPassword: "short" })).toEqual({ newPassword: [TOO_SHORT] });
    expect(errors(changePasswordSchema, { newPassword: "12345678" })).toEqual({ currentPassword: [ALL_REQUIRED] });
  });
  it("resend: an identifier (email or username)", () => {
    expect(errors(resendSchema, { identifier: "dj_rebel" })).toBeNull();
    expect(errors(resendSchema, { identifier: " " })).toEqual({ identifier: [ALL_REQUIRED] });
  });
});

describe("the transmit form (review intent)", () => {
  const transmit = (fields: Record<string, string>) => parseReviewIntent(new URLSearchParams({ intent: "transmit", ...fields }));
  it("accepts an 8-character A-Z0-9 code", () => {
    expect(transmit({ code: "AB12CD34" })).toEqual({ ok: true, intent: { intent: "transmit", code: "AB12CD34" } });
  });
  it("missing, empty or blank code -> Generate an order code first.", () => {
    for (const fields of [{}, { code: "" }, { code: "   " }] as Record<string, string>[]) {
      expect(transmit(fields)).toEqual({ ok: false, error: "Generate an order code first." });
    }
  });
  it.each(["ab12cd34", "AB12CD3", "AB12CD345", "AB12CD3!"])("bad code %j -> format message", (code) => {
    expect(transmit({ code })).toEqual({ ok: false, error: "The order code must be 8 characters from A–Z and 0–9." });
  });
});

describe("control characters in the auth fields", () => {
  const CONTROL = "That entry contains characters that cannot be used. Please retype it.";
  it.each([
    ["email", { mode: "login", email: "a\u0000@b.co", password: "x" }],
    ["password", { mode: "login", email: "a@b.co", password: "pass\u0000word" }],
  ])("login: a NUL in the %s", (_field, value) => {
    expect(loginSchema.safeParse(value).error?.issues[0].message).toBe(CONTROL);
  });
  it.each([
    ["username", { mode: "signup", username: "dj\u0007x", email: "a@b.co", password: "correct-horse-42" }],
    ["email", { mode: "signup", username: "dj_x", email: "a\u001b@b.co", password: "correct-horse-42" }],
  ])("sign-up: a control character in the %s", (_field, value) => {
    expect(signupSchema.safeParse(value).error?.issues.map((i) => i.message)).toContain(CONTROL);
  });
});
