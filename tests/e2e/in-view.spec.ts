// Every answer in view, on a phone too. Each test runs at 390 and 1280 px, with
// JavaScript and without (the two projects): an answer is in the viewport and nothing covers
// it (expectOnTop: the topmost element at its centre is the answer or inside it); an answer to a
// form stands where the form was (docs/decisions/028-answers-in-place.md). The closed
// shop's refusal above the review dialog is in shop.spec.ts (it closes the whole shop).
import {
  addSongs,
  expect,
  expectOnTop,
  generateCode,
  jsEnabled,
  openReview,
  postsSettled,
  signUpAndConfirm,
  test,
  waitForScripts,
} from "./fixtures";
import { mixerPage, mixerPost, placeOrder, viewport, WIDTHS } from "./in-view-support";

test.describe("1. Answers where the shopper acted, above everything", () => {
  test("a refusal while the review is open is read in the Transmit step, focused, the dialog open and the deck kept", async ({
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
      // In the Transmit step, where the shopper pressed it, focused; no toast over the dialog's Close.
      const answer = dialog.getByTestId("transmit-answer");
      await expect(answer).toContainText("This order code is out of date");
      await expect(answer, `${width} px: the refusal takes the focus`).toBeFocused();
      await expectOnTop(answer, `${width} px: the refusal`);
      await expect(page.getByTestId("toast")).toHaveCount(0);
      const close = dialog.getByRole("link", { name: "Close review" });
      await close.scrollIntoViewIfNeeded();
      await expectOnTop(close, `${width} px: the dialog's Close`);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByTestId("review-tracks").locator("li")).toHaveText(["Neon Curfew", "Signal Jammer"]);
      await page.goto("/");
    }
  });
});

test.describe("1b. The shopper's cancel answers in the order's card", () => {
  test("on the list and on the order's page: where the cancel was, focused, on top; the Refund pending badge uncovered", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "cancelhere");
    const mixer = await mixerPage(browser, testInfo);
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      for (const where of ["list", "page"] as const) {
        // Paid, so cancelling leaves money due back: the badge the toast covered at 1280 px.
        const code = await placeOrder(page.request, ["5"]);
        const paid = { intent: "mark-paid", code, amount: "10.00", currency: "USD", token: crypto.randomUUID() };
        expect((await mixerPost(mixer.page, paid)).status()).toBe(303);
        await page.goto(where === "list" ? "/my-mixtapes" : `/my-mixtapes/${code}`);
        const card = where === "list" ? page.locator(`#order-${code}`) : page.getByTestId("order-page");
        await card.getByRole("link", { name: "Cancel Order" }).click();
        await card.getByRole("button", { name: "Yes, cancel it" }).click();
        const answer = card.getByTestId("order-answer");
        await expect(answer).toHaveText(`Order ${code} is now Cancelled`);
        await expect(answer, `${width} px, ${where}: the answer takes the focus`).toBeFocused();
        await expectOnTop(answer, `${width} px, ${where}: the cancel's answer`);
        await expect(page.getByTestId("toast")).toHaveCount(0);
        await expect(card.getByTestId("order-status")).toHaveText("Status: Cancelled");
        const due = card.getByTestId("order-refund-due");
        await expect(due).toHaveText("Refund pending $10.00");
        await due.scrollIntoViewIfNeeded();
        await expectOnTop(due, `${width} px, ${where}: the Refund pending badge`);
      }
    }
    await mixer.close();
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
