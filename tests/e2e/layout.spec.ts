// Every screen fits from 360 px phones to 1440 px desktops without horizontal
// scrolling, the deck stays reachable at every width, and all four cover designs show.
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
  test(`no horizontal scrolling at ${width} px on any screen; a full deck says so, its bar in reach`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/auth");
    await noHorizontalScroll(page, "/auth");
    await page.goto("/auth?mode=signup");
    await noHorizontalScroll(page, "/auth?mode=signup");
    await signUpAndConfirm(page);
    await addSongs(page, ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    await expect(page.locator("#deck")).not.toHaveAttribute("aria-busy", "true");
    await noHorizontalScroll(page, "/ full");
    // A full deck says so in words, in the deck and in the library (the tooltip stays).
    const full = "Mixtape full: remove a track to add another";
    await expect(page.getByTestId("deck-full")).toHaveText(full);
    await expect(page.getByTestId("library-full")).toHaveText(full);
    await expect(page.locator("#song-25").getByRole("button", { name: /^Add to Mixtape/ })).toHaveAttribute(
      "title",
      "Mixtape full",
    );
    await page.locator("#song-25").scrollIntoViewIfNeeded();
    await expect(page.getByTestId("library-full")).toBeInViewport();
    // Down at the designs, the sticky bar (a dock on a desktop) keeps the count and Review Order in reach.
    await page.locator("#designs").scrollIntoViewIfNeeded();
    const bar = page.getByTestId("deck-bar");
    await expect(bar).toBeInViewport();
    await expect(bar).toContainText("Tracks Loaded: 10 / 10");
    await expect(bar.getByRole("button", { name: "Review Order" })).toBeInViewport();
    // Deck titles wrap instead of being cut.
    const cut = await page
      .getByTestId("deck-track-title")
      .evaluateAll((els) =>
        els.filter((e) => e.scrollWidth > e.clientWidth || getComputedStyle(e).whiteSpace === "nowrap").map((e) => e.textContent),
      );
    expect(cut).toEqual([]);
    await page.goto("/review");
    await noHorizontalScroll(page, "/review");
    await page.goto("/my-mixtapes");
    await noHorizontalScroll(page, "/my-mixtapes");
    await page.goto("/nowhere");
    await noHorizontalScroll(page, "404");
  });
}

test("all four cover designs are on screen at 360, 390, 768 and 1280 px, a chosen one included", async ({ page }) => {
  await signUpAndConfirm(page);
  await page.getByRole("button", { name: "Choose design: unicorn mix" }).click();
  await expect(page.getByRole("button", { name: "Choose design: unicorn mix" })).toHaveAttribute("aria-pressed", "true");
  for (const width of [360, 390, 768, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    const designs = page.locator("#designs").getByRole("button", { name: /^Choose design: / });
    await expect(designs).toHaveCount(4);
    // The section comes into view once; nothing is scrolled sideways to find a design.
    await page.locator("#designs").scrollIntoViewIfNeeded();
    for (const design of await designs.all()) {
      const box = (await design.boundingBox())!;
      expect(box.x, `${width} px: ${await design.getAttribute("aria-label")}`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${width} px: ${await design.getAttribute("aria-label")}`).toBeLessThanOrEqual(width);
    }
    await noHorizontalScroll(page, `/ at ${width} px`);
  }
});
