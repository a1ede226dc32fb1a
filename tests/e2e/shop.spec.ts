// The shop runs itself: payments confirmed by a signed Stripe event, a shop that
// closes and fills up, cancellations, refunds and late orders. The shop's settings are the
// whole shop's, so these tests run one after another on a server of their own (its data
// dir seeded with confirmed accounts), never beside the other tests.
import fs from "node:fs";
import path from "node:path";
import Stripe from "stripe";
import { PGlite } from "@electric-sql/pglite";
import { waitForMail } from "../support/outbox";
import {
  addSongs,
  expect,
  expectCardAnswer,
  expectOnTop,
  expectToast,
  generateCode,
  markPaidOnCard,
  openReview,
  refundByHand,
} from "./fixtures";
import {
  card,
  consoleCard,
  logIn,
  mixerPage,
  MIXER,
  placeOrder,
  saveSettings,
  shopperFor,
  STRIPE_SECRET,
  test,
} from "./shop-support";

// One shopper per test, whatever the project: JS on and JS off run on servers of their own.
test.describe.configure({ mode: "serial" });

test("a signed Stripe event marks an order paid, and My Mixtapes shows the amount; a bad signature changes nothing", async ({
  page,
  shop,
}, testInfo) => {
  const shopper = shopperFor(testInfo, 0);
  await logIn(page, shopper.email);
  const code = await placeOrder(page);
  const payload = JSON.stringify({
    id: `evt_${code}`,
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: {
        client_reference_id: code,
        amount_total: 1200,
        currency: "usd",
        payment_status: "paid",
        payment_intent: `pi_${code}`,
      },
    },
  });
  const send = (secret: string) =>
    page.request.post("/webhooks/stripe", {
      data: payload,
      headers: {
        "content-type": "application/json",
        "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret }),
      },
    });
  expect((await send("whsec_not_ours")).status()).toBe(400);
  await page.goto("/my-mixtapes");
  await expect(card(page, code).getByRole("link", { name: "Pay now" })).toBeVisible();
  expect((await send(STRIPE_SECRET)).status()).toBe(200);
  await page.goto("/my-mixtapes");
  await expect(card(page, code).getByTestId("order-paid")).toHaveText("Paid $12.00");
  await expect(card(page, code).getByRole("link", { name: "Pay now" })).toHaveCount(0);
  await waitForMail(shop.dataDir, shopper.email, (mail) => mail.subject === `Payment received for ${code}`);
});

test("the mixer closes the shop: the banner shows, transmit is refused with the deck kept; opened again, it goes through", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const mixer = await mixerPage(browser, testInfo, baseURL);
  await saveSettings(mixer.page, { open: false, message: "Back on Monday, rebels." });
  // The front door says so before anyone signs in.
  await page.goto("/auth");
  await expect(page.getByTestId("front-shop")).toContainText("The shop is closed");
  await expect(page.getByTestId("front-shop")).toContainText("Back on Monday, rebels.");
  await logIn(page, shopperFor(testInfo, 1).email);
  const banner = page.getByTestId("shop-banner");
  await expect(banner).toContainText("The shop is closed");
  await expect(banner).toContainText("Back on Monday, rebels.");
  await addSongs(page, ["11", "12"]);
  await openReview(page);
  const code = await generateCode(page);
  // The refusal is read in the Transmit step, focused, the review open and its Close uncovered, at 1280 and 390 px.
  const dialog = page.getByTestId("review-dialog");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await dialog.getByRole("button", { name: "Transmit Order" }).click();
    const answer = dialog.getByTestId("transmit-answer");
    await expect(answer).toContainText("The shop is closed");
    await expect(answer).toContainText("Back on Monday, rebels.");
    await expect(answer, `${width} px: the refusal takes the focus`).toBeFocused();
    await expectOnTop(answer, `${width} px: the refusal`);
    await expect(page.getByTestId("toast")).toHaveCount(0);
    const close = dialog.getByRole("link", { name: "Close review" });
    await close.scrollIntoViewIfNeeded();
    await expectOnTop(close, `${width} px: the dialog's Close`);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("order-code")).toHaveText(code);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  await expect(page.locator("#deck").getByText("Tracks Loaded: 2 / 10")).toBeVisible();
  await openReview(page);
  await expect(page.getByTestId("review-dialog").getByTestId("order-code")).toHaveText(code);

  await saveSettings(mixer.page, { open: true });
  await page.goto("/");
  await expect(page.getByTestId("shop-banner")).toHaveCount(0);
  await openReview(page);
  await page.getByRole("button", { name: "Transmit Order" }).click();
  await expectToast(page, "Order Submitted!");
  await mixer.close();
});

