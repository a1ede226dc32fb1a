// The shopper's own account over HTTP against the production server: the
// export's headers, the new forms' refusals (never a 5xx, nothing changed), and the
// password guesses of "Delete my account" counted against the account's login limit.
import { describe, expect, it } from "vitest";
import { ACCOUNT_COPY, AUTH_COPY, OWN_ACCOUNT_COPY } from "~/domain/copy-auth";
import { accounts, Client, htmlText, PASSWORD, suiteServer } from "./setup";

describe("the shopper's own account over HTTP", () => {
  const [alice, bob] = accounts(2, "owner");
  // The real limits: 10 guesses per account in 15 minutes.
  const server = suiteServer("own-account", { shoppers: [alice, bob], env: { RATE_LIMIT_FACTOR: "1" } });

  const signedIn = async (email: string) => {
    const client = new Client(server.url);
    expect((await client.logIn(email)).location).toBe("/");
    return client;
  };

  it("signed out: the export and the forms send to /auth", async () => {
    const anon = new Client(server.url);
    expect(await anon.get("/account/data")).toMatchObject({ status: 302, location: "/auth" });
    const post = await anon.post("/account", { intent: "delete-account", currentPassword: PASSWORD, confirm: "DELETE" });
    expect(post).toMatchObject({ status: 302, location: "/auth" });
  });

  it("the export is a JSON attachment named after the username, never cached; GET only", async () => {
    const client = await signedIn(alice.email);
    const res = await client.get("/account/data");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="mixtape-data-${alice.username}.json"`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(JSON.parse(res.body).profile).toMatchObject({ username: alice.username, email: alice.email });
    expect((await client.post("/account/data", {})).status).toBe(405);
  });

  it("the new forms refuse bad input with a 400 and their message", async () => {
    const client = await signedIn(alice.email);
    const cases: [Record<string, string>, string | null][] = [
      [{ intent: "delete-account", currentPassword: PASSWORD, confirm: "delete" }, OWN_ACCOUNT_COPY.typeDeleteError],
      [{ intent: "delete-account", currentPassword: PASSWORD }, OWN_ACCOUNT_COPY.typeDeleteError],
      [{ intent: "delete-account", currentPassword: "x".repeat(10_000), confirm: "DELETE" }, AUTH_COPY.tooLong],
      [{ intent: "change-email", newEmail: "not-an-email", currentPassword: PASSWORD }, AUTH_COPY.invalidEmail],
      [{ intent: "change-email", newEmail: alice.email, currentPassword: PASSWORD }, OWN_ACCOUNT_COPY.sameEmail],
    ];
    for (const [form, message] of cases) {
      const res = await client.post("/account", form);
      expect(res.status, JSON.stringify(form).slice(0, 80)).toBe(400);
      if (message) expect(htmlText(res.body)).toContain(message);
    }
    const link = await client.get("/account/email?token_hash=made-up&type=email_change");
    expect(link.status).toBe(400);
    expect(htmlText(link.body)).toContain(OWN_ACCOUNT_COPY.emailLinkInvalid);
    expect((await client.get("/account")).status).toBe(200); // still signed in, nothing deleted
  });

  it("wrong passwords for Delete my account are limited like logins, and share the account's budget", async () => {
    const client = await signedIn(bob.email); // one of the 10
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<Client["post"]>> | undefined;
    for (let i = 0; i < 12 && !limited; i++) {
      const res = await client.post("/account", {
        intent: "delete-account",
        currentPassword: `wrong-${i}-password`,
        confirm: "DELETE",
      });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
      else expect(htmlText(res.body)).toContain(ACCOUNT_COPY.wrongCurrentPassword);
    }
    expect(statuses).toEqual([...Array(9).fill(400), 429]);
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    // The right password waits too, and the login form of that address is limited as well.
    const right = await client.post("/account", { intent: "delete-account", currentPassword: PASSWORD, confirm: "DELETE" });
    expect(right.status).toBe(429);
    expect((await new Client(server.url).logIn(bob.email)).status).toBe(429);
    expect((await client.get("/account")).status).toBe(200);
  });
});
