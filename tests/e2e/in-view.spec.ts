// Issue 39: every answer in view, on a phone too. Each test runs at 390 and 1280 px, with
// JavaScript and without (the two projects): an answer is in the viewport and nothing covers
// it (expectOnTop: the topmost element at its centre is the answer or inside it). The closed
// shop's refusal above the review dialog is in shop.spec.ts (it closes the whole shop).
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Browser, Page, TestInfo } from "@playwright/test";
import {
  addSongs,
  expect,
  expectOnTop,
  generateCode,
  jsEnabled,
  openReview,
  postsSettled,
  signInAsMixer,
  signUpAndConfirm,
  test,
  waitForScripts,
} from "./fixtures";

const WIDTHS = [390, 1280] as const;
const viewport = (width: number) => ({ width, height: width === 390 ? 844 : 900 });

/** One order through the form posts a browser without JavaScript sends; its code. */
async function placeOrder(request: APIRequestContext, songs: string[], design?: string, startingWith?: string): Promise<string> {
  const post = (to: string, form: Record<string, string>) => request.post(to, { form, maxRedirects: 0 });
  for (const songId of songs) expect((await post("/", { intent: "add", songId })).status()).toBe(303);
  if (design) expect((await post("/", { intent: "design", designId: design })).status()).toBe(303);
  let code: string | undefined;
  for (let tries = 0; tries < 400 && !(code && (!startingWith || code.startsWith(startingWith))); tries++) {
    expect((await post("/review", { intent: "generate-code" })).status()).toBe(303);
    code = /data-testid="order-code"[^>]*>([A-Z0-9]{8})</.exec(await (await request.get("/review")).text())?.[1];
  }
  expect(code, "the review shows the order code").toBeTruthy();
  expect((await post("/review", { intent: "transmit", code: code! })).status()).toBe(303);
  return code!;
}

async function mixerPage(browser: Browser, testInfo: TestInfo) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
  const page = await context.newPage();
  await signInAsMixer(page, testInfo);
  return { page, close: () => context.close() };
}

/** The mixer's form posts, as a browser without JavaScript sends them. */
const mixerPost = (m: Page, form: Record<string, string>) => m.request.post("/mixer", { form, maxRedirects: 0 });

test.describe("1. Answers above everything", () => {
  test("a refusal while the review is open is read on top of the dialog, the dialog open and the deck kept", async ({
    page,
  }, testInfo) => {
    await signUpAndConfirm(page, "ontop");
    await addSongs(page, ["3", "4"]);
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      const dialog = await openReview(page);
      await generateCode(page);
      // Another tab made a new code: this Transmit carries a stale one, and is refused.
      expect((await page.request.post("/review", { form: { intent: "generate-code" }, maxRedirects: 0 })).status()).toBe(303);
      // The modal dialog (the top layer) is what JavaScript makes of it: the case that hid the toasts.
      if (jsEnabled(testInfo)) await waitForScripts(page);
      await dialog.getByRole("button", { name: "Transmit Order" }).click();
      const toast = page.getByTestId("toast").filter({ hasText: "This order code is out of date" });
      await expectOnTop(toast, `${width} px: the refusal`);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByTestId("review-tracks").locator("li")).toHaveText(["Neon Curfew", "Signal Jammer"]);
      await page.goto("/");
    }
  });
});

test.describe("2. Pay now only for a transmitted order", () => {
  test("the review's step 3 waits 'after you transmit'; the placed order and the order page carry the live link", async ({
    page,
  }) => {
    await signUpAndConfirm(page, "paylater");
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await page.goto("/");
      await addSongs(page, width === 390 ? ["9"] : ["10"]);
      const dialog = await openReview(page);
      const code = await generateCode(page);
      const step = dialog.getByTestId("pay-later");
      await step.scrollIntoViewIfNeeded();
      await expectOnTop(step, `${width} px: step 3`);
      await expect(step).toContainText("Pay now");
      await expect(step).toContainText("after you transmit");
      await expect(dialog.getByRole("link", { name: "Pay now" })).toHaveCount(0);
      await dialog.getByRole("button", { name: "Transmit Order" }).click();
      const pay = page.getByTestId("placed-order").getByRole("link", { name: "Pay now" });
      await expectOnTop(pay, `${width} px: the placed order's Pay now`);
      await expect(pay).toHaveAttribute("href", `https://example.com/checkout?code=${code}`);
      await page.goto(`/my-mixtapes/${code}`);
      const onPage = page.getByTestId("order-page").getByRole("link", { name: "Pay now" });
      await expectOnTop(onPage, `${width} px: the order page's Pay now`);
      await expect(onPage).toHaveAttribute("href", `https://example.com/checkout?code=${code}`);
    }
  });
});

