// /my-mixtapes a page at a time: 20 orders a page, newest first, plain Newer/Older links carrying
// the console's cursor (?after= / ?before=) that work with JavaScript and without it; and an order
// cancelled from its own page.
import type { APIRequestContext } from "@playwright/test";
import { expect, signUpAndConfirm, test } from "./fixtures";

/** One order through the same form posts a browser without JavaScript sends; its code. */
async function placeOrder(request: APIRequestContext, songId: string): Promise<string> {
  const post = (path: string, form: Record<string, string>) => request.post(path, { form, maxRedirects: 0 });
  expect((await post("/", { intent: "add", songId })).status()).toBe(303);
  expect((await post("/review", { intent: "generate-code" })).status()).toBe(303);
  const review = await (await request.get("/review")).text();
  const code = /data-testid="order-code"[^>]*>([A-Z0-9]{8})</.exec(review)?.[1];
  expect(code, "the review dialog shows the order code").toBeTruthy();
  expect((await post("/review", { intent: "transmit", code: code! })).status()).toBe(303);
  return code!;
}

test.describe("my mixtapes, a page at a time", () => {
  test("21 orders: 20 newest on the first page, the oldest on the second, links both ways; a cancel stays on its page", async ({
    page,
  }) => {
    await signUpAndConfirm(page, "pages");
    const codes: string[] = [];
    for (let i = 0; i < 21; i++) codes.push(await placeOrder(page.request, String((i % 30) + 1)));
    const newestFirst = [...codes].reverse();

    await page.goto("/my-mixtapes");
    const cards = page.getByTestId("order-card").getByTestId("order-code");
    await expect(cards).toHaveText(newestFirst.slice(0, 20));
    const pages = page.getByRole("navigation", { name: "Order pages" });
    await expect(pages.getByRole("link", { name: "Newer orders" })).toHaveCount(0);

    await pages.getByRole("link", { name: "Older orders" }).click();
    await expect(page).toHaveURL(/\/my-mixtapes\?after=[^&#]+$/);
    await expect(cards).toHaveText([codes[0]]);
    await expect(pages.getByRole("link", { name: "Older orders" })).toHaveCount(0);
    const second = page.url();

    // Cancelled from the second page, the answer lands on the second page.
    const oldest = page.getByTestId("order-card").filter({ has: page.getByText(codes[0], { exact: true }) });
    await oldest.getByRole("link", { name: "Cancel Order" }).click();
    await oldest.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(oldest.getByTestId("order-answer")).toHaveText(`Order ${codes[0]} is now Cancelled`);
    expect(page.url()).toBe(second);
    await expect(cards).toHaveText([codes[0]]);

    await pages.getByRole("link", { name: "Newer orders" }).click();
    await expect(page).toHaveURL(/\/my-mixtapes\?before=[^&#]+$/);
    await expect(cards).toHaveText(newestFirst.slice(0, 20));
    await expect(pages.getByRole("link", { name: "Newer orders" })).toHaveCount(0);
    await expect(pages.getByRole("link", { name: "Older orders" })).toHaveCount(1);
  });

  test("an edited or dead cursor, or an old page number, shows the first page", async ({ page }) => {
    await signUpAndConfirm(page, "pages");
    const code = await placeOrder(page.request, "4");
    for (const search of [
      "?page=5",
      "?page=abc",
      "?after=nonsense",
      "?after=0_2026-02-30T10:00:00.000000Z_1",
      "?before=1_9999-12-31T23:59:59.999999Z_999999999",
      "?after=0_1970-01-01T00:00:00.000000Z_1",
    ]) {
      const response = await page.goto(`/my-mixtapes${search}`);
      expect(response?.status(), search).toBe(200);
      await expect(page.getByTestId("order-card").getByTestId("order-code")).toHaveText([code]);
      await expect(page.getByRole("navigation", { name: "Order pages" })).toHaveCount(0);
    }
  });
});

test.describe("an order's own page", () => {
  test("the shopper cancels it there, after the same confirmation as on the list; the page says who cancelled", async ({
    page,
  }) => {
    await signUpAndConfirm(page, "cancel");
    const code = await placeOrder(page.request, "9");
    await page.goto(`/my-mixtapes/${code}`);
    const order = page.getByTestId("order-page");
    await order.getByRole("link", { name: "Cancel Order" }).click();
    const confirm = order.getByTestId("cancel-confirm");
    await expect(confirm.getByRole("heading", { name: `Cancel order ${code}?` })).toBeVisible();
    await expect(confirm.getByRole("link", { name: "Keep it" })).toBeFocused();
    await confirm.getByRole("link", { name: "Keep it" }).click();
    await expect(order.getByTestId("cancel-confirm")).toHaveCount(0);
    await expect(order.getByTestId("order-status")).toHaveText("Status: Received");

    await order.getByRole("link", { name: "Cancel Order" }).click();
    await order.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(order.getByTestId("order-answer")).toHaveText(`Order ${code} is now Cancelled`);
    await expect(page).toHaveURL(new RegExp(`/my-mixtapes/${code}$`));
    await expect(order.getByTestId("order-status")).toHaveText("Status: Cancelled");
    await expect(order.getByTestId("order-cancelled")).toContainText("Cancelled by you");
    await expect(order.getByRole("link", { name: "Cancel Order" })).toHaveCount(0);
    // The same rules: a cancelled order is not cancelled again, and the page's form cancels only the page's order.
    const again = await page.request.post(`/my-mixtapes/${code}`, { form: { intent: "cancel", code }, maxRedirects: 0 });
    expect(again.status()).toBe(409);
    const other = await placeOrder(page.request, "10");
    const elsewhere = await page.request.post(`/my-mixtapes/${code}`, {
      form: { intent: "cancel", code: other },
      maxRedirects: 0,
    });
    expect(elsewhere.status()).toBe(400);
  });
});
