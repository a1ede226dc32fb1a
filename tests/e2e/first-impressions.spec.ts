// The front door that sells, the order's ending in view, and the console's
// card, with JavaScript and without. (Username login and the lasting notices are in
// auth.spec.ts and recovery.spec.ts, the review's steps in ordering.spec.ts, a full
// deck and the deck bar in layout.spec.ts.)
import type { Page } from "@playwright/test";
import {
  addSongs,
  expect,
  expectCardAnswer,
  generateCode,
  jsEnabled,
  openReview,
  signInAsMixer,
  signUpAndConfirm,
  test,
  markSentOnCard,
} from "./fixtures";

test("/auth sells before anyone signs up: the mixer, what you get, $10+, 3–5 days, the designs, a preview, the shop open", async ({
  page,
}, testInfo) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto("/auth");
    const door = page.getByTestId("front-door");
    await expect(page.locator("header")).toContainText("Underground Mixtape Shop", { ignoreCase: true });
    await expect(door.getByRole("heading", { level: 2 })).toHaveText(
      "Personal DJ mixtapes, blended by hand by DJ Aika and sent to you.",
    );
    await expect(door.getByTestId("front-shop")).toContainText("The shop is open");
    await expect(door.getByTestId("front-perks").locator("li")).toHaveText([
      "Up to 10 songs you pick from a library of 30",
      "A cover design and a codename for your tape",
      "Options: Add DJ Aika voice, Include Custom Intro, Add cassette noise",
      "A personal note to DJ Aika",
    ]);
    await expect(door.getByTestId("front-total")).toHaveText("$10+");
    await expect(door.getByTestId("front-delivery")).toHaveText("3–5 days");
    await expect(door.getByTestId("front-designs").locator("figcaption")).toHaveText([
      "ice cold",
      "system burnout",
      "high voltage",
      "unicorn mix",
    ]);
    for (const img of await door.getByTestId("front-designs").locator("img").all())
      expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    // The spec's form, as it was: above on a phone, beside on a desktop (in view at once).
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("REBEL LOGIN");
    await expect(page.getByLabel("Email or Username")).toBeVisible();
    if (width === 1280) await expect(page.getByRole("button", { name: "Login" })).toBeInViewport();
  }
  // One preview plays: a button with JavaScript, the browser's own controls without.
  const preview = page.getByTestId("front-preview");
  await expect(preview).toContainText("Pirate Frequency");
  if (jsEnabled(testInfo)) {
    await preview.getByRole("button", { name: "Play preview: Pirate Frequency" }).click();
    await expect(preview.getByTestId("preview-front")).toHaveAttribute("aria-pressed", "true");
  } else {
    // Without JavaScript, a link to the file: the browser plays it.
    const link = preview.getByRole("link", { name: "Play preview: Pirate Frequency" });
    const file = await page.request.get((await link.getAttribute("href"))!);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toContain("audio/mpeg");
  }
});

/** Transmits a two-track order from the deck panel (far down on a phone); returns its code. */
async function transmitFromDeck(page: Page, songs: string[]) {
  await addSongs(page, songs);
  await openReview(page);
  const code = await generateCode(page);
  await page.getByRole("button", { name: "Transmit Order" }).click();
  await expect(page).toHaveURL(new RegExp(`/\\?placed=${code}$`));
  return code;
}

test("after a transmit the Order placed card is in view, and focused with JavaScript, at 390 and 1280 px", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpAndConfirm(page, "ending");
  for (const [width, songs] of [
    [390, ["28", "29"]],
    [1280, ["27", "30"]],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto("/");
    const code = await transmitFromDeck(page, [...songs]);
    const card = page.getByTestId("placed-order");
    await expect(card.getByTestId("placed-code")).toHaveText(code);
    await expect(card).toBeInViewport();
    await expect(card.getByRole("link", { name: "Pay now" })).toBeInViewport();
    await expect(card.getByRole("link", { name: "Pay now" })).toHaveAttribute(
      "href",
      `https://example.com/checkout?code=${code}`,
    );
    if (jsEnabled(testInfo)) {
      // Focus on the card announces it: its name and what it says.
      await expect(card).toBeFocused();
      await expect(card).toHaveAccessibleName("Order placed");
      await expect(card).toHaveAccessibleDescription(`Your order is on its way to DJ Aika. Order Code ${code}`);
    }
  }
});

