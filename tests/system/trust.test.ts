// The outside probe's findings (round 3), against the production server with SITE_URL
// unset (the zero-config default): email links never follow the request's Host or
// target, paths beginning with "//" answer as unknown paths, a reset window works once,
// delivery links follow one rule, the log keeps no live link or token, refusals are not
// errors, the CSV export reads the console's filter, and text limits count what a person sees.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { CONSOLE_COPY, CONSOLE_FORM_COPY } from "~/domain/copy-console";
import { HOME_COPY } from "~/domain/copy-home";
import { ORDERS_COPY } from "~/domain/copy-orders";
import { outboxMails } from "../support/outbox";
import { Client, htmlText, PASSWORD, sleepMs, suiteServer } from "./setup";

const BOB = { username: "trust_bob", email: "trust.bob@example.com" };
const CAROL = { username: "trust_carol", email: "trust.carol@example.com" };
const DJ = { username: "trust_dj", email: "trust.dj@example.com" };

/** One raw HTTP/1.1 exchange: the Host and the request target exactly as written. */
function raw(port: number, head: string, body = ""): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    // Written, not ended: a half-closed socket reads as a client gone away, and the server stops.
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.write(`${head}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
    );
    let data = "";
    socket.on("data", (d) => (data += d.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), text: data }));
  });
}
const FORM = "Content-Type: application/x-www-form-urlencoded";

describe("trust, round 3", () => {
  const server = suiteServer("trust", { shoppers: [BOB, CAROL, DJ], env: { MIXER_EMAILS: DJ.email } });
  const { dataDir } = server;
  const own = () => `http://localhost:${server.port}`;
  /** The log lines written since `from` (an offset into the output). */
  const logSince = (from: number) => server.output().slice(from).split("\n").filter(Boolean);
  const errorLines = (from: number) => logSince(from).filter((l) => l.includes('"level":50'));
  const mailsTo = (email: string) => outboxMails(dataDir).filter((m) => m.to === email);
  /** The first link of the newest mail to this address that arrives after `before` mails. */
  async function nextLink(email: string, before: number): Promise<URL> {
    for (let i = 0; i < 150 && mailsTo(email).length <= before; i++) await sleepMs(100);
    const mail = mailsTo(email)[0];
    expect(mail, `a mail to ${email}`).toBeDefined();
    return new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
  }

  it("says once at start-up that SITE_URL is unset, naming the variable", async () => {
    for (let i = 0; i < 50 && !server.output().includes("SITE_URL is not set"); i++) await sleepMs(100);
    expect(server.output().match(/SITE_URL is not set/g)).toHaveLength(1);
  });

  it("builds every email link from the configured origin, whatever the Host or the request target", async () => {
    const forgot = `email=${encodeURIComponent(BOB.email)}`;
    const variants = [
      `POST /auth/forgot HTTP/1.1\r\nHost: attacker.example\r\n${FORM}`,
      `POST http://attacker.example/auth/forgot HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${FORM}`,
      `POST //attacker.example/auth/forgot HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${FORM}`,
    ];
    for (const head of variants) {
      const before = mailsTo(BOB.email).length;
      const reply = await raw(server.port, head, forgot);
      expect(reply.status, head).toBeLessThan(500);
      if (reply.status !== 302) continue; // "//attacker.example/…" is a path of its own: a 404, no mail
      expect((await nextLink(BOB.email, before)).origin, head).toBe(own());
    }
    expect(mailsTo(BOB.email).length).toBeGreaterThanOrEqual(2);
    for (const mail of mailsTo(BOB.email)) expect(mail.text).not.toContain("attacker.example");

    const newcomer = "trust.new@example.com";
    const signup = `mode=signup&username=trust_new&email=${encodeURIComponent(newcomer)}&password=${PASSWORD}`;
    const signed = await raw(server.port, `POST /auth?mode=signup HTTP/1.1\r\nHost: attacker.example\r\n${FORM}`, signup);
    expect(signed.status).toBe(302);
    expect((await nextLink(newcomer, 0)).origin).toBe(own());
    const resend = `intent=resend&identifier=${encodeURIComponent(newcomer)}`;
    const resent = await raw(
      server.port,
      `POST http://attacker.example/auth HTTP/1.1\r\nHost: attacker.example\r\n${FORM}`,
      resend,
    );
    expect(resent.status).toBe(302);
    expect((await nextLink(newcomer, 1)).origin).toBe(own());
  });

  it("answers paths beginning with // as unknown paths: never a 5xx, never an error in the log", async () => {
    const from = server.output().length;
    for (const path of ["//", "///", "//?x=1", "//%2F", "//:80", "//@", "//[", "//a:b"]) {
      for (const method of ["GET", "HEAD", "POST"]) {
        const reply = await raw(
          server.port,
          `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAccept: text/html\r\n${FORM}`,
        );
        expect([400, 404], `${method} ${path}`).toContain(reply.status);
      }
    }
    await sleepMs(100);
    expect(errorLines(from)).toEqual([]);
  });

  it("lets a reset link's window set a password once: a replayed window changes nothing", async () => {
    const browser = new Client(server.url);
    const before = mailsTo(BOB.email).length;
    expect((await browser.post("/auth/forgot", { email: BOB.email })).status).toBe(302);
    const link = await nextLink(BOB.email, before);
    const opened = await browser.get(link.pathname + link.search);
    expect(opened).toMatchObject({ status: 302, location: "/auth/reset" });
    const oldRecovery = browser.jar.get("mixtape-recovery")!;
    expect(oldRecovery).toBeTruthy();
    expect((await browser.post("/auth/reset", { password: "first-new-pass-81" })).status).toBe(302);
    expect(browser.jar.has("mixtape-recovery")).toBe(false);

    browser.jar.set("mixtape-recovery", oldRecovery); // the replay: same session, the old window cookie
    const replay = await browser.post("/auth/reset", { password: "second-new-pass-92" });
    expect(replay.status).toBe(400);
    expect((await new Client(server.url).logIn(BOB.email, "second-new-pass-92")).status).toBe(400);
    expect((await new Client(server.url).logIn(BOB.email, "first-new-pass-81")).status).toBe(302);
  });

  it("stores delivery links by one rule: case normalised, control characters refused with a message", async () => {
    const carol = new Client(server.url);
    expect((await carol.logIn(CAROL.email)).status).toBe(302);
    await carol.get("/");
    expect((await carol.post("/", { intent: "add", songId: "4" })).status).toBe(303);
    expect((await carol.post("/review", { intent: "generate-code" })).status).toBe(303);
    const code = /data-testid="order-code"[^>]*>([A-Z0-9]{8})</.exec((await carol.get("/review")).body)![1];
    expect((await carol.post("/review", { intent: "transmit", code })).status).toBe(303);

    const dj = new Client(server.url);
    expect((await dj.logIn(DJ.email)).status).toBe(302);
    expect((await dj.post("/mixer", { intent: "start-mixing", code })).status).toBe(303);
    for (const link of [
      "https://x.example/%00",
      "https://x.example/%01ctl",
      "https://x.example/a\u0001b",
      "https://x.example/%7F",
    ]) {
      const refused = await dj.post("/mixer", { intent: "mark-sent", code, deliveryUrl: link, message: "" });
      expect(refused.status, link).toBe(400);
      expect(htmlText(refused.body), link).toContain(CONSOLE_FORM_COPY.deliveryLinkInvalid);
    }
    expect(htmlText((await dj.get(`/mixer?q=${code}`)).body)).toContain(ORDERS_COPY.status("mixing"));
    const sent = await dj.post("/mixer", { intent: "mark-sent", code, deliveryUrl: "HTTPS://X.EXAMPLE/upper", message: "" });
    expect(sent.status).toBe(303);
    expect((await carol.get("/my-mixtapes")).body).toContain('href="https://x.example/upper"');
  });

  it("keeps no live token in the log: token values are redacted, email links are not printed", async () => {
    const from = server.output().length;
    for (const path of [
      "/auth/confirm?token_hash=SECRETHASH111&type=signup",
      "/auth/reset?token_hash=SECRETHASH222&type=recovery",
      "/auth/confirm?code=SECRETCODE333",
    ]) {
      await new Client(server.url).get(path);
    }
    await sleepMs(100);
    const lines = logSince(from).join("\n");
    expect(lines).not.toMatch(/SECRETHASH111|SECRETHASH222|SECRETCODE333/);
    expect(lines).toContain("token_hash=[redacted]");
    for (const mail of outboxMails(dataDir)) {
      const token = /token_hash=([^&\s]+)/.exec(mail.text)?.[1];
      if (token) expect(server.output()).not.toContain(token);
    }
  });

  it("logs a refusal as a refusal: a POST to a page without a form is a 405, not an error", async () => {
    const from = server.output().length;
    const carol = new Client(server.url);
    await carol.logIn(CAROL.email);
    for (const path of ["/auth/confirm", "/?index"]) {
      expect((await carol.post(path, { x: "1" })).status, path).toBe(405);
    }
    await sleepMs(100);
    expect(errorLines(from)).toEqual([]);
    expect(logSince(from).join("\n")).not.toContain("[object Object]");
  });

  it("exports no order for a search the console calls invalid", async () => {
    const dj = new Client(server.url);
    await dj.logIn(DJ.email);
    const page = await dj.get("/mixer?q='");
    expect(htmlText(page.body)).toContain(CONSOLE_COPY.searchInvalid);
    const csv = await dj.get("/mixer/orders.csv?q='");
    expect(csv.status).toBe(200);
    expect(csv.body.trim().split("\n")).toHaveLength(1); // the header only
    expect((await dj.get("/mixer/orders.csv")).body.trim().split("\n").length).toBeGreaterThan(1);
  });

  it("counts a note's length as a person does: 120 emoji fit, 121 do not", async () => {
    const carol = new Client(server.url);
    await carol.logIn(CAROL.email);
    await carol.get("/");
    expect((await carol.post("/", { intent: "options", note: "🎵".repeat(120) })).status).toBe(303);
    expect((await carol.get("/")).body).toContain(`>${"🎵".repeat(120)}</textarea>`);
    const over = await carol.post("/", { intent: "options", note: "🎵".repeat(121) });
    expect(over.status).toBe(400);
    expect(htmlText(over.body)).toContain(HOME_COPY.noteTooLong(120));
  });
});
