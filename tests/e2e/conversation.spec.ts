// Every order has a page and a conversation, and the console shows the shop at
// a glance. The shopper and the mixer talk about one order from its pages, by email and on
// the site; another shopper gets the 404 page; insights count the order in this week's bar.
import type { Page } from "@playwright/test";
import {
  addSongs,
  expect,
  generateCode,
  jsEnabled,
  openReview,
  readMail,
  signInAsMixer,
  signUpAndConfirm,
  test,
  expectToast,
} from "./fixtures";

const ASK = "Can you add a shout-out for Sam?";
const REPLY = "Which version of track 3?\nThe long one or the radio edit?";

/** This week's orders in the insights' data table (its last row). */
async function ordersThisWeek(m: Page): Promise<number> {
  await m.goto("/mixer/insights");
  const chart = m.getByTestId("chart-orders");
  await expect(chart.getByRole("heading", { name: "Orders per week" })).toBeVisible();
  await chart.getByText("Show the data").click();
  const row = chart.getByRole("table").locator("tbody tr").last();
  await expect(row).toBeVisible();
  return Number(await row.locator("td").first().textContent());
}

/** Types a message and sends it; it shows in the timeline, delivered. */
async function sendMessage(page: Page, text: string) {
  await page.getByLabel("Message", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const sent = page.getByTestId("timeline-message").filter({ hasText: text.split("\n")[0] });
  await expect(sent).toHaveCount(1);
  await expect(sent).not.toHaveAttribute("aria-busy", "true");
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue("");
  return sent;
}

test.describe("Order pages, messages and insights", () => {
  test("the shopper asks from the order's page, the mixer sees it unread and replies, the shopper reads the reply; nobody else sees the order", async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(150_000);
    const mixerContext = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
    const m = await mixerContext.newPage();
    const mixer = await signInAsMixer(m, testInfo);
    const before = await ordersThisWeek(m);

    // The shopper places an order and opens its page from My Mixtapes.
    const shopper = await signUpAndConfirm(page, "talk");
    await addSongs(page, ["3", "8"]);
    await openReview(page);
    const code = await generateCode(page);
    await page.getByRole("button", { name: "Transmit Order" }).click();
    await expectToast(page, "Order Submitted!");
    await page.getByRole("link", { name: "My Mixtapes" }).first().click();
    await page.getByTestId("order-card").filter({ hasText: code }).getByRole("link", { name: code }).click();
    await expect(page).toHaveURL(new RegExp(`/my-mixtapes/${code}$`));
    await expect(page.getByRole("heading", { name: `Order ${code}`, level: 1 })).toBeVisible();
    await expect(page.getByTestId("order-tracks").locator("li")).toHaveCount(2);
    await expect(page.getByTestId("order-pay")).toHaveAttribute("href", `https://example.com/checkout?code=${code}`);
    await expect(page.getByTestId("timeline-event").first()).toContainText("Order placed");
    await expect(page.getByRole("heading", { name: "Send a message" })).toBeVisible();

    if (jsEnabled(testInfo)) {
      // A request that fails keeps the text in the box, with the reason.
      const path = `/my-mixtapes/${code}.data`;
      await page.route(
        (url) => url.pathname === path,
        (route) => (route.request().method() === "POST" ? route.abort() : route.continue()),
      );
      await page.getByLabel("Message", { exact: true }).fill(ASK);
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await expect(page.getByTestId("message-error")).toHaveText(
        "The message was not sent. Check your connection and try again.",
      );
      await expect(page.getByLabel("Message", { exact: true })).toHaveValue(ASK);
      await expect(page.getByTestId("timeline-message")).toHaveCount(0);
      await page.unrouteAll();
    }
    await sendMessage(page, ASK);
    await expect(page.getByTestId("message-error")).toHaveCount(0);

    // The mixer: the unread count in the header and on the card, and an email.
    const notice = await readMail(mixer.email, (mail) => mail.subject === `Message about ${code}`);
    expect(notice.text).toContain(ASK);
    expect(notice.text).toContain(`/mixer/orders/${code}`);
    await m.goto(`/mixer?q=${code}`);
    const card = m.getByTestId("queue-order");
    await expect(card.getByTestId("order-unread")).toHaveText("Messages: 1");
    await expect(m.getByTestId("console-messages")).toHaveText(/^Messages: [1-9]\d*$/);
    await card.getByTestId("order-unread").click();
    await expect(m).toHaveURL(new RegExp(`/mixer/orders/${code}#messages$`));
    await expect(m.getByTestId("order-shopper")).toContainText(shopper.username);
    await expect(m.getByTestId("order-shopper")).toContainText(shopper.email);
    await expect(m.getByTestId("timeline-message").filter({ hasText: ASK })).toContainText(shopper.username);
    // Every console action that applies is here too.
    await m.getByRole("button", { name: "Start Mixing" }).click();
    await expect(m.getByTestId("order-status")).toHaveText("Status: Mixing");
    await expect(m.getByTestId("timeline-event").filter({ hasText: "Mixing started" })).toHaveCount(1);
    await sendMessage(m, REPLY);
    await m.goto(`/mixer?q=${code}`);
    await expect(m.getByTestId("queue-order").getByTestId("order-unread")).toHaveCount(0);

    // The shopper: a reply not seen yet on My Mixtapes, the reply on the page, and by email.
    const mail = await readMail(shopper.email, (mail) => mail.subject === `Message about ${code}`);
    expect(mail.text).toContain("Which version of track 3?");
    expect(mail.text).toContain(`/my-mixtapes/${code}`);
    await page.goto("/my-mixtapes");
    const mine = page.getByTestId("order-card").filter({ hasText: code });
    await mine.getByTestId("order-new-reply").click();
    await expect(page).toHaveURL(new RegExp(`/my-mixtapes/${code}#messages$`));
    const reply = page.getByTestId("timeline-message").filter({ hasText: "Which version of track 3?" });
    await expect(reply).toContainText("DJ Aika");
    await expect(reply.getByTestId("message-body")).toHaveText(REPLY);
    await page.goto("/my-mixtapes");
    await expect(mine.getByTestId("order-new-reply")).toHaveCount(0);

    // Another shopper: the ordinary 404 page, for a look and for a message alike.
    const otherContext = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
    const other = await otherContext.newPage();
    await signUpAndConfirm(other, "nosy");
    for (const path of [`/my-mixtapes/${code}`, "/my-mixtapes/ZZZZ9999", "/my-mixtapes/not-a-code", `/mixer/orders/${code}`]) {
      expect((await other.goto(path))?.status(), path).toBe(404);
      await expect(other.getByTestId("error-heading")).toHaveText("Oops! Page not found");
    }
    const post = await other.request.post(`/my-mixtapes/${code}`, { form: { intent: "message", body: "hi" }, maxRedirects: 0 });
    expect(post.status()).toBe(404);
    await otherContext.close();

    // Insights: the order is in this week's bar.
    expect(await ordersThisWeek(m)).toBeGreaterThanOrEqual(before + 1);
    await expect(m.getByTestId("week-bars").last()).toBeAttached();
    await mixerContext.close();
  });
});