test("the console card: the design and codename as the shopper saw them, one numbered track list, the mixer's own words; Mark Sent under Mixing says where the order went", async ({
  page,
  browser,
}, testInfo) => {
  await signUpAndConfirm(page, "seen");
  await addSongs(page, ["7", "8"]);
  await page.getByRole("button", { name: "Choose design: unicorn mix" }).click();
  await expect(page.getByRole("button", { name: "Choose design: unicorn mix" })).toHaveAttribute("aria-pressed", "true");
  const codename = (await page.getByTestId("codename").textContent())!;
  const code = await transmitFromDeck(page, []);

  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
  const m = await context.newPage();
  await signInAsMixer(m, testInfo);
  await m.goto(`/mixer?q=${code}`);
  let card = m.locator(`#order-${code}`);
  await expect(card.getByTestId("order-codename")).toHaveText(codename);
  // The card reads at a glance: the design, the tracks and the rest open from "2 tracks".
  await expect(card.getByTestId("order-track-count")).toHaveText("2 tracks");
  await card.getByTestId("order-track-count").click();
  const design = card.getByTestId("order-design");
  await expect(design.locator("figcaption")).toHaveText("unicorn mix");
  await expect(design.locator("img")).toHaveAttribute("src", "/art/designs/unicorn-mix.svg");
  // One numbered list: each play control sits in its track's row, next to its title.
  const tracks = card.getByTestId("order-tracks").locator("li");
  await expect(tracks).toHaveText([/^1\.\s*.*Tape Hiss Heaven$/, /^2\.\s*.*Rebel Broadcast$/]);
  // A long list: a button with JavaScript, a link to the file without (no player per track).
  const play = jsEnabled(testInfo)
    ? tracks.first().getByRole("button", { name: "Play preview: Tape Hiss Heaven" })
    : tracks.first().getByRole("link", { name: "Play preview: Tape Hiss Heaven" });
  await expect(play).toBeVisible();
  if (jsEnabled(testInfo)) {
    const button = tracks.first().getByTestId(`preview-${code}-0`);
    await play.click();
    await expect(button).toHaveAttribute("aria-pressed", "true");
    await expect(button).toHaveAccessibleName("Pause preview: Tape Hiss Heaven");
    await button.click();
    await expect(button).toHaveAttribute("aria-pressed", "false");
  } else {
    const file = await m.request.get((await play.getAttribute("href"))!);
    expect(file.headers()["content-type"]).toContain("audio/mpeg");
  }
  await card.getByRole("button", { name: "Start Mixing" }).click();
  await expectCardAnswer(m, `Order ${code} is now Mixing`);

  // Under the Mixing filter, Mark Sent moves the card away; its answer stays where it stood and says where it went.
  await m.goto("/mixer?filter=mixing");
  card = m.locator(`#order-${code}`);
  await markSentOnCard(card, { link: `https://tapes.example/${code}`, message: "Side B is the loud one." });
  await expectCardAnswer(m, `Order ${code} is now Sent`);
  await expect(card.getByRole("button", { name: "Mark Sent" })).toHaveCount(0);
  await expect(m.getByTestId("queue-order").filter({ hasText: code })).toHaveCount(0);
  await expect(m).toHaveURL(/\/mixer\?filter=mixing/);
  await m.goto(`/mixer?filter=sent&q=${code}`);
  card = m.locator(`#order-${code}`);
  await expect(card.getByTestId("order-sent-message")).toHaveText("Side B is the loud one.");
  await expect(card).toContainText("Your message");
  await expect(card).toContainText("Delivery link");
  await expect(card).not.toContainText("Listen to your tape");
  await context.close();
});
