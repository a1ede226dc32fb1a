// The order lifecycle: the shopper pays after ordering and follows the order; the
// mixer runs the shop from /mixer. Every step with JavaScript and without it.
import fs from "node:fs/promises";
import type { Browser, Page, TestInfo } from "@playwright/test";
import {
  addSongs,
  expect,
  expectCardAnswer,
  expectToast,
  generateCode,
  jsEnabled,
  openReview,
  postsSettled,
  readMail,
  refundByHand,
  signInAsMixer,
  signUpAndConfirm,
  test,
  trackPosts,
  markPaidOnCard,
  markSentOnCard,
} from "./fixtures";

/** A shopper's order of songs 5 and 6 with a note; returns its code. */
async function placeOrder(page: Page, note: string) {
  await addSongs(page, ["5", "6"]);
  const note_ = page.getByLabel("Message to DJ Aika (Special instructions)");
  await note_.fill(note);
  await page.getByRole("button", { name: "Save options" }).click();
  await postsSettled(page);
  await openReview(page);
  const code = await generateCode(page);
  await page.getByRole("button", { name: "Transmit Order" }).click();
  await expectToast(page, "Order Submitted!");
  return code;
}

async function mixerPage(browser: Browser, testInfo: TestInfo) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
  const page = await context.newPage();
  await signInAsMixer(page, testInfo);
  return { page, close: () => context.close() };
}

/** The console card of one order, found through the "Order code" search. */
async function findOrder(page: Page, code: string) {
  await page.goto("/mixer");
  await expect(page.getByRole("heading", { name: "Mixer Console", level: 1 })).toBeVisible();
  await page.getByLabel("Order code").fill(code);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`/mixer\\?q=${code}$`));
  const card = page.getByTestId("queue-order");
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("order-code")).toHaveText(code);
  return card;
}

