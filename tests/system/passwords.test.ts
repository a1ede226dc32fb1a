// Passwords: the policy at sign-up (common passwords from the shipped list, the
// account's own name or email) and equal work at login. Login for an unknown email
// must cost what a wrong password costs, so that timing tells nothing: proven by
// counting the scrypt derivations and their parameters on each path of the embedded
// adapter (on PGlite), never by measuring a duration.
import "../support/env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signupSchema } from "~/domain/schemas";
import { logIn, signUp } from "~/server/services/accounts.server";
import type { BackendRequest } from "~/server/backend/port.server";
import { createSqlBackend } from "~/server/backend/sql/index.server";
import type { Mail } from "~/server/platform/mailer.server";
import {
  COMMON_PASSWORDS,
  dummyPasswordHash,
  isCommonPassword,
  observeScrypt,
  PASSWORD_MESSAGES,
  passwordProblem,
  type ScryptCall,
} from "~/server/backend/passwords.server";
import { bootPglite, type PgliteTemplate } from "../support/pglite";

describe("the common-password list", () => {
  it("ships thousands of real common passwords, all at least 8 characters, lower case", () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThanOrEqual(3000);
    for (const p of COMMON_PASSWORDS) {
      expect(p.length).toBeGreaterThanOrEqual(8);
      expect(p).toBe(p.toLowerCase());
    }
    for (const p of ["password", "12345678", "qwertyuiop", "iloveyou", "password1", "sunshine", "trustno1", "football"]) {
      expect(COMMON_PASSWORDS.has(p), p).toBe(true);
    }
  });

  it("matches case-insensitively and leaves good passwords alone", () => {
    expect(isCommonPassword("PassWord1")).toBe(true);
    expect(isCommonPassword(" password ")).toBe(true);
    expect(isCommonPassword("correct-horse-42")).toBe(false);
    expect(isCommonPassword("Tr0ub4dor&3-mixtape")).toBe(false);
  });

  it("refuses the account's own username, email or email name", () => {
    const account = { username: "night_rider", email: "rebel.one@example.com" };
    expect(passwordProblem("Night_Rider", account)).toBe(PASSWORD_MESSAGES.matchesAccount);
    expect(passwordProblem("rebel.one@example.com", account)).toBe(PASSWORD_MESSAGES.matchesAccount);
    expect(passwordProblem("REBEL.ONE", account)).toBe(PASSWORD_MESSAGES.matchesAccount);
    expect(passwordProblem("qwerty123", account)).toBe(PASSWORD_MESSAGES.tooCommon);
    expect(passwordProblem("night rider tapes 77", account)).toBeNull();
  });

  it("every password the schema accepts and the list refuses is refused by signUp before the backend is asked", async () => {
    const calls: string[] = [];
    const api = new Proxy({} as BackendRequest, {
      get: (_t, key) =>
        key === "headers"
          ? new Headers()
          : (...args: unknown[]) => (calls.push(String(key)), Promise.resolve({ error: null, exists: false, userId: "x", args })),
    });
    for (const password of ["password", "12345678", "Sunshine1", "baseball"]) {
      const input = { mode: "signup" as const, username: "night_rider", email: "rebel@example.com", password };
      if (!signupSchema.safeParse(input).success) continue;
      const outcome = await signUp(api, { ...input, origin: "http://localhost" });
      expect(outcome).toEqual({ ok: false, message: PASSWORD_MESSAGES.tooCommon });
    }
    expect(calls).toEqual([]);
    // A good password goes through to the backend.
    const ok = await signUp(api, {
      username: "night_rider",
      email: "rebel@example.com",
      password: "correct-horse-42",
      origin: "http://localhost",
    });
    expect(ok.ok).toBe(true);
    expect(calls).toEqual(["usernameExists", "signUp"]);
  });
});

