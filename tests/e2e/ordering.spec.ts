// Ordering: the review dialog, the order flow, My Mixtapes and the ordering errors.
// Describe blocks carry the product spec's section titles.
import {
  addSongs,
  expect,
  expectToast,
  generateCode,
  jsEnabled,
  openReview,
  postsSettled,
  signUpAndConfirm,
  test,
  waitForScripts,
} from "./fixtures";

test.describe("2. Order review dialog", () => {
  test("summary, no design, code generation and regeneration, pay link, close", async ({ page }, testInfo) => {
    await signUpAndConfirm(page);
    await addSongs(page, ["4", "2"]);
    await page.getByLabel("Add cassette noise").check();
    await page.getByLabel("Message to DJ Aika (Special instructions)").fill("For the night bus.");
    await page.getByRole("button", { name: "Save options" }).click();
    await postsSettled(page);
    const dialog = await openReview(page);
    await expect(dialog.getByRole("heading", { name: "Review Order" })).toBeVisible();
    if (jsEnabled(testInfo)) {
      // A real modal: focus moves inside it.
      await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest("dialog"))).toBe(true);
    }
    await expect(dialog.getByTestId("review-design")).toHaveText("None");
    await expect(dialog).toContainText("No Design");
    await expect(dialog.getByTestId("review-codename")).toHaveText(/^[A-Z]+ [A-Z]+$/);
    await expect(dialog.getByTestId("review-tracks").locator("li")).toHaveText(["Signal Jammer", "Pirate Frequency"]);
    await expect(dialog.getByTestId("review-options")).toHaveText("Add cassette noise");
    await expect(dialog.getByTestId("review-note")).toHaveText("For the night bus.");
    await expect(dialog).toContainText("$10+");
    await expect(dialog).toContainText("3–5 days");
    // Before a code: Transmit is plainly disabled and says why; Pay now is a step still to come, no link.
    const transmit = dialog.getByRole("button", { name: "Transmit Order" });
    await expect(transmit).toBeDisabled();
    await expect(dialog.getByTestId("transmit-reason")).toHaveText("Generate an order code first.");
    await expect(transmit).toHaveAccessibleDescription("Generate an order code first.");
    expect(await transmit.evaluate((el) => getComputedStyle(el).cursor)).toBe("not-allowed");
    await expect(dialog.getByRole("link", { name: "Pay now" })).toHaveCount(0);
    await expect(dialog.getByTestId("pay-later")).toHaveText(/Pay now\s*after you transmit/);
    const first = await generateCode(page);
    await expect(dialog.getByRole("button", { name: "Regenerate Order Code" })).toBeVisible();
    await expect(transmit).toBeEnabled();
    await expect(dialog.getByTestId("transmit-reason")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Regenerate Order Code" }).click();
    await expect(dialog.getByTestId("order-code")).not.toHaveText(first);
    // Pay now is live only for a transmitted order (the placed order and its page carry the link).
    await expect(dialog.getByTestId("pay-later")).toHaveText(/Pay now\s*after you transmit/);
    await expect(dialog.getByRole("link", { name: "Pay now" })).toHaveCount(0);
    if (jsEnabled(testInfo)) {
      await page.keyboard.press("Escape");
    } else {
      await dialog.getByRole("link", { name: /Close/ }).click();
    }
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("review-dialog")).toHaveCount(0);
  });

  test("with JavaScript, Transmit Order reads Transmitting... while the order is on its way", async ({ page }, testInfo) => {
    test.skip(!jsEnabled(testInfo), "a pending label needs JavaScript");
    await signUpAndConfirm(page);
    await addSongs(page, ["6"]);
    const dialog = await openReview(page);
    await generateCode(page);
    await waitForScripts(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/review.data**", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Transmit Order" }).click();
    await expect(page.getByRole("button", { name: "Transmitting..." })).toBeDisabled();
    release();
    await expectToast(page, "Order Submitted!");
  });

  test("a chosen design shows its name and image", async ({ page }) => {
    await signUpAndConfirm(page);
    await addSongs(page, ["9"]);
    await page.getByRole("button", { name: "Choose design: unicorn mix" }).click();
    await expect(page.getByRole("button", { name: "Choose design: unicorn mix" })).toHaveAttribute("aria-pressed", "true");
    const dialog = await openReview(page);
    await expect(dialog.getByTestId("review-design")).toHaveText("unicorn mix");
    await expect(dialog.getByRole("img", { name: "Cover design: unicorn mix" })).toBeVisible();
  });
});

