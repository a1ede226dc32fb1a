// Account recovery against the production server: forgot password and resend
// confirmation answer an account's address, an unconfirmed one and one without an
// account alike (status, location, toast; with and without JavaScript), and the email
// work comes only after the answer: the request is queued (the same work for any
// address) and the email worker sends it. The proof needs no clock: the server's mail
// server refuses every connection, so work done before answering would change the answer
// for the addresses that have an account; instead every answer is the same and the failed
// sends show only in the log, for exactly the accounts. No duration is measured.
import { describe, expect, it } from "vitest";
import { TOAST_COPY } from "~/domain/copy";
import { AUTH_COPY, FRONT_COPY } from "~/domain/copy-auth";
import { Client, freePort, openDataDir, PASSWORD, sleepMs, suiteServer, type Reply } from "./setup";

const CONFIRMED = { username: "recov_known", email: "recov.known@example.com" };
const UNCONFIRMED = { username: "recov_pending", email: "recov.pending@example.com" };
const UNKNOWN = { username: "recov_nobody", email: "recov.nobody@example.com" };

/** The toast a reply sets, without its random id. */
function toastOf(reply: Reply): unknown {
  const cookie = reply.setCookies.find((c) => c.startsWith("mixtape-toast="));
  if (!cookie) return null;
  const value = decodeURIComponent(cookie.slice("mixtape-toast=".length).split(";")[0]);
  // remix-toast's flash: {"__flash_<key>__": {"toast": {...}}}
  const json = JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8")) as Record<
    string,
    { toast: Record<string, unknown> }
  >;
  const { id, ...toast } = Object.values(json)[0].toast;
  expect(typeof id).toBe("string");
  return toast;
}

/** What a visitor can compare between two answers: everything but the toast's id and the request id. */
const answerOf = (reply: Reply) => ({
  status: reply.status,
  location: reply.location,
  toast: toastOf(reply),
  body: reply.body,
  cookies: reply.setCookies.map((c) => c.split("=")[0]),
});

describe("account recovery answers the same whether an account exists, and works after answering", () => {
  const server = suiteServer("recovery", {
    shoppers: [CONFIRMED],
    async seed(dataDir) {
      const db = await openDataDir(dataDir);
      await db.query(
        `insert into auth.users (email, encrypted_password, raw_user_meta_data)
       select $1, encrypted_password, jsonb_build_object('username', $2::text) from auth.users where email = $3`,
        [UNCONFIRMED.email, UNCONFIRMED.username, CONFIRMED.email],
      );
      await db.close();
    },
    // Nothing listens on this port: every email fails to send.
    env: async () => ({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, LOG_LEVEL: "info" }),
  });

  /** The addresses of the queued email requests of this kind whose first send failed, as the log reports them. */
  const failures = (kind: "recovery" | "signup") =>
    server
      .output()
      .split("\n")
      .filter((line) => line.includes(`"msg":"email request not sent; retrying later"`))
      .map((line) => JSON.parse(line) as { kind: string; to: string; attempts: number })
      .filter((f) => f.kind === kind && f.attempts === 1)
      .map((f) => f.to);

  /** Waits until the log reports `count` failures of this kind (the email worker sends after the answers). */
  async function failuresOf(kind: "recovery" | "signup", count: number) {
    for (let i = 0; i < 300 && failures(kind).length < count; i++) await sleepMs(50);
    return failures(kind);
  }

  it("forgot password: the same answer for a confirmed, an unconfirmed and an unknown address; emails only for accounts", async () => {
    const ask = (email: string, path = "/auth/forgot", headers?: Record<string, string>) =>
      new Client(server.url).request(path, { method: "POST", form: { email }, headers });
    const replies = {
      unknown: await ask(UNKNOWN.email),
      confirmed: await ask(CONFIRMED.email),
      unconfirmed: await ask(UNCONFIRMED.email),
    };
    expect(answerOf(replies.confirmed)).toEqual({
      status: 302,
      location: "/auth/forgot",
      toast: { type: "success", ...TOAST_COPY.resetSent, notice: FRONT_COPY.resetNotice },
      body: "",
      cookies: ["mixtape-toast"],
    });
    expect(answerOf(replies.unconfirmed)).toEqual(answerOf(replies.confirmed));
    expect(answerOf(replies.unknown)).toEqual(answerOf(replies.confirmed));

    // With JavaScript (React Router's data request): the same, too.
    const data = (email: string) => ask(email, "/auth/forgot.data", { accept: "*/*" });
    const withJs = [await data(UNKNOWN.email), await data(CONFIRMED.email)];
    expect(withJs[0].status).toBe(withJs[1].status);
    expect(answerOf(withJs[0])).toEqual(answerOf(withJs[1]));

    // The email worker tried the sends after the answers, for the two accounts only (and failed, unseen).
    const failed = await failuresOf("recovery", 3);
    expect(failed.sort()).toEqual([CONFIRMED.email, CONFIRMED.email, UNCONFIRMED.email].sort());
  });

  it("resend confirmation: the same answer for any email or username; a send only for the unconfirmed account", async () => {
    const resend = (identifier: string) =>
      new Client(server.url).request("/auth", { method: "POST", form: { intent: "resend", identifier } });
    const replies = [
      UNKNOWN.email,
      UNKNOWN.username,
      CONFIRMED.email,
      CONFIRMED.username,
      UNCONFIRMED.email,
      UNCONFIRMED.username,
    ].map((identifier) => ({ identifier, reply: resend(identifier) }));
    const answers = await Promise.all(replies.map(async ({ reply }) => answerOf(await reply)));
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 302,
        location: "/auth",
        toast: { type: "success", ...TOAST_COPY.confirmationResent, notice: FRONT_COPY.resentNotice },
        body: "",
        cookies: ["mixtape-toast"],
      });
    }
    const failed = await failuresOf("signup", 2);
    expect(failed).toEqual([UNCONFIRMED.email, UNCONFIRMED.email]);
  });

  it("login by username: an unconfirmed account with its password hears so and may resend; a wrong password hears the email login's answer; a confirmed one signs in", async () => {
    const login = (email: string, password: string) =>
      new Client(server.url).request("/auth", { method: "POST", form: { mode: "login", email, password } });
    const right = await login(UNCONFIRMED.username, PASSWORD);
    expect(right.status).toBe(400);
    expect(right.body).toContain('data-testid="auth-error"');
    expect(right.body).toContain("Email not confirmed");
    expect(right.body).toContain(AUTH_COPY.resendConfirmation);
    expect(right.body).toContain(`name="identifier" value="${UNCONFIRMED.username}"`);
    expect(right.body).not.toContain(UNCONFIRMED.email);
    for (const reply of [
      await login(UNCONFIRMED.username, "wrong-password-77"),
      await login(CONFIRMED.username, "wrong-password-77"),
    ]) {
      expect(reply.status).toBe(400);
      expect(reply.body).toContain("Invalid login credentials");
      expect(reply.body).not.toContain(AUTH_COPY.resendConfirmation);
      expect(reply.body).not.toContain(CONFIRMED.email);
    }
    const signedIn = await login(CONFIRMED.username.toUpperCase(), PASSWORD);
    expect(signedIn).toMatchObject({ status: 302, location: "/" });
    expect(signedIn.setCookies.some((c) => c.startsWith("mixtape-auth="))).toBe(true);
  });
});
