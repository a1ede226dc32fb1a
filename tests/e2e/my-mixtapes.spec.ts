// /my-mixtapes a page at a time: 20 orders a page, newest first, plain ?page=N links
// that work with JavaScript and without it.
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
  test("21 orders: 20 newest on the first page, the oldest on the second, links both ways", async ({ page }) => {
    await signUpAndConfirm(page, "pages");
    const codes: string[] = [];
    for (let i = 0; i < 21; i++) codes.push(await placeOrder(page.request, String((i % 30) + 1)));
    const newestFirst = [...codes].reverse();

    await page.goto("/my-mixtapes");
    const cards = page.getByTestId("order-card").getByTestId("order-code");
    await expect(cards).toHaveText(newestFirst.slice(0, 20));
    const pages = page.getByRole("navigation", { name: "Order pages" });
    await expect(pages).toContainText("Page 1");
    await expect(pages.getByRole("link", { name: "Newer orders" })).toHaveCount(0);

    await pages.getByRole("link", { name: "Older orders" }).click();
    await expect(page).toHaveURL(/\/my-mixtapes\?page=2$/);
    await expect(cards).toHaveText([codes[0]]);
    await expect(pages).toContainText("Page 2");
    await expect(pages.getByRole("link", { name: "Older orders" })).toHaveCount(0);

    await pages.getByRole("link", { name: "Newer orders" }).click();
    await expect(page).toHaveURL(/\/my-mixtapes$/);
    await expect(cards).toHaveText(newestFirst.slice(0, 20));
  });

  test("a page past the last one, or not a page number, shows the first page", async ({ page }) => {
    await signUpAndConfirm(page, "pages");
    const code = await placeOrder(page.request, "4");
    for (const search of ["?page=5", "?page=abc", "?page=0"]) {
      await page.goto(`/my-mixtapes${search}`);
      await expect(page.getByTestId("order-card").getByTestId("order-code")).toHaveText([code]);
      await expect(page.getByRole("navigation", { name: "Order pages" })).toHaveCount(0);
    }
    await page.goto("/my-mixtapes?page=5");
    await expect(page).toHaveURL(/\/my-mixtapes$/);
  });
});