test.describe("3. On a phone, every answer in view", () => {
  test("the sign-up switch lands on the form, both ways", async ({ page }) => {
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await page.goto("/auth");
      await page.getByTestId("auth-mode-toggle").click();
      await expect(page).toHaveURL(/mode=signup/);
      await expectOnTop(page.getByRole("heading", { name: "SIGN UP", level: 1 }), `${width} px: SIGN UP`);
      await expectOnTop(page.getByLabel("Username", { exact: true }), `${width} px: Username`);
      await page.getByTestId("auth-mode-toggle").click();
      await expect(page).not.toHaveURL(/mode=signup/);
      await expectOnTop(page.getByRole("heading", { name: "REBEL LOGIN", level: 1 }), `${width} px: REBEL LOGIN`);
      await expectOnTop(page.getByLabel("Email or Username"), `${width} px: Email or Username`);
    }
  });

  test("a refused login and a refused sign-up show their errors in view", async ({ page }) => {
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await page.goto("/auth");
      await page.getByLabel("Email or Username").fill(`nobody.${width}@example.com`);
      await page.getByLabel("Password").fill("wrong-horse-42");
      await page.getByRole("button", { name: "Login" }).click();
      const error = page.getByTestId("auth-error");
      await expect(error).toHaveText("Invalid login credentials");
      await expectOnTop(error, `${width} px: the login error`);
      await page.goto("/auth?mode=signup");
      await page.getByLabel("Username", { exact: true }).fill(`wrong_${width}`);
      await page.getByLabel("Email", { exact: true }).fill("not-an-address");
      await page.getByLabel("Password").fill("correct-horse-42");
      await page.getByRole("button", { name: "Sign Up" }).click();
      await expect(error).toHaveText("Please provide a valid email address.");
      await expectOnTop(error, `${width} px: the sign-up error`);
    }
  });

  test("a new order code lands in view, with Transmit under it", async ({ page }) => {
    await signUpAndConfirm(page, "newcode");
    await addSongs(page, ["1", "2", "3", "4", "5", "6", "7", "8"]);
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      const dialog = await openReview(page);
      const code = await generateCode(page);
      await expectOnTop(dialog.getByTestId("order-code"), `${width} px: the code`);
      const transmit = dialog.getByRole("button", { name: "Transmit Order" });
      await expectOnTop(transmit, `${width} px: Transmit Order`);
      expect((await transmit.boundingBox())!.y).toBeGreaterThan((await dialog.getByTestId("order-code").boundingBox())!.y);
      // Regenerated: the new code is in view too.
      await dialog.getByRole("button", { name: "Regenerate Order Code" }).click();
      await expect(dialog.getByTestId("order-code")).not.toHaveText(code);
      await expectOnTop(dialog.getByTestId("order-code"), `${width} px: the new code`);
      await expectOnTop(transmit, `${width} px: Transmit Order under the new code`);
      await page.goto("/");
    }
  });

  test("Save options answers 'Options saved' in view; with JavaScript an option change says 'Saved'", async ({
    page,
  }, testInfo) => {
    await signUpAndConfirm(page, "saved");
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await page.goto("/");
      const options = page.locator("#options");
      const noise = options.getByLabel("Add cassette noise");
      const answer = options.getByTestId("options-saved");
      if (jsEnabled(testInfo)) {
        await noise.setChecked(width === 390);
        await expect(answer).toHaveText("Saved");
        await expectOnTop(answer, `${width} px: Saved`);
      }
      await options.getByLabel("Include Custom Intro").setChecked(width === 390);
      await options.getByRole("button", { name: "Save options" }).click();
      await expect(answer).toHaveText("Options saved");
      await expectOnTop(answer, `${width} px: Options saved`);
      await postsSettled(page);
      await page.reload();
      await expect(page.locator("#options").getByLabel("Include Custom Intro")).toBeChecked({ checked: width === 390 });
    }
  });
});