test.describe("4. Order flow", () => {
  test("the whole order: empty deck to My Mixtapes, then the deck resets", async ({ page }) => {
    await signUpAndConfirm(page);
    await addSongs(page, ["7", "3", "12"]);
    await page.getByLabel("Include Custom Intro").check();
    await page.getByLabel("Message to DJ Aika (Special instructions)").fill("Hi DJ!");
    await page.getByRole("button", { name: "Save options" }).click();
    await postsSettled(page);
    await openReview(page);
    const code = await generateCode(page);
    await page.getByRole("button", { name: "Transmit Order" }).click();
    await expect(page).toHaveURL(new RegExp(`/\\?placed=${code}$`));
    await expectToast(page, "Order Submitted!");
    await expectToast(page, "Your order was transmitted to the underground. Await your encrypted drop!");
    await expect(page.getByTestId("review-dialog")).toHaveCount(0);
    await expect(page.getByTestId("tracks-loaded")).toHaveText("Tracks Loaded: 0 / 10");
    await expect(page.getByLabel("Include Custom Intro")).not.toBeChecked();
    await expect(page.getByLabel("Message to DJ Aika (Special instructions)")).toHaveValue("");

    await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "My Mixtapes" }).click();
    await expect(page).toHaveURL(/\/my-mixtapes$/);
    const card = page.getByTestId("order-card");
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId("order-code")).toHaveText(code);
    await expect(card.getByTestId("order-songs").locator("li")).toHaveText([
      "Tape Hiss Heaven",
      "Neon Curfew",
      "Low Battery Love",
    ]);
    await expect(card.getByTestId("order-note")).toHaveText("Hi DJ!");
    await expect(card.getByTestId("order-options")).toHaveText("Include Custom Intro");
    await expect(card.getByTestId("order-placed")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
    await page.getByRole("link", { name: "Back to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("two orders are listed newest first; a second shopper sees none of them", async ({ page, browser }, testInfo) => {
    await signUpAndConfirm(page);
    await expect(page.getByRole("link", { name: "My Mixtapes" })).toBeVisible();
    await page.goto("/my-mixtapes");
    await expect(page.getByTestId("orders-empty")).toHaveText("No mixtape orders found. Go make your first order!");
    const codes: string[] = [];
    for (const ids of [["1"], ["2", "3"]]) {
      await page.goto("/");
      await addSongs(page, ids);
      await openReview(page);
      codes.push(await generateCode(page));
      await page.getByRole("button", { name: "Transmit Order" }).click();
      await expectToast(page, "Order Submitted!");
    }
    await page.goto("/my-mixtapes");
    await expect(page.getByTestId("order-card").getByTestId("order-code")).toHaveText([codes[1], codes[0]]);
    await expect(page.getByTestId("order-note").first()).toHaveText("None");

    const other = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
    const otherPage = await other.newPage();
    await signUpAndConfirm(otherPage, "other");
    await otherPage.goto("/my-mixtapes");
    await expect(otherPage.getByTestId("orders-empty")).toBeVisible();
    await other.close();
  });

  test("a concurrent double transmit stores exactly one order, and the repeat answers as a success", async ({ page }) => {
    await signUpAndConfirm(page);
    await addSongs(page, ["20", "21"]);
    await openReview(page);
    const code = await generateCode(page);
    const send = () => page.request.post("/review", { form: { intent: "transmit", code }, maxRedirects: 0 });
    const answers = await Promise.all([send(), send(), send()]);
    for (const a of answers) {
      expect(a.status()).toBe(303);
      expect(a.headers()["location"]).toBe(`/?placed=${code}`);
    }
    // A replay after the deck was reset still answers as a success.
    const replay = await send();
    expect(replay.status()).toBe(303);
    await page.goto("/my-mixtapes");
    await expect(page.getByTestId("order-card")).toHaveCount(1);
    await expect(page.getByTestId("order-code")).toHaveText(code);
  });
});

