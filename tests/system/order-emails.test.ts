// Order emails across an SMTP outage, against a real SMTP server on 127.0.0.1
// (smtp-server) that refuses every message while it is "down". Orders are stored and
// acknowledged during the outage; once SMTP is back, every queued email arrives, each
// exactly once: the shopper's receipt and the mixer's notice per order, then the
// shopper's "sent" email.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, Client, htmlText, sleepMs, suiteServer } from "./setup";

type Received = { to: string; subject: string };

describe("order emails survive an SMTP outage", () => {
  const shoppers = accounts(4, "mailer");
  const mixer = { email: "dj@mail.test", username: "dj_mail" };
  const received: Received[] = [];
  let down = true;
  let refused = 0;
  let smtp: SMTPServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onMailFrom(_address, _session, callback) {
        if (!down) return callback();
        refused++;
        callback(Object.assign(new Error("Service not available, try again later"), { responseCode: 421 }));
      },
      onData(stream, session, callback) {
        let raw = "";
        stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
        stream.on("end", () => {
          const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? "";
          for (const rcpt of session.envelope.rcptTo) received.push({ to: rcpt.address, subject });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  }, 300_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });
  const server = suiteServer("emails", {
    shoppers: [...shoppers, mixer],
    env: () => ({ SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, MIXER_EMAILS: mixer.email }),
  });

  /** One order through the real forms; its code. */
  async function order(client: Client) {
    expect((await client.post("/", { intent: "add", songId: "12" })).status).toBe(303);
    expect((await client.post("/review", { intent: "generate-code" })).status).toBe(303);
    const code = /data-testid="order-code"[^>]*>([A-Z0-9]{8})</.exec((await client.get("/review")).body)![1];
    const sent = await client.post("/review", { intent: "transmit", code });
    expect(sent.status).toBe(303);
    return code;
  }

  it("stores every order while SMTP refuses, then delivers each email exactly once when it is back", async () => {
    const clients = await Promise.all(
      shoppers.map(async (s) => {
        const c = new Client(server.url);
        expect((await c.logIn(s.email)).status).toBe(302);
        return c;
      }),
    );
    const codes: string[] = [];
    for (const c of clients) codes.push(await order(c));
    // During the outage: the orders are there, no email went out, sending was tried.
    for (const [i, c] of clients.entries()) expect(htmlText((await c.get("/my-mixtapes")).body)).toContain(codes[i]);
    await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThanOrEqual(codes.length);
    expect(received).toEqual([]);

    down = false;
    const expected = codes.length * 2;
    await expect.poll(() => received.length, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(expected);
    await sleepMs(5_000); // retries that might still come would show now
    expect(received).toHaveLength(expected);
    for (const [i, s] of shoppers.entries()) {
      expect(received.filter((m) => m.to === s.email && m.subject.includes(codes[i]))).toHaveLength(1);
      expect(received.filter((m) => m.to === mixer.email && m.subject === `New order ${codes[i]}`)).toHaveLength(1);
    }

    // The mixer sends one: the shopper's email arrives, once.
    const dj = new Client(server.url);
    await dj.logIn(mixer.email);
    expect((await dj.post("/mixer", { intent: "start-mixing", code: codes[0] })).status).toBe(303);
    expect(
      (await dj.post("/mixer", { intent: "mark-sent", code: codes[0], deliveryUrl: "https://tapes.example/1", message: "Done" }))
        .status,
    ).toBe(303);
    await expect
      .poll(() => received.filter((m) => m.subject === `Your tape is ready: ${codes[0]}`).length, { timeout: 20_000 })
      .toBe(1);
    await sleepMs(3_000);
    expect(received.filter((m) => m.subject === `Your tape is ready: ${codes[0]}`)).toEqual([
      { to: shoppers[0].email, subject: `Your tape is ready: ${codes[0]}` },
    ]);
  }, 180_000);
});