test.describe("4. The cover and the options cannot be skipped unknowingly", () => {
  test("a step bar (Songs · Cover · Options · Review) on the first screen and in the sticky bar; each step a link to its section, early in the tab order", async ({
    page,
  }, testInfo) => {
    await signUpAndConfirm(page, "steps");
    await addSongs(page, ["11", "12"]);
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await page.goto("/");
      // The first screen, as a shopper arriving sees it (React Router may restore an earlier scroll).
      if (jsEnabled(testInfo)) await waitForScripts(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      const steps = page.getByRole("navigation", { name: "Order steps" });
      await expect(steps.getByRole("link")).toHaveText(["Songs", "Cover", "Options", "Review"]);
      for (const link of await steps.getByRole("link").all()) await expectOnTop(link, `${width} px: a step on the first screen`);
      // Down among the songs, the sticky bar carries the steps.
      await page.locator("#song-24").scrollIntoViewIfNeeded();
      const bar = page.getByTestId("deck-bar");
      for (const [step, target] of [
        ["Cover", page.locator("#designs-heading")],
        ["Options", page.locator("#options-heading")],
        ["Review", page.locator("#deck").getByRole("button", { name: "Review Order" })],
        ["Songs", page.locator("#library-heading")],
      ] as const) {
        await expectOnTop(bar.getByRole("link", { name: step, exact: true }), `${width} px: ${step} in the bar`);
        await bar.getByRole("link", { name: step, exact: true }).click();
        await expectOnTop(target, `${width} px: ${step}'s section`);
      }
      // The keyboard: a handful of Tabs from the top of the page reach "Review".
      await page.goto("/");
      if (jsEnabled(testInfo)) await waitForScripts(page);
      let presses = 0;
      for (; presses < 30; presses++) {
        await page.keyboard.press("Tab");
        if ((await page.evaluate(() => document.activeElement?.textContent?.trim())) === "Review") break;
      }
      expect(presses + 1, `${width} px: Tabs to the Review step`).toBeLessThanOrEqual(12);
      await page.keyboard.press("Enter");
      await expectOnTop(page.locator("#deck").getByRole("button", { name: "Review Order" }), `${width} px: Review Order`);
    }
  });

  test("with no design chosen the review says so and offers 'Choose a cover'; No Design stays", async ({ page }) => {
    await signUpAndConfirm(page, "nodesign");
    await addSongs(page, ["13"]);
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      const dialog = await openReview(page);
      await expect(dialog).toContainText("No Design");
      await expect(dialog.getByTestId("review-design")).toHaveText("None");
      const warning = dialog.getByTestId("review-no-design");
      await expect(warning).toContainText("No cover design chosen");
      const choose = warning.getByRole("link", { name: "Choose a cover" });
      await expectOnTop(choose, `${width} px: Choose a cover`);
      await choose.click();
      await expect(page.getByTestId("review-dialog")).toHaveCount(0);
      await expectOnTop(page.locator("#designs-heading"), `${width} px: the designs`);
    }
    // With a design, no warning.
    await page.getByRole("button", { name: "Choose design: ice cold" }).click();
    await expect(page.getByRole("button", { name: "Choose design: ice cold" })).toHaveAttribute("aria-pressed", "true");
    const dialog = await openReview(page);
    await expect(dialog.getByTestId("review-design")).toHaveText("ice cold");
    await expect(dialog.getByTestId("review-no-design")).toHaveCount(0);
  });

  test("the deck bar never covers the cover card", async ({ page }) => {
    await signUpAndConfirm(page, "dock");
    await addSongs(page, ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    await expect(page.locator("#deck")).not.toHaveAttribute("aria-busy", "true");
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await page.goto("/");
      const codename = page.getByTestId("codename");
      await codename.scrollIntoViewIfNeeded();
      await expectOnTop(codename, `${width} px: the codename`);
      if (width === 390) continue;
      // On a desktop, at every scroll position where the cover card shows.
      const bottom = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
      for (let y = 0; y <= bottom; y += 150) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        const box = await codename.boundingBox();
        if (!box || box.y < 0 || box.y + box.height > 900) continue;
        await expectOnTop(codename, `scrolled to ${y}: the codename`);
      }
    }
  });
});

