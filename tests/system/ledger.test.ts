// Money is a ledger. The eight findings, tried from outside as an attacker and an
// unlucky shopper would, against signed events only, with the exact bodies of the findings;
// each answer read from the pages a shopper and the mixer see.
import { beforeAll, describe, expect, it } from "vitest";
import { outboxMails } from "../support/outbox";
import { Client, htmlText, PASSWORD, sleepMs, suiteServer } from "./setup";
import { placeOrder, WEBHOOK_ENV, webhookSenders } from "./webhook-senders";

const SHOPPER = { username: "ledger_shopper", email: "ledger.shopper@example.com" };
const MIXER = { username: "ledger_dj", email: "ledger.dj@example.com" };
/** A shopper of one order: SHOPPER's many orders spend the mixers' email budget (decisions/021). */
const TALKER = { username: "ledger_talker", email: "ledger.talker@example.com" };

describe("money is a ledger", () => {
  const server = suiteServer("ledger", {
    shoppers: [SHOPPER, TALKER, MIXER],
    env: { ...WEBHOOK_ENV, MIXER_EMAILS: MIXER.email, LOG_LEVEL: "info" },
  });
  const { dataDir } = server;
  let shopper: Client;
  let mixer: Client;
  const { stripe, stripeEvent, lemon, checkout } = webhookSenders(() => server.url);
  const text = async (client: Client, path: string) => {
    const res = await client.get(path);
    expect(res.status, path).toBe(200);
    // What the page shows, not the data it carries for hydration.
    return htmlText(res.body.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, " "))
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
  };
  const shopperPage = (code: string) => text(shopper, `/my-mixtapes/${code}`);
  const mixerPage = (code: string) => text(mixer, `/mixer/orders/${code}`);
  const answer = async (res: Response) => [res.status, await res.text()];
  const paidByStripe = async (code: string, amount: number) => {
    const paid = stripeEvent(`evt_paid_${code}`, "checkout.session.completed", {
      id: `cs_${code}`,
      object: "checkout.session",
      client_reference_id: code,
      amount_total: amount,
      currency: "usd",
      payment_status: "paid",
      payment_intent: `pi_${code}`,
    });
    expect(await answer(await stripe(paid))).toEqual([200, "paid"]);
  };

  beforeAll(async () => {
    shopper = new Client(server.url);
    mixer = new Client(server.url);
    expect((await shopper.logIn(SHOPPER.email, PASSWORD)).status).toBe(302);
    expect((await mixer.logIn(MIXER.email, PASSWORD)).status).toBe(302);
  });

  it("1. a partial refund reads as partial; cancelled afterwards, the rest is due", async () => {
    const code = await placeOrder(shopper);
    await paidByStripe(code, 1200);
    const refund = stripeEvent(`evt_refund_${code}`, "charge.refunded", {
      id: `ch_${code}`,
      object: "charge",
      amount_refunded: 100,
      currency: "usd",
      payment_intent: `pi_${code}`,
    });
    expect((await stripe(refund)).status).toBe(200);
    const page = await shopperPage(code);
    expect(page).toContain("Refunded $1.00 of $12.00");
    expect(page).not.toMatch(/Refunded(?! \$)/);
    const cancelled = await mixer.post("/mixer", { intent: "cancel", code, from: "received", reason: "" });
    expect(cancelled.status).toBe(303);
    expect(await mixerPage(code)).toContain("Refund due $11.00");
    expect(await shopperPage(code)).toContain("Refund pending $11.00");
  });

  it("2. a refund of some other payment never refunds this order, and waits for the mixer", async () => {
    const code = await placeOrder(shopper);
    await paidByStripe(code, 1500);
    const other = {
      meta: { event_name: "order_refunded", custom_data: { code } },
      data: { id: 77_001, type: "orders", attributes: { status: "refunded", total: 100, refunded_amount: 100, currency: "USD" } },
    };
    expect((await lemon(other)).status).toBe(200);
    const page = await shopperPage(code);
    expect(page).toContain("Paid $15.00");
    expect(page).not.toContain("Refunded");
    const payments = await text(mixer, "/mixer/payments?filter=unmatched");
    expect(payments).toContain("77001");
    expect(payments).toContain("$1.00");
  });

  it("3. a second (and twentieth) payment is kept, shown and due back", async () => {
    const code = await placeOrder(shopper);
    for (let i = 0; i < 20; i++) {
      const res = await checkout(`msg_twenty_${code}_${i}`, {
        type: "payment.succeeded",
        data: { code, amount: 1000, currency: "USD", reference: `pay-${code}-${i}` },
      });
      expect(res.status).toBe(200);
    }
    expect(await mixerPage(code)).toContain("Refund due $190.00");
    expect(await shopperPage(code)).toContain("Paid $200.00");
    const ledger = await text(mixer, "/mixer/payments");
    expect(ledger.split(`ref. pay-${code}-`).length - 1).toBe(20);
    const csv = await mixer.get(`/mixer/orders.csv?q=${code}`);
    expect(csv.body).toContain("200.00");
  });

  it("4. a refund that arrives before its payment applies when the payment does", async () => {
    const code = await placeOrder(shopper);
    const reference = `early-${code}`;
    const refund = await checkout(`msg_refund_${code}`, {
      type: "payment.refunded",
      data: { code, amount: 1000, currency: "USD", reference },
    });
    expect(refund.status).toBe(200);
    const paid = await checkout(`msg_paid_${code}`, {
      type: "payment.succeeded",
      data: { code, amount: 1000, currency: "USD", reference },
    });
    expect(paid.status).toBe(200);
    const page = await shopperPage(code);
    expect(page).toContain("Refunded $10.00");
    expect(page).not.toContain("Refund pending");
    expect(await mixerPage(code)).not.toContain("Refund due");
  });

  it("a dispute shows on the mixer's card and order page in words, with a link to the payment on Stripe and a warning before mixing; won, the money is back", async () => {
    const code = await placeOrder(shopper);
    await paidByStripe(code, 1200);
    const dispute = (id: string, status: string) =>
      stripe(
        stripeEvent(id, `charge.dispute.${status === "needs_response" ? "created" : "closed"}`, {
          id: `dp_${code}`,
          object: "dispute",
          amount: 1200,
          currency: "usd",
          payment_intent: `pi_${code}`,
          reason: "fraudulent",
          status,
        }),
      );
    expect(await answer(await dispute(`evt_dp1_${code}`, "needs_response"))).toEqual([200, "disputed"]);
    const card = await text(mixer, `/mixer?q=${code}`);
    expect(card).toContain("Disputed $12.00");
    expect(card).toContain("Dispute $12.00 · the cardholder says they did not make it · needs your response");
    expect(card).toContain("Respond on Stripe's dashboard It shows the deadline for your evidence.");
    expect((await mixer.get(`/mixer?q=${code}`)).body).toContain(`href="https://dashboard.stripe.com/payments/pi_${code}"`);
    // All the money is disputed: Start Mixing warns first.
    expect(card).toContain("Disputed: nothing is left of what this order was paid. Start mixing only if you mean to.");
    expect(card).toContain("Start Mixing anyway");
    expect(await mixerPage(code)).toContain("Disputed $12.00 the cardholder says they did not make it, needs your response");
    expect(await shopperPage(code)).not.toContain("Disputed");
    expect((await dispute(`evt_dp2_${code}`, "won")).status).toBe(200);
    const won = await text(mixer, `/mixer?q=${code}`);
    expect(won).not.toContain("Disputed $12.00");
    expect(won).toContain("won: the money is back");
    expect(won).not.toContain("Start Mixing anyway");
  });

  it("5. a paid checkout whose code was edited answers 200 and waits for the mixer", async () => {
    const blank = stripeEvent("evt_blank_code", "checkout.session.completed", {
      id: "cs_blank",
      client_reference_id: "",
      amount_total: 1000,
      currency: "usd",
      payment_status: "paid",
      payment_intent: "pi_blank_code",
    });
    expect(await answer(await stripe(blank))).toEqual([200, "unmatched"]);
    const long = {
      meta: { event_name: "order_created", custom_data: { code: `LONG${"X".repeat(146)}` } },
      data: { id: 88_002, type: "orders", attributes: { status: "paid", total: 1000, currency: "USD" } },
    };
    expect(await answer(await lemon(long))).toEqual([200, "unmatched"]);
    const reference = `ref-${"r".repeat(197)}`;
    expect(reference).toHaveLength(201);
    const own = await checkout("msg_long_reference", {
      type: "payment.succeeded",
      data: { code: "EDITED99", amount: 1000, currency: "USD", reference },
    });
    expect(await answer(own)).toEqual([200, "unmatched"]);
    const payments = await text(mixer, "/mixer/payments?filter=unmatched");
    expect(payments).toContain("pi_blank_code");
    expect(payments).toContain("88002");
    expect(payments).toContain("EDITED99");
  });

  it("6. a Stripe signature made with the wrong secret is answered as a signature failure", async () => {
    const from = server.output().length;
    const event = stripeEvent("evt_wrong_secret", "checkout.session.completed", { client_reference_id: "ABCD1234" });
    const res = await stripe(event, "whsec_someone_else");
    const [status, body] = await answer(res);
    expect(status).toBe(400);
    expect(body).toMatch(/signature/);
    expect(body).not.toMatch(/JSON/);
    await sleepMs(100);
    const logged = server
      .output()
      .slice(from)
      .split("\n")
      .filter((l) => l.includes('"msg":"webhook refused"'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/"why":"[^"]*signature/);
  });

  it("7. a shopper sends at most 10 messages per order in 10 minutes; each mixer gets one email", async () => {
    const talker = new Client(server.url);
    expect((await talker.logIn(TALKER.email, PASSWORD)).status).toBe(302);
    const code = await placeOrder(talker);
    const sends = await Promise.all(
      Array.from({ length: 60 }, (_, i) => talker.post(`/my-mixtapes/${code}`, { intent: "message", body: `Flood ${i}` })),
    );
    expect(sends.filter((r) => r.status === 303)).toHaveLength(10);
    const refused = sends.find((r) => r.status === 429)!;
    expect(refused).toBeDefined();
    const said = htmlText(refused.body);
    expect(said).toContain("You can send 10 messages about an order in 10 minutes. Please wait a few minutes and try again.");
    expect(said).toMatch(/Flood \d+<\/textarea>/);
    const page = await text(talker, `/my-mixtapes/${code}`);
    expect(page.match(/Flood \d+/g)).toHaveLength(10);
    await sleepMs(4000); // the email worker polls every 2 s
    const toMixer = outboxMails(dataDir).filter((m) => m.to === MIXER.email && m.subject.includes(code));
    expect(toMixer.filter((m) => /message/i.test(m.subject))).toHaveLength(1);
  });

  it("8. every page of a signed-in request says private, no-store", async () => {
    const code = await placeOrder(shopper);
    for (const [client, path] of [
      [shopper, "/account"],
      [shopper, `/my-mixtapes/${code}`],
      [shopper, "/my-mixtapes"],
      [mixer, "/mixer/payments"],
      [mixer, "/mixer/insights"],
      [mixer, `/mixer/orders/${code}`],
    ] as const) {
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
    }
    // Public assets keep their long cache.
    const anonymous = new Client(server.url);
    const auth = await anonymous.get("/auth");
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(auth.body)![1];
    expect((await anonymous.get(css)).headers.get("cache-control")).toMatch(/max-age=\d{6,}/);
  });
});