test("a full shop: the banner says the queue is full and transmit waits, the deck kept", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const mixer = await mixerPage(browser, testInfo, baseURL);
  // Zero more open orders than there are now: full at once.
  await saveSettings(mixer.page, { open: true, most: "0" });
  await expect(mixer.page.getByTestId("shop-now")).toHaveText("Now: open, queue full");
  await logIn(page, shopperFor(testInfo, 2).email);
  await expect(page.getByTestId("shop-banner")).toContainText("The queue is full");
  await expect(page.getByTestId("shop-banner")).toContainText("Orders open again as tapes go out.");
  await addSongs(page, ["13"]);
  await openReview(page);
  await generateCode(page);
  await page.getByRole("button", { name: "Transmit Order" }).click();
  await expect(page.getByTestId("review-dialog").getByTestId("transmit-answer")).toContainText("The queue is full");
  await page.goto("/");
  await expect(page.locator("#deck").getByText("Tracks Loaded: 1 / 10")).toBeVisible();
  await saveSettings(mixer.page, { open: true, most: "" });
  await page.goto("/");
  await expect(page.getByTestId("shop-banner")).toHaveCount(0);
  await mixer.close();
});

test("a shopper cancels an order while it is received, after a confirmation; the mixer is told", async ({
  page,
  shop,
}, testInfo) => {
  await logIn(page, shopperFor(testInfo, 0).email);
  const code = await placeOrder(page, ["21"]);
  await page.goto("/my-mixtapes");
  await card(page, code).getByRole("link", { name: "Cancel Order" }).click();
  const confirm = card(page, code).getByTestId("cancel-confirm");
  await expect(confirm.getByRole("heading", { name: `Cancel order ${code}?` })).toBeVisible();
  await confirm.getByRole("link", { name: "Keep it" }).click();
  await expect(card(page, code).getByTestId("cancel-confirm")).toHaveCount(0);
  await expect(card(page, code).getByTestId("order-status")).toHaveText("Status: Received");
  await card(page, code).getByRole("link", { name: "Cancel Order" }).click();
  await card(page, code).getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(card(page, code).getByTestId("order-answer")).toHaveText(`Order ${code} is now Cancelled`);
  await expect(card(page, code).getByTestId("order-status")).toHaveText("Status: Cancelled");
  await expect(card(page, code).getByRole("link", { name: "Cancel Order" })).toHaveCount(0);
  await waitForMail(shop.dataDir, MIXER.email, (mail) => mail.subject === `Order ${code} cancelled`);
});