test.describe("5. A console that reads at a glance", () => {
  test("compact cards: six tracks in at most 420 px on a desktop, tracks as a count that opens; filters with counts; on a phone the first order on the first screen", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "glance");
    const code = await placeOrder(page.request, ["14", "15", "16", "17", "18", "19"], "high-voltage");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    for (const width of WIDTHS) {
      await m.setViewportSize(viewport(width));
      await m.goto(`/mixer?q=${code}`);
      const card = m.locator(`#order-${code}`);
      await expect(card.getByTestId("order-code")).toHaveText(code);
      const tracks = card.getByTestId("order-track-count");
      await expect(tracks).toHaveText("6 tracks");
      await expectOnTop(tracks, `${width} px: the track count`);
      if (width === 1280) {
        expect((await card.boundingBox())!.height, "a received card").toBeLessThanOrEqual(420);
        await card.getByRole("button", { name: "Start Mixing" }).click();
        await expect(card.getByTestId("order-status")).toHaveText("Status: Mixing");
        await expect(card.getByLabel("Delivery link")).toBeVisible();
        expect((await card.boundingBox())!.height, "a mixing card, with Mark Sent").toBeLessThanOrEqual(420);
      }
      // The filters count this search's orders.
      await m.evaluate(() => window.scrollTo(0, 0));
      const filters = m.getByRole("navigation", { name: "Show orders" }).getByRole("link");
      const mixing = width === 1280 ? 1 : 0;
      await expect(filters).toHaveText([
        /^All\s*1$/,
        new RegExp(`^Received\\s*${1 - mixing}$`),
        new RegExp(`^Mixing\\s*${mixing}$`),
        /^Sent\s*0$/,
        /^Cancelled\s*0$/,
        /^Unpaid\s*1$/,
        /^Late\s*0$/,
      ]);
      await expectOnTop(filters.first(), `${width} px: the filters`);
      await tracks.click();
      await expect(card.getByTestId("order-tracks").locator("li")).toHaveCount(6);
      await card.getByTestId("order-tracks").locator("li").last().scrollIntoViewIfNeeded();
      await expectOnTop(card.getByTestId("order-tracks").locator("li").last(), `${width} px: the sixth track`);
      // The whole queue: its first order is on the first screen.
      await m.goto("/mixer");
      await expectOnTop(m.getByTestId("queue-order").first().getByTestId("order-code"), `${width} px: the first order`);
    }
    await mixer.close();
  });

  test("after an action the page stays where it was: the answer is in place, and nothing covers the cards", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "inplace");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    for (const width of WIDTHS) {
      // Three orders whose codes start alike: a search for that letter lists them last, oldest first.
      const codes: string[] = [];
      for (const song of ["20", "21", "22"]) codes.push(await placeOrder(page.request, [song], undefined, codes[0]?.[0]));
      await m.setViewportSize(viewport(width));
      await m.goto(`/mixer?filter=received&q=${codes[0][0]}`);
      await expect(m.getByTestId("queue-order").last()).toHaveId(`order-${codes[2]}`);
      const second = m.locator(`#order-${codes[1]}`);
      await second.scrollIntoViewIfNeeded();
      await second.getByRole("button", { name: "Start Mixing" }).click();
      // The card left the Received filter; its answer stays where it was.
      const answer = m.locator(`#order-${codes[1]}`).getByTestId("order-answer");
      await expect(answer).toHaveText(`Order ${codes[1]} is now Mixing`);
      await expectOnTop(answer, `${width} px: the answer`);
      await expect(m.locator(`#order-${codes[1]}`).getByRole("button", { name: "Start Mixing" })).toHaveCount(0);
      await expectOnTop(m.locator(`#order-${codes[2]}`).getByTestId("order-code"), `${width} px: the next card`);
      for (const heading of await m.getByTestId("queue-order").getByTestId("order-code").all())
        if (await heading.isVisible()) {
          const box = await heading.boundingBox();
          if (box && box.y >= 0 && box.y + box.height <= viewport(width).height) await expectOnTop(heading, "a card's code");
        }
      // An action that keeps the card in the list answers in the card.
      await m.goto(`/mixer?q=${codes[2]}`);
      const third = m.locator(`#order-${codes[2]}`);
      await third.getByRole("button", { name: "Start Mixing" }).click();
      await expect(third.getByTestId("order-answer")).toHaveText(`Order ${codes[2]} is now Mixing`);
      await expectOnTop(third.getByTestId("order-answer"), `${width} px: the answer in the card`);
      await expectOnTop(third.getByTestId("order-code"), `${width} px: the card's code`);
    }
    await mixer.close();
  });
});