test.describe("Order lifecycle", () => {
  test("the shopper pays after ordering; the mixer mixes, marks paid and sends; the shopper sees it all", async ({
    page,
    browser,
  }, testInfo) => {
    const shopper = await signUpAndConfirm(page, "buyer");
    const code = await placeOrder(page, "Turn it up!");

    // The landing page: the code and a pay link for this order.
    await expect(page).toHaveURL(new RegExp(`/\\?placed=${code}$`));
    await expect(page.getByTestId("placed-code")).toHaveText(code);
    const pay = page.getByTestId("placed-order").getByRole("link", { name: "Pay now" });
    await expect(pay).toHaveAttribute("href", `https://example.com/checkout?code=${code}`);
    await expect(pay).toHaveAttribute("target", "_blank");
    await page.getByRole("link", { name: "My Mixtapes" }).first().click();
    const card = page.getByTestId("order-card").filter({ hasText: code });
    await expect(card.getByTestId("order-status")).toHaveText("Status: Received");
    await expect(card.getByRole("link", { name: "Pay now" })).toHaveAttribute(
      "href",
      `https://example.com/checkout?code=${code}`,
    );

    // The receipt: the code in the subject; the tracks, total, delivery and pay link inside.
    const receipt = await readMail(shopper.email, (mail) => mail.subject.includes(code));
    expect(receipt.subject).toContain(code);
    for (const text of [
      "Concrete Lullaby",
      "Midnight Dub Relay",
      "$10+",
      "3–5 days",
      `https://example.com/checkout?code=${code}`,
    ]) {
      expect(receipt.text).toContain(text);
    }

    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    await expect(m.getByRole("link", { name: "Mixer Console" })).toBeVisible();
    // Every mixer got "New order CODE" with a link to its page in the console.
    const notice = await readMail(`mixer.${testInfo.project.name}@example.com`, (mail) => mail.subject.includes(code));
    expect(notice.subject).toBe(`New order ${code}`);
    expect(notice.text).toContain(`/mixer/orders/${code}`);

    let order = await findOrder(m, code);
    await expect(order.getByTestId("order-shopper")).toContainText(shopper.username);
    await expect(order.getByTestId("order-shopper")).toContainText(shopper.email);
    await expect(order.getByTestId("order-note")).toHaveText("Turn it up!");
    await expect(order.getByTestId("order-tracks").locator("li")).toHaveCount(2);
    await expect(order.getByTestId("order-status")).toHaveText("Status: Received");
    await expect(order.getByTestId("order-paid")).toHaveText("Unpaid");

    await order.getByRole("button", { name: "Start Mixing" }).click();
    await expect(order.getByTestId("order-status")).toHaveText("Status: Mixing");
    await markPaidOnCard(order);
    await expect(order.getByTestId("order-paid")).toHaveText("Paid $10.00");
    await expect(order.getByRole("button", { name: "Mark Paid" })).toHaveCount(0);
    await markSentOnCard(order, { link: `https://tapes.example/${code}`, message: "Blended at 3 a.m. Play it loud." });
    await expect(order.getByTestId("order-status")).toHaveText("Status: Sent");
    order = await findOrder(m, code); // the same after a reload
    await expect(order.getByTestId("order-status")).toHaveText("Status: Sent");
    // The mixer's own words: what was sent, and the delivery link (behind the card's disclosure).
    await order.getByTestId("order-track-count").click();
    await expect(order.getByTestId("order-sent-message")).toHaveText("Blended at 3 a.m. Play it loud.");
    await expect(order.getByRole("link", { name: `https://tapes.example/${code}` })).toHaveAttribute(
      "href",
      `https://tapes.example/${code}`,
    );

    await page.goto("/my-mixtapes");
    await expect(card.getByTestId("order-status")).toHaveText("Status: Sent");
    await expect(card.getByTestId("order-paid")).toHaveText("Paid $10.00");
    await expect(card.getByTestId("order-delivery")).toContainText("Blended at 3 a.m. Play it loud.");
    await expect(card.getByRole("link", { name: "Listen to your tape" })).toHaveAttribute(
      "href",
      `https://tapes.example/${code}`,
    );
    // The sent email: the mixer's message and the delivery link.
    const sent = await readMail(shopper.email, (mail) => mail.subject === `Your tape is ready: ${code}`);
    expect(sent.text).toContain("Blended at 3 a.m. Play it loud.");
    expect(sent.text).toContain(`https://tapes.example/${code}`);
    await mixer.close();
  });

  test("a double click on Mark Paid records one payment and never a refund; its undo brings Mark Paid back", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "double");
    const code = await placeOrder(page, "");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    trackPosts(m);
    let order = await findOrder(m, code);
    // Where Mark Paid is within its card: a person's second click lands there again, a second later.
    await order.getByText("Mark paid by hand").click();
    const markPaid = order.getByRole("button", { name: "Mark Paid" });
    const [spot, first] = [(await markPaid.boundingBox())!, (await order.boundingBox())!];
    const within = { x: spot.x - first.x + spot.width / 2, y: spot.y - first.y + spot.height / 2 };
    await markPaid.click();
    await expectCardAnswer(m, `Payment of $10.00 recorded for ${code}`);
    order = m.getByTestId("queue-order").filter({ hasText: code });
    const now = (await order.boundingBox())!;
    await m.mouse.click(now.x + within.x, now.y + within.y);
    await m.waitForLoadState();
    await postsSettled(m);
    // The second click only opened the undo, standing where Mark Paid stood: nothing was refunded.
    await expect(order.getByTestId("order-paid")).toHaveText("Paid $10.00");
    await expect(order.getByTestId("order-refunded")).toHaveCount(0);
    const undo = order.getByTestId("undo-mark");
    await expect(undo.getByText("Undo: paid $10.00 by hand")).toBeVisible();
    await m.goto(`/mixer/payments`);
    await expect(m.getByTestId("ledger-row").filter({ hasText: code })).toHaveCount(1);
    order = await findOrder(m, code);
    if (!(await undo.evaluate((d) => (d as HTMLDetailsElement).open))) await undo.getByText("Undo: paid $10.00 by hand").click();
    await undo.getByRole("button", { name: "Undo the payment of $10.00" }).click();
    await expectCardAnswer(m, `Mark undone for ${code}`);
    await expect(order.getByTestId("order-paid")).toHaveText("Unpaid");
    await expect(order.getByText("Mark paid by hand")).toBeVisible();
    // Marked again, then a refund by hand, behind its disclosure, its button naming the amount.
    await markPaidOnCard(order, "12.00");
    await expectCardAnswer(m, `Payment of $12.00 recorded for ${code}`);
    await refundByHand(m, order, "2", "$2.00", testInfo);
    await expectCardAnswer(m, `Refund of $2.00 recorded for ${code}`);
    await expect(order.getByTestId("order-refunded")).toHaveText("Refunded $2.00 of $12.00");
    await mixer.close();
  });

  test("the console refuses bad input with a message and keeps what was typed; a replay says the order was already updated", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "buyer");
    const code = await placeOrder(page, "");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    const order = await findOrder(m, code);
    await order.getByRole("button", { name: "Start Mixing" }).click();
    await expect(order.getByTestId("order-status")).toHaveText("Status: Mixing");
    // A bad delivery link: a clear message, the message typed is still there.
    await markSentOnCard(order, { link: "http://not-secure.example/tape", message: "Keep this text" });
    await expectToast(m, "The delivery link must be an https:// address, without spaces or control characters.");
    await expect(order.getByTestId("order-status")).toHaveText("Status: Mixing");
    await expect(order.getByLabel("Message to the shopper")).toHaveValue("Keep this text");
    await expect(order.getByLabel("Delivery link")).toHaveValue("http://not-secure.example/tape");
    // Another mixer (a replayed form) got there first.
    const replay = await m.request.post(`/mixer?q=${code}`, { form: { intent: "start-mixing", code }, maxRedirects: 0 });
    expect(replay.status()).toBe(409);
    expect(await replay.text()).toContain("This order was already updated.");
    await mixer.close();
  });

  test("a shopper who opens /mixer, or replays a mixer's form, gets the 404 page and changes nothing", async ({ page }) => {
    await signUpAndConfirm(page, "nosy");
    const code = await placeOrder(page, "");
    await expect(page.getByRole("link", { name: "Mixer Console" })).toHaveCount(0);
    const get = await page.goto("/mixer");
    expect(get?.status()).toBe(404);
    await expect(page.getByTestId("error-heading")).toHaveText("Oops! Page not found");
    for (const form of [
      { intent: "start-mixing", code } as Record<string, string>,
      { intent: "mark-paid", code, amount: "10.00", currency: "USD", token: "replayed-token-1" },
    ]) {
      const post = await page.request.post("/mixer", { form, maxRedirects: 0 });
      expect(post.status()).toBe(404);
    }
    expect((await page.request.get("/mixer/orders.csv")).status()).toBe(404);
    await page.goto("/my-mixtapes");
    const card = page.getByTestId("order-card").filter({ hasText: code });
    await expect(card.getByTestId("order-status")).toHaveText("Status: Received");
    await expect(card.getByRole("link", { name: "Pay now" })).toBeVisible();
  });

  test("filters are links, and Export CSV downloads the filter's orders as orders.csv", async ({ page, browser }, testInfo) => {
    await signUpAndConfirm(page, "csv");
    const code = await placeOrder(page, '=HYPERLINK("http://evil")');
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    await m.goto("/mixer");
    // Each filter says how many orders it holds: "Unpaid 3".
    const filter = (name: string) =>
      m.getByRole("navigation", { name: "Show orders" }).getByRole("link", { name: new RegExp(`^${name} \\d+$`) });
    for (const name of ["All", "Received", "Mixing", "Sent", "Cancelled", "Unpaid", "Late"]) {
      await expect(filter(name)).toBeVisible();
    }
    await filter("Unpaid").click();
    await expect(m).toHaveURL(/\/mixer\?filter=unpaid$/);
    await expect(filter("Unpaid")).toHaveAttribute("aria-current", "page");
    const download = m.waitForEvent("download");
    await m.getByRole("link", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("orders.csv");
    const csv = await fs.readFile((await file.path())!, "utf8");
    expect(csv.split("\n")[0]).toBe(
      "code,placed at,shopper,email,status,currency,paid,refunded,disputed,net,refund due,payments,cancelled,due,tracks,design,options,note",
    );
    const line = csv.split("\n").find((l) => l.startsWith(code))!;
    expect(line).toMatch(
      /,received,,,,,,,0,,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,1\. Concrete Lullaby; 2\. Midnight Dub Relay/,
    );
    // The note cannot become a formula in a spreadsheet.
    expect(line).toContain(`"'=HYPERLINK(""http://evil"")"`);
    await mixer.close();
  });
});