test("the mixer cancels a paid order with a reason, then refunds it in two parts; the shopper sees what is pending, then the refund", async ({
  page,
  browser,
  baseURL,
  shop,
}, testInfo) => {
  const shopper = shopperFor(testInfo, 1);
  await logIn(page, shopper.email);
  const code = await placeOrder(page, ["22"]);
  const mixer = await mixerPage(browser, testInfo, baseURL);
  const m = mixer.page;
  let order = await consoleCard(m, code);
  await markPaidOnCard(order, "12.00");
  await expectCardAnswer(m, `Payment of $12.00 recorded for ${code}`);
  await expect(order.getByTestId("order-paid")).toHaveText("Paid $12.00");
  await order.getByText("Cancel Order").first().click(); // opens the disclosure
  await order.getByLabel("Reason").fill("The tape deck broke, sorry!");
  await order.getByRole("button", { name: "Cancel Order" }).click();
  await expectCardAnswer(m, `Order ${code} is now Cancelled`);
  order = await consoleCard(m, code);
  await expect(order.getByTestId("order-status")).toHaveText("Status: Cancelled");
  await expect(order.getByTestId("order-refund-due")).toHaveText("Refund due $12.00");
  await expect(order.getByTestId("order-cancelled")).toContainText("The tape deck broke, sorry!");

  await page.goto("/my-mixtapes");
  await expect(card(page, code).getByTestId("order-refund-due")).toHaveText("Refund pending $12.00");
  const told = await waitForMail(shop.dataDir, shopper.email, (mail) => mail.subject === `Order ${code} cancelled`);
  expect(told.text).toContain("The tape deck broke, sorry!");

  // The whole due amount is offered behind "Refund by hand", its button naming it; the mixer gives back part of it first.
  await order.getByTestId("refund-by-hand").getByText("Refund by hand", { exact: true }).click();
  await expect(order.getByTestId("refund-by-hand").getByLabel("Amount (USD)")).toHaveValue("12.00");
  await expect(order.getByRole("button", { name: "Refund $12.00" })).toBeVisible();
  await refundByHand(m, order, "2", "$2.00", testInfo);
  await expectCardAnswer(m, `Refund of $2.00 recorded for ${code}`);
  order = await consoleCard(m, code);
  await expect(order.getByTestId("order-refunded")).toHaveText("Refunded $2.00 of $12.00");
  await expect(order.getByTestId("order-refund-due")).toHaveText("Refund due $10.00");
  // A card renders a refund's form once it is opened: the order's page holds it.
  await m.goto(`/mixer/orders/${code}`);
  await expect(order.getByTestId("refund-by-hand").getByLabel("Amount (USD)")).toHaveValue("10.00");
  await refundByHand(m, order, "10.00", "$10.00", testInfo);
  await expectCardAnswer(m, `Refund of $10.00 recorded for ${code}`);
  order = await consoleCard(m, code);
  await expect(order.getByTestId("order-refunded")).toHaveText("Refunded $12.00");
  await expect(order.getByTestId("order-refund-due")).toHaveCount(0);
  await page.goto("/my-mixtapes");
  await expect(card(page, code).getByTestId("order-refunded")).toHaveText("Refunded $12.00");
  // The newest mark by hand can be undone for a while: its email waits for that (the ledger's contract tests it).
  await expect(order.getByTestId("undo-mark")).toContainText("Undo: refunded $10.00 by hand");
  await mixer.close();
});