test.describe("6. The order page one obvious tap away", () => {
  test("each My Mixtapes card opens its order; a reply shows there and in the header", async ({ page, browser }, testInfo) => {
    await signUpAndConfirm(page, "openorder");
    const code = await placeOrder(page.request, ["25"]);
    const mixer = await mixerPage(browser, testInfo);
    expect(
      (
        await mixer.page.request.post(`/mixer/orders/${code}`, {
          form: { intent: "message", body: "Which version of track 1?" },
          maxRedirects: 0,
        })
      ).status(),
    ).toBe(303);
    await mixer.close();
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await page.goto("/");
      const mark = page.getByTestId("header-unread");
      if (width === 390) {
        await expect(mark).toHaveText("1");
        await expectOnTop(mark, "the header's unread mark");
        await expect(
          page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: /My Mixtapes/ }),
        ).toHaveAccessibleName("My Mixtapes (1 new reply)");
      }
      await page.goto("/my-mixtapes");
      const open = page.locator(`#order-${code}`).getByRole("link", { name: /^Open order/ });
      await expect(open).toHaveText(width === 390 ? "Open order · 1 new reply" : "Open order");
      await expectOnTop(open, `${width} px: Open order`);
      await open.click();
      await expect(page).toHaveURL(new RegExp(`/my-mixtapes/${code}`));
      await expect(page.getByRole("heading", { name: `Order ${code}`, level: 1 })).toBeVisible();
      await expect(page.getByTestId("header-unread")).toHaveCount(0);
    }
  });

  test("the order page says who cancelled and why; a paid order's cancel confirmation says what is refunded", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "cancelled");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await m.setViewportSize(viewport(width));
      const [byMixer, paid] = [await placeOrder(page.request, ["26"]), await placeOrder(page.request, ["27"])];
      expect(
        (
          await mixerPost(m, { intent: "cancel", code: byMixer, from: "received", reason: "The tape deck broke, sorry!" })
        ).status(),
      ).toBe(303);
      await page.goto(`/my-mixtapes/${byMixer}`);
      const cancelled = page.getByTestId("order-cancelled");
      await expect(cancelled).toContainText("Cancelled by DJ Aika");
      await expect(cancelled).toContainText("The tape deck broke, sorry!");
      await cancelled.scrollIntoViewIfNeeded();
      await expectOnTop(cancelled, `${width} px: who cancelled and why`);

      await m.goto(`/mixer?q=${paid}`);
      const card = m.locator(`#order-${paid}`);
      await card.getByLabel("Amount (USD)").fill("12.00");
      await card.getByRole("button", { name: "Mark Paid" }).click();
      await expect(card.getByTestId("order-paid")).toHaveText("Paid $12.00");
      await page.goto("/my-mixtapes");
      const mine = page.locator(`#order-${paid}`);
      await mine.getByRole("link", { name: "Cancel Order" }).click();
      const refund = mine.getByTestId("cancel-refund");
      await expect(refund).toHaveText("Your payment of $12.00 will be refunded.");
      await expectOnTop(refund, `${width} px: the refund`);
      await mine.getByRole("button", { name: "Yes, cancel it" }).click();
      await expect(page.locator(`#order-${paid}`).getByTestId("order-status")).toHaveText("Status: Cancelled");
      await page.goto(`/my-mixtapes/${paid}`);
      await expect(page.getByTestId("order-cancelled")).toContainText("Cancelled by you");
    }
    await mixer.close();
  });
});

