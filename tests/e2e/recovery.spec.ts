// Account recovery: forgot password and the reset link, resending the
// confirmation, and changing the password on /account. Every test runs with and
// without JavaScript; emails are read from the outbox.
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page, TestInfo } from "@playwright/test";
import {
  expect,
  expectToast,
  fillSignUp,
  jsEnabled,
  logIn,
  logOut,
  newIdentity,
  readMail,
  signUpAndConfirm,
  test,
  type Mail,
} from "./fixtures";

const NEW_PASSWORD = "brand-new-tape-deck-77";
const linkIn = (mail: Mail) => mail.text.match(/https?:\/\/\S+/)![0];
const isReset = (mail: Mail) => /\/auth\/reset\?/.test(mail.text);
const isConfirmation = (mail: Mail) => /\/auth\/confirm\?/.test(mail.text);
const tokenOf = (link: string) => new URL(link).searchParams.get("token_hash")!;

/** A second browser (its own cookies), with this project's JavaScript setting. */
async function secondBrowser(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: jsEnabled(testInfo),
  });
  return context.newPage();
}

/** Asks for a reset link through the form; returns the link from the outbox. */
async function askForReset(page: Page, email: string): Promise<string> {
  await page.goto("/auth");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/auth\/forgot$/);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  // The forgot page keeps the answer in a notice that stays; the toast says it too.
  await expect(page.getByTestId("lasting-notice")).toContainText(
    "If an account exists for that address, a reset link is on its way.",
  );
  await expect(page).toHaveURL(/\/auth\/forgot$/);
  await expectToast(page, "Check your email!");
  await expectToast(page, "If an account exists for that address, a reset link is on its way.");
  return linkIn(await readMail(email, isReset));
}

