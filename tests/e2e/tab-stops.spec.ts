// Keyboard reach on the storefront: from the first song to Review Order takes about as many Tab
// stops without JavaScript as with it (the browser's own audio controls took three a song), and
// every preview still plays without JavaScript, behind a disclosure (docs/decisions/029-preview-disclosure.md).
import type { Page } from "@playwright/test";
import { addSongs, expect, jsEnabled, signUpAndConfirm, test, waitForScripts } from "./fixtures";
import { viewport, WIDTHS } from "./in-view-support";

/** Tab presses from the first song's first control to the deck's Review Order, and how many of them were in the songs. */
async function tabsToReview(page: Page) {
  const first = page.getByTestId("song-card").first().locator("button, a, audio, summary").filter({ visible: true }).first();
  await first.focus();
  await expect(first).toBeFocused();
  let stops = 0;
  let inLibrary = 0;
  for (; stops < 400; stops++) {
    const where = await page.evaluate(() => {
      const el = document.activeElement;
      return { review: !!el?.matches("#deck [data-review-order]"), song: !!el?.closest("[data-testid=song-card]") };
    });
    if (where.review) break;
    if (where.song) inLibrary++;
    await page.keyboard.press("Tab");
  }
  return { stops, inLibrary };
}

test("from the first song to Review Order: two Tab stops a song, with JavaScript and without, at 390 and 1280 px", async ({
  page,
}, testInfo) => {
  await signUpAndConfirm(page, "tabs");
  await addSongs(page, ["2"]);
  for (const width of WIDTHS) {
    await page.setViewportSize(viewport(width));
    await page.goto("/");
    // Hydrated: the play buttons stand where the disclosures were (a focus before that would be lost in the swap).
    if (jsEnabled(testInfo)) {
      await waitForScripts(page);
      await expect(page.getByTestId("song-card").first().locator("button[aria-pressed]")).toBeVisible();
    }
    const songs = await page.getByTestId("song-card").count();
    const { stops, inLibrary } = await tabsToReview(page);
    testInfo.annotations.push({ type: "Tab stops", description: `${width} px: ${stops} (${inLibrary} in ${songs} songs)` });
    // A preview and Add to Mixtape: two stops a song (one Add is disabled, its song in the deck), as with JavaScript.
    expect(inLibrary, `${width} px: stops in the song library`).toBeLessThanOrEqual(2 * songs);
    expect(stops, `${width} px: stops to Review Order`).toBeLessThanOrEqual(2 * songs + 20);
  }
});

test("every preview still plays: the play button with JavaScript; without it, the browser's player behind a disclosure", async ({
  page,
}, testInfo) => {
  await signUpAndConfirm(page, "tabplay");
  for (const width of WIDTHS) {
    await page.setViewportSize(viewport(width));
    await page.goto("/");
    const card = page.locator("#song-3");
    if (jsEnabled(testInfo)) {
      await waitForScripts(page);
      await expect(card.getByTestId("preview-3")).toHaveAccessibleName("Play preview: Neon Curfew");
      await card.getByTestId("preview-3").click();
      await expect(card.getByTestId("preview-3")).toHaveAttribute("aria-pressed", "true");
      await card.getByRole("button", { name: "Pause preview: Neon Curfew" }).click();
      continue;
    }
    const player = card.locator("audio");
    await expect(player).toBeHidden();
    const opener = card.getByTestId("preview-3-open");
    await opener.focus();
    await page.keyboard.press("Enter");
    await expect(player).toBeVisible();
    await expect(player).toHaveAttribute("controls", "");
    // Opened, the player is the next Tab stop, and Add to Mixtape is still in the card's reach.
    await page.keyboard.press("Tab");
    await expect(player).toBeFocused();
    await expect(card.getByRole("button", { name: "Add to Mixtape: Neon Curfew" })).toBeVisible();
    await player.evaluate((audio: HTMLAudioElement) => {
      audio.muted = true;
      return audio.play();
    });
    await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime)).toBeGreaterThan(0);
    await opener.click();
    await expect(player).toBeHidden();
  }
});