test.describe("4. Order flow: a used code", () => {
  test("a deck edited after its code was transmitted is not reported as submitted: kept, with a fresh code", async ({
    page,
    context,
  }) => {
    await signUpAndConfirm(page);
    await addSongs(page, ["1", "2"]);
    await openReview(page);
    const code = await generateCode(page);
    const before = (await context.cookies()).find((c) => c.name === "mixtape-deck")!;
    await page.getByRole("button", { name: "Transmit Order" }).click();
    await expect(page).toHaveURL(new RegExp(`placed=${code}`));
    // The deck of before the transmit comes back (an old tab, a late edit), and is edited.
    await context.addCookies([before]);
    await page.goto("/");
    await addSongs(page, ["3"]);
    const dialog = await openReview(page);
    await expect(dialog.getByTestId("order-code")).toHaveText(code);
    await dialog.getByRole("button", { name: "Transmit Order" }).click();
    // The spec's words, in the Transmit step where it was pressed (not a toast over the dialog's Close).
    const answer = page.getByTestId("review-dialog").getByTestId("transmit-answer");
    await expect(answer).toContainText("Submission Failed");
    await expect(answer).toContainText("This order code was already used for a different mixtape.");
    await expect(page.getByTestId("toast").filter({ hasText: "Order Submitted!" })).toHaveCount(0);
    // The mixtape is kept, with a new code ready to transmit.
    await page.goto("/review");
    await expect(page.getByTestId("review-tracks").locator("li")).toHaveText([
      "Static Over Babylon",
      "Pirate Frequency",
      "Neon Curfew",
    ]);
    await expect(page.getByTestId("order-code")).toHaveText(/^[A-Z0-9]{8}$/);
    await expect(page.getByTestId("order-code")).not.toHaveText(code);
    await page.goto("/my-mixtapes");
    await expect(page.getByTestId("order-card")).toHaveCount(1);
    await expect(page.getByTestId("order-card").getByTestId("order-songs").locator("li")).toHaveCount(2);
  });
});

test.describe("8. Error catalogue: ordering", () => {
  test("transmit without a code, with a malformed code, or an empty deck stores nothing", async ({ page }) => {
    await signUpAndConfirm(page);
    const post = (form: Record<string, string>) => page.request.post("/review", { form, maxRedirects: 0 });
    let res = await post({ intent: "transmit" });
    expect(res.status()).toBe(400);
    expect(await res.text()).toContain("Generate an order code first.");
    res = await post({ intent: "transmit", code: "abc" });
    expect(res.status()).toBe(400);
    expect(await res.text()).toContain("The order code must be 8 characters from A–Z and 0–9.");
    res = await post({ intent: "transmit", code: "ABCD1234" });
    expect(res.status()).toBe(409);
    res = await post({ intent: "launch" });
    expect(res.status()).toBe(400);
    await page.goto("/review");
    await generateCode(page);
    res = await post({ intent: "transmit", code: (await page.getByTestId("order-code").textContent())! });
    expect(res.status()).toBe(400);
    expect(await res.text()).toContain("Add at least one track before transmitting.");
    await page.goto("/my-mixtapes");
    await expect(page.getByTestId("orders-empty")).toBeVisible();
  });

  test("transmit with no user: toast Error / User not found.", async ({ page }) => {
    await page.goto("/auth");
    const res = await page.request.post("/review", { form: { intent: "transmit", code: "ABCD1234" }, maxRedirects: 0 });
    expect(res.status()).toBe(302);
    await page.goto(res.headers()["location"]);
    await expectToast(page, "Error");
    await expectToast(page, "User not found.");
  });
});