test.describe("Account recovery", () => {
  test("forgot password: the emailed link sets a new password and signs in, other sessions end, the old password fails", async ({
    page,
    browser,
  }, testInfo) => {
    const shopper = await signUpAndConfirm(page, "reset");
    const other = await secondBrowser(browser, testInfo);
    await logIn(other, shopper.email, shopper.password);
    await expect(other).toHaveURL(/\/$/);
    await logOut(page);

    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("RESET PASSWORD");
    const link = await askForReset(page, shopper.email);
    const mail = await readMail(shopper.email, isReset);
    // Plain text and HTML, with the shop's title.
    expect(mail.text.startsWith("Underground Mixtape Shop")).toBe(true);
    expect(mail.html).toMatch(/<h1[^>]*>Underground Mixtape Shop<\/h1>/);
    expect(mail.html).toContain(`href="${link.replace(/&/g, "&amp;")}"`);

    await page.goto(link);
    await expect(page).toHaveURL(/\/auth\/reset$/); // the token is gone from the address
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("SET NEW PASSWORD");
    // The sign-up rules apply.
    await page.getByLabel("New password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Update password" }).click();
    await expect(page.getByTestId("auth-error")).toHaveText("Password must be at least 8 characters.");
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Update password" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, "Password updated");
    await expectToast(page, "You're back in, rebel.");
    await expect(page.getByTestId("display-name")).toHaveText(shopper.username);

    // The other browser's session has ended.
    await other.goto("/");
    await expect(other).toHaveURL(/\/auth$/);
    await other.context().close();

    await logOut(page);
    await logIn(page, shopper.email, shopper.password);
    await expect(page.getByTestId("auth-error")).toHaveText("Invalid login credentials");
    await logIn(page, shopper.email, NEW_PASSWORD);
    await expect(page).toHaveURL(/\/$/);
  });

  test("forgot password: an address without an account gets the same answer", async ({ page }) => {
    const stranger = newIdentity("stranger");
    await askForResetAnswerOnly(page, stranger.email);
    // A malformed address is a form error, not an answer about accounts.
    await page.goto("/auth/forgot");
    await page.getByLabel("Email", { exact: true }).fill("not-an-address");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByTestId("auth-error")).toHaveText("Please provide a valid email address.");
  });

  test("a used reset link shows one clear message with a link back to /auth/forgot", async ({ page }) => {
    const shopper = await signUpAndConfirm(page, "reuse");
    await logOut(page);
    const link = await askForReset(page, shopper.email);
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("SET NEW PASSWORD");

    // Opened again in another browser (or after this one's cookies are gone): used.
    await page.context().clearCookies();
    const response = await page.goto(link);
    expect(response?.status()).toBe(400);
    await expect(page.getByTestId("reset-error")).toHaveText("This reset link is invalid, already used or expired.");
    await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
    await page.getByRole("link", { name: "Ask for a new reset link" }).click();
    await expect(page).toHaveURL(/\/auth\/forgot$/);
    // A made-up link says the same.
    await page.goto(`/auth/reset?token_hash=${"x".repeat(43)}&type=recovery`);
    await expect(page.getByTestId("reset-error")).toHaveText("This reset link is invalid, already used or expired.");
  });

  test("resend confirmation, by username and by email: a fresh link signs in, the older ones fail", async ({ page }) => {
    const shopper = newIdentity("resend");
    await fillSignUp(page, shopper);
    await expectToast(page, "Check your email!");
    const first = linkIn(await readMail(shopper.email, isConfirmation));

    // By username: the page says the email is not confirmed, and never shows the address.
    await logIn(page, shopper.username, shopper.password);
    await expect(page.getByTestId("auth-error")).toHaveText("Email not confirmed");
    expect(await page.content()).not.toContain(shopper.email);
    await page.getByRole("button", { name: "Resend confirmation email" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expectToast(page, "Check your email!");
    await expectToast(page, "If that account still needs confirming, a new confirmation link is on its way.");
    const second = linkIn(await readMail(shopper.email, (m) => isConfirmation(m) && !m.text.includes(tokenOf(first))));

    // By email.
    await logIn(page, shopper.email, shopper.password);
    await expect(page.getByTestId("auth-error")).toHaveText("Email not confirmed");
    await page.getByRole("button", { name: "Resend confirmation email" }).click();
    await expectToast(page, "Check your email!");
    const third = linkIn(
      await readMail(
        shopper.email,
        (m) => isConfirmation(m) && !m.text.includes(tokenOf(first)) && !m.text.includes(tokenOf(second)),
      ),
    );

    for (const old of [first, second]) {
      await page.goto(old);
      await expect(page.getByTestId("confirm-error")).toContainText("invalid or has expired");
    }
    await page.goto(third);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("display-name")).toHaveText(shopper.username);
  });

  test("change password on /account: a wrong current password says so; a change signs out a second browser", async ({
    page,
    browser,
  }, testInfo) => {
    const shopper = await signUpAndConfirm(page, "change");
    const other = await secondBrowser(browser, testInfo);
    await logIn(other, shopper.email, shopper.password);
    await expect(other).toHaveURL(/\/$/);

    await page.getByRole("link", { name: "Account", exact: true }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId("account-email")).toHaveText(shopper.email);
    await expect(page.getByTestId("account-username")).toHaveText(shopper.username);

    await page.getByLabel("Current password").fill("not-my-password-1");
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByTestId("auth-error")).toHaveText("Your current password is not correct.");
    await other.goto("/my-mixtapes");
    await expect(other).toHaveURL(/\/my-mixtapes$/); // nothing changed yet

    await page.getByLabel("Current password").fill(shopper.password);
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await expectToast(page, "Password changed");
    await expect(page).toHaveURL(/\/account$/);

    await other.goto("/");
    await expect(other).toHaveURL(/\/auth$/);
    await other.context().close();
    // This browser stays signed in.
    await page.goto("/");
    await expect(page.getByTestId("display-name")).toHaveText(shopper.username);
    await logOut(page);
    await logIn(page, shopper.email, shopper.password);
    await expect(page.getByTestId("auth-error")).toHaveText("Invalid login credentials");
    await logIn(page, shopper.email, NEW_PASSWORD);
    await expect(page).toHaveURL(/\/$/);
  });

  test("the recovery pages have no axe violations", async ({ page }, testInfo) => {
    test.skip(!jsEnabled(testInfo), "axe-core needs JavaScript in the page");
    const check = async (label: string) => {
      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
        .analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
        label,
      ).toEqual([]);
    };
    await page.goto("/auth/forgot");
    await check("/auth/forgot");
    await page.goto("/auth/reset");
    await check("/auth/reset, no link");
    const shopper = await signUpAndConfirm(page, "axe_reset");
    await page.goto("/account");
    await check("/account");
    await logOut(page);
    await page.goto(await askForReset(page, shopper.email));
    await expect(page.getByLabel("New password", { exact: true })).toBeVisible();
    await check("/auth/reset, the form");
  });
});

/** Sends the forgot form for an address and checks the answer (no email is read). */
async function askForResetAnswerOnly(page: Page, email: string) {
  await page.goto("/auth/forgot");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  // The forgot page keeps the answer in a notice that stays; the toast says it too.
  await expect(page.getByTestId("lasting-notice")).toContainText(
    "If an account exists for that address, a reset link is on its way.",
  );
  await expect(page).toHaveURL(/\/auth\/forgot$/);
  await expectToast(page, "Check your email!");
  await expectToast(page, "If an account exists for that address, a reset link is on its way.");
}