test.describe("7. Small things", () => {
  test.describe("local times", () => {
    test.use({ timezoneId: "Asia/Tokyo" });
    test("with JavaScript in the shopper's time zone; without it in UTC, labelled", async ({ page }, testInfo) => {
      await signUpAndConfirm(page, "tokyo");
      const code = await placeOrder(page.request, ["28"]);
      for (const width of WIDTHS) {
        await page.setViewportSize(viewport(width));
        for (const to of ["/my-mixtapes", `/my-mixtapes/${code}`]) {
          await page.goto(to);
          const placed = page.getByTestId("order-placed").first();
          const iso = (await placed.getAttribute("datetime"))!;
          const tokyo = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Tokyo" })
            .format(new Date(iso))
            .replace(/\u202f/g, " ");
          if (jsEnabled(testInfo)) {
            await expect(placed).toHaveText(`${tokyo} GMT+9`);
          } else {
            await expect(placed).toHaveText(/ UTC$/);
            await expect(placed).not.toHaveText(new RegExp(`^${tokyo}`));
          }
          await expectOnTop(placed, `${width} px ${to}: the time`);
        }
      }
    });
  });

  test("order codes have no O, I or L", async ({ page }) => {
    await signUpAndConfirm(page, "codes");
    await addSongs(page, ["29"]);
    const codes = [];
    for (let i = 0; i < 20; i++) {
      expect((await page.request.post("/review", { form: { intent: "generate-code" }, maxRedirects: 0 })).status()).toBe(303);
      codes.push(/data-testid="order-code"[^>]*>([A-Z0-9]{8})</.exec(await (await page.request.get("/review")).text())![1]);
    }
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z0-9]{8}$/);
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await page.goto("/review");
      await expectOnTop(page.getByTestId("order-code"), `${width} px: the code`);
    }
  });

  test("$10+ says what it means, in the review and at the front door", async ({ page, browser }, testInfo) => {
    const line = "from $10: you choose the amount at checkout";
    const anon = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
    const door = await anon.newPage();
    await signUpAndConfirm(page, "price");
    await addSongs(page, ["30"]);
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      const dialog = await openReview(page);
      const note = dialog.getByTestId("price-note");
      await expect(note).toHaveText(line);
      await note.scrollIntoViewIfNeeded();
      await expectOnTop(note, `${width} px: the review's price line`);
      await page.goto("/");
      await door.setViewportSize(viewport(width));
      await door.goto("/auth");
      const front = door.getByTestId("front-price-note");
      await expect(front).toHaveText(line);
      await front.scrollIntoViewIfNeeded();
      await expectOnTop(front, `${width} px: the front door's price line`);
    }
    await anon.close();
  });

  test("the insights' design colours come from the designs themselves", async ({ page, browser }, testInfo) => {
    await signUpAndConfirm(page, "colours");
    for (const design of ["ice-cold", "system-burnout", "high-voltage", "unicorn-mix"])
      await placeOrder(page.request, ["1"], design);
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    for (const width of WIDTHS) {
      await m.setViewportSize(viewport(width));
      await m.goto("/mixer/insights");
      const slices = m.getByTestId("chart-designs").getByTestId("design-slice");
      const seen = new Map<string, string>();
      for (const slice of await slices.all()) {
        const id = (await slice.getAttribute("data-design"))!;
        const fill = (await slice.evaluate((el) => el.getAttribute("fill") ?? "")).toLowerCase();
        seen.set(id, fill);
        if (id === "none") continue;
        const art = fs.readFileSync(path.join("public/art/designs", `${id}.svg`), "utf8").toLowerCase();
        expect(art, `${id}'s colour ${fill} is in its art`).toContain(fill);
      }
      expect([...seen.keys()]).toEqual(expect.arrayContaining(["ice-cold", "system-burnout", "high-voltage", "unicorn-mix"]));
      expect(new Set(seen.values()).size, "one colour per design").toBe(seen.size);
      const legend = m.getByTestId("chart-designs").getByTestId("design-legend").first();
      await legend.scrollIntoViewIfNeeded();
      await expectOnTop(legend, `${width} px: the legend`);
    }
    await mixer.close();
  });
});