describe("login work is the same for an unknown user and a wrong password", () => {
  let template: PgliteTemplate;
  const mails: Mail[] = [];
  const EMAIL = "known.rebel@example.com";
  const UNCONFIRMED = "unconfirmed.rebel@example.com";
  const GOOD = "correct-horse-42";
  let backend: ReturnType<typeof createSqlBackend>;
  const api = () => backend.forRequest(new Request("http://localhost/auth", { method: "POST" }));

  beforeAll(async () => {
    template = await bootPglite();
    backend = createSqlBackend({
      db: await template.clone(),
      mailer: { send: async (m) => void mails.push(m) },
      shopTitle: "Test",
    });
    expect(
      (await api().signUp({ email: EMAIL, password: GOOD, username: "known_rebel", emailRedirectTo: "http://localhost" })).error,
    ).toBeNull();
    const token = new URL(/https?:\/\/\S+/.exec(mails[0].text)![0]).searchParams.get("token_hash")!;
    expect((await api().verifyOtp({ tokenHash: token, type: "signup" })).error).toBeNull();
    await api().signUp({
      email: UNCONFIRMED,
      password: GOOD,
      username: "unconfirmed_rebel",
      emailRedirectTo: "http://localhost",
    });
    await dummyPasswordHash(); // made at start-up; awaited here only to be certain
  }, 120_000);

  afterAll(async () => {
    await template?.close();
  });

  /** Runs fn and returns the scrypt derivations it caused. */
  async function derivations<T>(fn: () => Promise<T>): Promise<{ result: T; calls: ScryptCall[] }> {
    const calls: ScryptCall[] = [];
    const stop = observeScrypt((c) => calls.push(c));
    try {
      return { result: await fn(), calls };
    } finally {
      stop();
    }
  }

  it("runs exactly one identical scrypt derivation on every failing path, and answers alike", async () => {
    const unknown = await derivations(() =>
      api().signInWithPassword({ email: "nobody@example.com", password: "wrong-password-1" }),
    );
    const wrong = await derivations(() => api().signInWithPassword({ email: EMAIL, password: "wrong-password-1" }));
    const wrongCase = await derivations(() =>
      api().signInWithPassword({ email: EMAIL.toUpperCase(), password: "wrong-password-1" }),
    );
    const unconfirmedWrong = await derivations(() =>
      api().signInWithPassword({ email: UNCONFIRMED, password: "wrong-password-1" }),
    );
    const right = await derivations(() => api().signInWithPassword({ email: EMAIL, password: GOOD }));

    const one = [{ purpose: "verify", N: 16384, r: 8, p: 1, keylen: 32, saltBytes: 16 }];
    console.log(
      `scrypt derivations: unknown user ${unknown.calls.length}, wrong password ${wrong.calls.length}, ` +
        `unconfirmed ${unconfirmedWrong.calls.length}, right password ${right.calls.length}`,
    );
    expect(unknown.calls).toEqual(one);
    expect(wrong.calls).toEqual(one);
    expect(wrongCase.calls).toEqual(one);
    expect(unconfirmedWrong.calls).toEqual(one);
    expect(right.calls).toEqual(one);

    expect(unknown.result.error).toEqual(wrong.result.error);
    expect(unconfirmedWrong.result.error).toEqual(wrong.result.error);
    expect(wrong.result.error?.message).toBe("Invalid login credentials");
    expect(right.result.error).toBeNull();
  });

  it("the login flow (accounts.logIn) adds no work of its own on either path", async () => {
    const unknown = await derivations(() => logIn(api(), "nobody@example.com", "wrong-password-1"));
    const wrong = await derivations(() => logIn(api(), EMAIL, "wrong-password-1"));
    expect(unknown.calls.length).toBe(1);
    expect(wrong.calls).toEqual(unknown.calls);
    expect(unknown.result).toEqual(wrong.result);
    // A username login is an email login once its email is looked up: the same work,
    // and the same answers.
    const byNameWrong = await derivations(() => logIn(api(), "known_rebel", "wrong-password-1"));
    const byUnconfirmedName = await derivations(() => logIn(api(), "unconfirmed_rebel", "wrong-password-1"));
    expect(byNameWrong.calls).toEqual(unknown.calls);
    expect(byUnconfirmedName.calls).toEqual(unknown.calls);
    expect(byNameWrong.result).toEqual(wrong.result);
    expect(byUnconfirmedName.result).toEqual(wrong.result);
    const byName = await derivations(() => logIn(api(), "KNOWN_REBEL", GOOD));
    expect(byName.calls).toEqual(unknown.calls);
    expect(byName.result).toEqual({ ok: true });
    // With its right password, an unconfirmed account hears that its email is not confirmed.
    const unconfirmedRight = await derivations(() => logIn(api(), "unconfirmed_rebel", GOOD));
    expect(unconfirmedRight.calls).toEqual(unknown.calls);
    expect(unconfirmedRight.result).toEqual({ ok: false, message: "Email not confirmed", unconfirmed: true });
  });

  it("sign-up hashes once with the same parameters", async () => {
    const { calls } = await derivations(() =>
      api().signUp({
        email: "third.rebel@example.com",
        password: GOOD,
        username: "third_rebel",
        emailRedirectTo: "http://localhost",
      }),
    );
    expect(calls).toEqual([{ purpose: "hash", N: 16384, r: 8, p: 1, keylen: 32, saltBytes: 16 }]);
  });
});
