// A NUL byte (or any control character) typed or pasted into a field gets a clear
// message on the form, never a 500 and never the database's own words; a deck stored
// with one before this rule still transmits, its note cleaned.
import { describe, expect, it } from "vitest";
import { AUTH_COPY } from "~/domain/copy-auth";
import { HOME_COPY } from "~/domain/copy-home";
import { createCookie } from "react-router";
import { accounts, Client, deckOf, htmlText, orderCodesOf, suiteServer } from "./setup";

const SECRET = "control-characters-test-secret-0123456789";
const NUL = "\u0000";

describe("control characters in input", () => {
  const [shopper] = accounts(1, "ctrl");
  const server = suiteServer("control", { shoppers: [shopper], env: { SESSION_SECRET: SECRET } });

  it.each([
    ["login: an email with a NUL", "/auth", { mode: "login", email: `rebel${NUL}@example.com`, password: "whatever-it-is" }],
    ["login: a username with a NUL", "/auth", { mode: "login", email: `rebel${NUL}name`, password: "whatever-it-is" }],
    [
      "sign-up: an email with a NUL",
      "/auth?mode=signup",
      { mode: "signup", username: "nul_rebel", email: `a${NUL}@example.com`, password: "correct-horse-42" },
    ],
    [
      "sign-up: a username with a bell",
      "/auth?mode=signup",
      { mode: "signup", username: "nul\u0007rebel", email: "b@example.com", password: "correct-horse-42" },
    ],
    ["login: a password with a NUL", "/auth", { mode: "login", email: "c@example.com", password: `pass${NUL}word-long` }],
  ])("%s: 400 with the form's message", async (_label, path, form) => {
    const reply = await new Client(server.url).post(path, form);
    expect(reply.status).toBe(400);
    const box = /data-testid="auth-error"[^>]*>([\s\S]*?)<\/div>/.exec(reply.body)?.[1] ?? "";
    expect(htmlText(box)).toContain(AUTH_COPY.controlCharacters);
    expect(reply.body).not.toMatch(/invalid byte sequence|UTF8|0x00/i);
  });

  it("a note with a NUL: 400 with the note's message, the deck unchanged", async () => {
    const client = new Client(server.url);
    await client.logIn(shopper.email);
    expect((await client.post("/", { intent: "options", note: "keep me" })).status).toBe(303);
    const refused = await client.post("/", { intent: "options", note: `bad${NUL}note` });
    expect(refused.status).toBe(400);
    expect(htmlText(refused.body)).toContain(HOME_COPY.noteControlCharacters);
    expect(htmlText((await client.get("/")).body)).toContain("keep me");
  });

  it("a deck stored with a NUL in its note (before the rule) still transmits, its note cleaned", async () => {
    const client = new Client(server.url);
    await client.logIn(shopper.email);
    await client.post("/", { intent: "add", songId: "9" });
    await client.post("/review", { intent: "generate-code" });
    const code = deckOf((await client.get("/review")).body).code!;
    // The server's own deck cookie, with a NUL put into its note and signed again.
    const cookie = createCookie("mixtape-deck", { secrets: [SECRET] });
    const data = (await cookie.parse(`mixtape-deck=${client.jar.get("mixtape-deck")}`)) as { deck: { note: string } };
    data.deck.note = `Old${NUL} note`;
    client.jar.set("mixtape-deck", (await cookie.serialize(data)).split(";")[0].slice("mixtape-deck=".length));
    const sent = await client.post("/review", { intent: "transmit", code });
    expect(sent.status).toBe(303);
    const orders = (await client.get("/my-mixtapes")).body;
    expect(orderCodesOf(orders)).toContain(code);
    expect(htmlText(orders)).toContain("Old note");
  });
});
