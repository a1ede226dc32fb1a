// Money where the happy path never goes, against the production server, with the providers' real shapes
// (Stripe's fixtures: a charge and a dispute whose payment_intent is null; livemode false; a Lemon Squeezy
// delivery in test mode): each finding of the probe read from the pages, the CSV and the outbox.
import { beforeAll, describe, expect, it } from "vitest";
import { outboxMails } from "../support/outbox";
import { Client, htmlText, PASSWORD, sleepMs, suiteServer } from "./setup";
import { placeOrder, WEBHOOK_ENV, webhookSenders } from "./webhook-senders";

const SHOPPER = { username: "units_shopper", email: "units.shopper@example.com" };
const MIXER = { username: "units_dj", email: "units.dj@example.com" };

describe("money in its own units, where the happy path never goes", () => {
  const server = suiteServer("ledger-units", {
    shoppers: [SHOPPER, MIXER],
    env: { ...WEBHOOK_ENV, MIXER_EMAILS: MIXER.email, LOG_LEVEL: "info" },
  });
  const { dataDir } = server;
  let shopper: Client;
  let mixer: Client;
  const { stripe, stripeEvent, lemon, checkout } = webhookSenders(() => server.url);
  const text = async (client: Client, path: string) => {
    const res = await client.get(path);
    expect(res.status, path).toBe(200);
    return htmlText(res.body.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, " "))
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
  };
  const shopperPage = (code: string) => text(shopper, `/my-mixtapes/${code}`);
  const mixerPage = (code: string) => text(mixer, `/mixer/orders/${code}`);
  const answer = async (res: Response) => [res.status, await res.text()];
  const session = (code: string, over: Record<string, unknown> = {}, livemode = true) =>
    stripe(
      JSON.stringify({
        id: `evt_cs_${code}_${Math.random()}`,
        object: "event",
        livemode,
        type: "checkout.session.completed",
        data: {
          object: {
            id: `cs_${code}`,
            object: "checkout.session",
            client_reference_id: code,
            amount_total: 1200,
            currency: "usd",
            payment_status: "paid",
            payment_intent: null,
            ...over,
          },
        },
      }),
    );
  const paid = (code: string, amount: number, reference: string, currency = "USD") =>
    checkout(`msg_${encodeURIComponent(reference)}`, { type: "payment.succeeded", data: { code, amount, currency, reference } });
  /** The badges of the order's heading, by test id (a page's timeline says more: this is what it is). */
  const badges = (html: string) => {
    const from = html.lastIndexOf("<p", html.indexOf('data-testid="order-status"'));
    const heading = html.slice(from, html.indexOf("</p>", from));
    return Object.fromEntries(
      [...heading.matchAll(/data-testid="(order-[a-z-]+)"[^>]*>([^<]*)</g)]
        .filter(([, id]) => id !== "order-code" && id !== "order-codename")
        .map(([, id, said]) => [id, htmlText(said).replace(/\s+/g, " ")]),
    );
  };

  beforeAll(async () => {
    shopper = new Client(server.url);
    mixer = new Client(server.url);
    expect((await shopper.logIn(SHOPPER.email, PASSWORD)).status).toBe(302);
    expect((await mixer.logIn(MIXER.email, PASSWORD)).status).toBe(302);
  });

  it("HUF 500000 is HUF 5,000; a forint refunded by hand is the provider's forint", async () => {
    const code = await placeOrder(shopper);
    expect(await answer(await session(code, { currency: "huf", amount_total: 500_000 }))).toEqual([200, "paid"]);
    expect(await shopperPage(code)).toContain("Paid HUF 5,000");
    expect(await shopperPage(code)).not.toContain("500,000");
    const card = await text(mixer, `/mixer?q=${code}`);
    expect(card).toContain("Refund by hand");
    const refund = { intent: "mark-refunded", code, currency: "HUF", token: `tok-${code}-1`, amount: "2000" };
    expect((await mixer.post("/mixer", { ...refund, named: "200000" })).status).toBe(303);
    expect(await shopperPage(code)).toContain("Refunded HUF 2,000 of HUF 5,000");
  });

  it("a refund by hand records only the amount its button named; another typed amount is asked first", async () => {
    const code = await placeOrder(shopper);
    expect((await paid(code, 1000, `named-${code}`)).status).toBe(200);
    const form = { intent: "mark-refunded", code, currency: "USD", token: `tok-${code}-2`, amount: "2.00", named: "1000" };
    const asked = await mixer.post("/mixer", form);
    expect(asked.status).toBe(400);
    const page = htmlText(asked.body);
    expect(page).toContain("Refund $2.00? Press “Refund $2.00” to record it.");
    // The form comes back open, its button naming the typed amount.
    expect(page).toMatch(/<details[^>]*open=""[^>]*data-testid="refund-by-hand"/);
    expect(page).toMatch(/<button[^>]*>Refund \$2\.00<\/button>/);
    expect(await shopperPage(code)).toContain("Paid $10.00");
    expect((await mixer.post("/mixer", { ...form, named: "200" })).status).toBe(303);
    expect(await shopperPage(code)).toContain("Refunded $2.00 of $10.00");
  });

  it("Mark Paid, then its undo: the mark goes, Mark Paid comes back, and the shopper is never told", async () => {
    const code = await placeOrder(shopper);
    const token = `tok-${code}-3`;
    expect((await mixer.post("/mixer", { intent: "mark-paid", code, currency: "USD", token, amount: "10.00" })).status).toBe(303);
    const card = await text(mixer, `/mixer?q=${code}`);
    expect(card).toContain("Paid $10.00");
    expect(card).toContain("Undo: paid $10.00 by hand");
    expect(await text(mixer, `/mixer/orders/${code}`)).not.toContain("Mark Paid");
    expect((await mixer.post("/mixer", { intent: "undo-mark", code, event: `manual:${token}` })).status).toBe(303);
    // The card offers the mark behind a link; its form is open on the order page.
    const after = await text(mixer, `/mixer/orders/${code}`);
    expect(after).toContain("Mark Paid");
    expect(after).toContain("Unpaid");
    // Undone twice: nothing to undo.
    expect((await mixer.post("/mixer", { intent: "undo-mark", code, event: `manual:${token}` })).status).toBe(409);
    // A shopper cannot undo anything.
    expect((await shopper.post("/mixer", { intent: "undo-mark", code, event: `manual:${token}` })).status).toBe(404);
    await sleepMs(3000); // the email worker polls every 2 s
    expect(outboxMails(dataDir).filter((m) => m.subject === `Payment received for ${code}`)).toEqual([]);
  });

  it("USD 10 then EUR 11: the EUR one is due back, named the extra one, and the shopper is thanked once", async () => {
    const code = await placeOrder(shopper);
    expect(await answer(await paid(code, 1000, `usd-${code}`))).toEqual([200, "paid"]);
    expect(await answer(await paid(code, 1100, `eur-${code}`, "EUR"))).toEqual([200, "paid_again"]);
    expect(await mixerPage(code)).toContain("Refund due €11.00");
    expect(await shopperPage(code)).toContain("Refund pending €11.00");
    const ledger = await text(mixer, `/mixer/payments?filter=due`);
    expect(ledger.split(`ref. eur-${code} · extra payment: due back`)).toHaveLength(2);
    expect(ledger).not.toContain(`ref. usd-${code} · extra payment`);
    const page = (await mixer.get("/mixer/payments?filter=due")).body;
    expect(page.split('name="intent" value="keep"').length - 1).toBe(1);
    await sleepMs(3000);
    const mails = outboxMails(dataDir).filter((m) => m.to === SHOPPER.email && m.subject === `Payment received for ${code}`);
    expect(mails.map((m) => m.text.includes("Thank you!")).sort()).toEqual([false, true]);
  });

  it("a charge and a dispute that name only the charge (payment_intent: null) are attached by the mixer, and then found", async () => {
    const code = await placeOrder(shopper);
    expect(await answer(await session(code))).toEqual([200, "paid"]);
    const charge = `ch_${code}`;
    const refunded = stripeEvent(`evt_ch_${code}`, "charge.refunded", {
      id: charge,
      object: "charge",
      amount: 1200,
      amount_refunded: 300,
      currency: "usd",
      payment_intent: null,
    });
    expect(await answer(await stripe(refunded))).toEqual([200, "unmatched"]);
    const waiting = await text(mixer, "/mixer/payments");
    expect(waiting).toContain("Money without an order");
    expect(waiting).toContain(charge);
    expect(
      (await mixer.post("/mixer/payments", { intent: "attach", provider: "stripe", eventId: `evt_ch_${code}`, code })).status,
    ).toBe(303);
    expect(await shopperPage(code)).toContain("Refunded $3.00 of $12.00");
    const inquiry = stripeEvent(`evt_dp_${code}`, "charge.dispute.created", {
      id: `dp_${code}`,
      object: "dispute",
      amount: 1200,
      charge,
      currency: "usd",
      payment_intent: null,
      reason: "fraudulent",
      status: "warning_needs_response",
    });
    expect(await answer(await stripe(inquiry))).toEqual([200, "disputed"]);
    // An inquiry withdraws nothing: no Disputed badge, the money still there.
    expect(await mixerPage(code)).toContain(
      "Dispute $12.00 · the cardholder says they did not make it · an inquiry: needs your response",
    );
    expect(badges((await mixer.get(`/mixer/orders/${code}`)).body)).toEqual({
      "order-status": "Status: Received",
      "order-refunded": "Refunded $3.00 of $12.00",
    });
  });

  it("a dispute's deadline (Stripe's evidence_details.due_by) reads 'Respond by' on the queue's card and the order page, until answered", async () => {
    const code = await placeOrder(shopper);
    expect(await answer(await session(code, { payment_intent: `pi_${code}` }))).toEqual([200, "paid"]);
    const dispute = (event: string, type: string, status: string, evidence: object) =>
      stripe(
        stripeEvent(`${event}_${code}`, type, {
          id: `dp_${code}`,
          object: "dispute",
          amount: 1200,
          charge: `ch_${code}`,
          currency: "usd",
          payment_intent: `pi_${code}`,
          reason: "product_not_received",
          status,
          evidence_details: evidence,
        }),
      );
    const dueBy = Date.UTC(2026, 11, 20, 23, 59, 59) / 1000;
    const created = await dispute("evt_dp", "charge.dispute.created", "needs_response", { due_by: dueBy, has_evidence: false });
    expect(await answer(created)).toEqual([200, "disputed"]);
    const respond = "Respond by Dec 20, 2026, 11:59 PM UTC";
    expect(await mixerPage(code)).toContain(
      `Dispute $12.00 · the tape never arrived, says the cardholder · needs your response ${respond} Respond on Stripe's dashboard`,
    );
    // In view on the queue's card, not only behind its disclosure.
    const card = (await mixer.get(`/mixer?q=${code}`)).body;
    const facts = card.slice(card.indexOf('data-testid="order-facts"'), card.indexOf("<details"));
    expect(htmlText(facts.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ")).toContain(respond);
    // The evidence sent: the dispute is under review, with no deadline left to meet.
    const answered = await dispute("evt_dp_updated", "charge.dispute.updated", "under_review", {
      due_by: dueBy,
      has_evidence: true,
    });
    expect(await answer(answered)).toEqual([200, "disputed"]);
    expect(await mixerPage(code)).toContain("your evidence is with the bank");
    expect(await mixerPage(code)).not.toContain("Respond by");
    expect(await text(mixer, `/mixer?q=${code}`)).not.toContain("Respond by");
  });

  it("test-mode money is shown as test money and the order stays unpaid; a payment of nothing pays for nothing", async () => {
    const [stripeCode, lemonCode, freeCode] = [await placeOrder(shopper), await placeOrder(shopper), await placeOrder(shopper)];
    expect(await answer(await session(stripeCode, {}, false))).toEqual([200, "test"]);
    const delivery = {
      meta: { event_name: "order_created", test_mode: true, custom_data: { code: lemonCode } },
      data: { id: 99_001, type: "orders", attributes: { status: "paid", total: 1500, currency: "EUR" } },
    };
    expect(await answer(await lemon(delivery))).toEqual([200, "test"]);
    expect(await answer(await session(freeCode, { amount_total: 0, payment_status: "no_payment_required" }))).toEqual([
      200,
      "recorded",
    ]);
    for (const [code, money] of [
      [stripeCode, "Test payment $12.00"],
      [lemonCode, "Test payment €15.00"],
    ]) {
      expect(badges((await mixer.get(`/mixer/orders/${code}`)).body), code).toEqual({
        "order-status": "Status: Received",
        "order-paid": "Unpaid",
        "order-test-money": money,
      });
    }
    expect(badges((await mixer.get(`/mixer/orders/${freeCode}`)).body)).toEqual({
      "order-status": "Status: Received",
      "order-paid": "Unpaid",
    });
    const unpaid = await text(mixer, "/mixer?filter=unpaid");
    for (const code of [stripeCode, lemonCode, freeCode]) expect(unpaid).toContain(code);
    expect(await text(mixer, "/mixer/payments")).toContain("test money");
  });

  it("a refund beyond its payment is flagged for the mixer and not subtracted; payments.csv escapes every formula", async () => {
    const code = await placeOrder(shopper);
    const reference = `＝HYPERLINK("x")-${code}`;
    expect((await paid(code, 1000, reference)).status).toBe(200);
    const over = await checkout(`msg_over_${code}`, {
      type: "payment.refunded",
      data: { code, amount: 1500, currency: "USD", reference },
    });
    expect(over.status).toBe(200);
    expect(await mixerPage(code)).toContain("Refund to check $15.00");
    expect(await shopperPage(code)).toContain("Paid $10.00");
    expect(await text(mixer, "/mixer/payments?filter=flagged")).toContain(code);
    const csv = (await mixer.get("/mixer/payments.csv")).body;
    expect(csv).toContain(`'＝HYPERLINK(""x"")-${code}`);
    expect(csv).not.toMatch(/,＝HYPERLINK/);
  });
});
