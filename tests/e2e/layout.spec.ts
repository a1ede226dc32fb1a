// Issue 8: every screen fits from 360 px phones to 1440 px desktops without
// horizontal scrolling, and the deck stays reachable on phones.
import { addSongs, expect, signUpAndConfirm, test } from "./fixtures";
import type { Page } from "@playwright/test";

const noHorizontalScroll = async (page: Page, label: string) => {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, `${label}: page wider than the viewport`).toBeLessThanOrEqual(client);
};

for (const width of [360, 1440]) {
  test(`no horizontal scrolling at ${width} px on any screen`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/auth");
    await noHorizontalScroll(page, "/auth");
    await page.goto("/auth?mode=signup");
    await noHorizontalScroll(page, "/auth?mode=signup");
    await signUpAndConfirm(page);
    await addSongs(page, ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    await expect(page.locator("#deck")).not.toHaveAttribute("aria-busy", "true");
    await noHorizontalScroll(page, "/ full");
    if (width === 360) {
      // On phones the sticky bar keeps the deck and Review Order in reach.
      const bar = page.getByTestId("mobile-deck-bar");
      await expect(bar).toBeVisible();
      await expect(bar).toContainText("Tracks Loaded: 10 / 10");
      await expect(bar.getByRole("link", { name: "Review Order" })).toBeVisible();
    }
    await page.goto("/review");
    await noHorizontalScroll(page, "/review");
    await page.goto("/my-mixtapes");
    await noHorizontalScroll(page, "/my-mixtapes");
    await page.goto("/nowhere");
    await noHorizontalScroll(page, "404");
  });
}