test("the ledger: every movement with its amount, filters, a payment without an order attached by its code, and the CSV", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const shopper = shopperFor(testInfo, 1);
  await logIn(page, shopper.email);
  const code = await placeOrder(page, ["24"]);
  const stripe = (id: string, type: string, object: object) => {
    const payload = JSON.stringify({ id, object: "event", type, data: { object } });
    return page.request.post("/webhooks/stripe", {
      data: payload,
      headers: {
        "content-type": "application/json",
        "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET }),
      },
    });
  };
  const session = { amount_total: 1200, currency: "usd", payment_status: "paid" };
  // Paid, refunded in part; then a second payment whose code the shopper mistyped.
  expect(
    (
      await stripe(`evt_l1_${code}`, "checkout.session.completed", {
        ...session,
        client_reference_id: code,
        payment_intent: `pi_l1_${code}`,
      })
    ).status(),
  ).toBe(200);
  expect(
    (
      await stripe(`evt_l2_${code}`, "charge.refunded", {
        amount_refunded: 100,
        currency: "usd",
        payment_intent: `pi_l1_${code}`,
      })
    ).status(),
  ).toBe(200);
  expect(
    (
      await stripe(`evt_l3_${code}`, "checkout.session.completed", {
        ...session,
        amount_total: 500,
        client_reference_id: ` ${code.slice(0, 7)}?`,
        payment_intent: `pi_l3_${code}`,
      })
    ).status(),
  ).toBe(200);

  const mixer = await mixerPage(browser, testInfo, baseURL);
  const m = mixer.page;
  await m.goto("/mixer/payments");
  await expect(m.getByRole("heading", { name: "Payments", level: 1 })).toBeVisible();
  const rows = m.getByTestId("ledger-row").filter({ hasText: `pi_l` });
  await expect(rows.filter({ hasText: `pi_l1_${code}` }).filter({ hasText: "Payment" })).toContainText("+$12.00");
  await expect(rows.filter({ hasText: "Refund" })).toContainText("−$1.00");
  // The stray payment waits without an order; attached by its code, it lands on the order.
  await m.getByRole("link", { name: "Without an order" }).click();
  const stray = m.getByTestId("payment").filter({ hasText: `pi_l3_${code}` });
  await expect(stray).toContainText("$5.00");
  await stray.getByLabel("Order code").fill(code);
  await stray.getByRole("button", { name: "Attach" }).click();
  await expectToast(m, `Payment attached to ${code}`);
  await expect(m.getByTestId("payment").filter({ hasText: `pi_l3_${code}` })).toHaveCount(0);
  // A second payment is due back, until the mixer keeps it.
  await m.getByRole("link", { name: "Refund due" }).click();
  const second = m.getByTestId("ledger-row").filter({ hasText: `pi_l3_${code}` });
  await expect(second).toContainText(code);
  let order = await consoleCard(m, code);
  await expect(order.getByTestId("order-refund-due")).toHaveText("Refund due $5.00");
  await m.goto("/mixer/payments?filter=due");
  await m
    .getByTestId("ledger-row")
    .filter({ hasText: `pi_l3_${code}` })
    .getByRole("button", { name: "Keep payment" })
    .click();
  await expectToast(m, "Payment kept: it is no longer due back.");
  order = await consoleCard(m, code);
  await expect(order.getByTestId("order-refund-due")).toHaveCount(0);
  await expect(order.getByTestId("order-refunded")).toHaveText("Refunded $1.00 of $17.00");

  // Every movement as payments.csv.
  await m.goto("/mixer/payments");
  const [download] = await Promise.all([m.waitForEvent("download"), m.getByRole("link", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("payments.csv");
  const csv = fs.readFileSync((await download.path())!, "utf8");
  expect(csv.split("\n")[0]).toBe(
    "time,provider,kind,amount,currency,reference,order code,code given,marked by hand by,dispute status,dispute reason,refunded total so far,kept,test,to check,extra payment",
  );
  expect(csv).toContain(`,stripe,payment,12.00,USD,pi_l1_${code},${code},${code},`);
  expect(csv).toContain(`,stripe,refund,-1.00,USD,pi_l1_${code},${code},,,,,yes,`);
  expect(csv).toContain(`,stripe,payment,5.00,USD,pi_l3_${code},${code},${code.slice(0, 7)}?,,,,,yes`);
  await mixer.close();
});

test("an order past its due date shows as late in the console, under the Late filter; My Mixtapes says when it is expected", async ({
  page,
  browser,
  baseURL,
  shop,
}, testInfo) => {
  const shopper = shopperFor(testInfo, 2);
  await logIn(page, shopper.email);
  const code = await placeOrder(page, ["23"]);
  await page.goto("/my-mixtapes");
  await expect(card(page, code).getByTestId("order-expected")).toContainText("Expected by ");
  // Six days ago, in the test's own database (the server stopped meanwhile).
  await shop.server.stop();
  const db = new PGlite(path.join(shop.dataDir, "pgdata"));
  await db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(`update public.mixtapes set created_at = now() - interval '6 days' where code = $1`, [code]);
  });
  await db.close();
  await shop.restart();

  const mixer = await mixerPage(browser, testInfo, baseURL);
  const m = mixer.page;
  const order = await consoleCard(m, code);
  await expect(order.getByTestId("order-late")).toHaveText("Late");
  await expect(order.getByTestId("order-due")).toContainText("Due ");
  await m.goto("/mixer");
  await m
    .getByRole("navigation", { name: "Show orders" })
    .getByRole("link", { name: /^Late \d+$/ })
    .click();
  await expect(m).toHaveURL(/\/mixer\?filter=late$/);
  await expect(m.getByTestId("queue-order").filter({ hasText: code })).toHaveCount(1);
  await mixer.close();
});
