// The shopper owns the account, on /account, with and without JavaScript:
// download my data, delete my account, change my email, sign out everywhere else.
import fs from "node:fs";
import type { Browser, Page, TestInfo } from "@playwright/test";
import {
  addSongs,
  expect,
  expectToast,
  generateCode,
  jsEnabled,
  logIn,
  logOut,
  newIdentity,
  openReview,
  readMail,
  signUpAndConfirm,
  test,
  type Shopper,
} from "./fixtures";

const linkIn = (text: string, path: string) => new RegExp(`https?://\\S+${path}\\S*`).exec(text)?.[0];

/** A second browser (its own cookies), with this project's JavaScript setting. */
async function secondBrowser(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, javaScriptEnabled: jsEnabled(testInfo) });
  return context.newPage();
}

async function openAccount(page: Page) {
  await page.getByRole("link", { name: "Account", exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
}

const deleteSection = (page: Page) => page.getByRole("region", { name: "Delete account" });

test.describe("The shopper owns the account", () => {
  test("download my data: a JSON file with the profile and the order", async ({ page }) => {
    const shopper = await signUpAndConfirm(page, "data");
    await addSongs(page, ["4", "9"]);
    await openReview(page);
    const code = await generateCode(page);
    await page.getByTestId("review-dialog").getByRole("button", { name: "Transmit Order" }).click();
    await expect(page).toHaveURL(new RegExp(`placed=${code}$`));

    await openAccount(page);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download my data" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`mixtape-data-${shopper.username}.json`);
    const doc = JSON.parse(fs.readFileSync(await file.path(), "utf8"));
    expect(doc.profile).toMatchObject({ username: shopper.username, email: shopper.email });
    expect(doc.orders).toHaveLength(1);
    expect(doc.orders[0]).toMatchObject({ code, status: "received", payment: { paid: false } });
    expect(doc.orders[0].tracks.map((t: { id: string }) => t.id)).toEqual(["4", "9"]);
    expect(JSON.stringify(doc)).not.toMatch(/password|session/i);
  });

  test("delete my account: a wrong password is refused, the right one deletes; the same email signs up again", async ({
    page,
  }) => {
    const shopper = await signUpAndConfirm(page, "leaver");
    await openAccount(page);
    const section = deleteSection(page);
    await section.getByLabel("Password").fill("not-my-password-1");
    await section.getByLabel("Type DELETE to confirm").fill("DELETE");
    await section.getByRole("button", { name: "Delete my account" }).click();
    await expect(section.getByTestId("auth-error")).toHaveText("Your current password is not correct.");
    await expect(page).toHaveURL(/\/account$/);

    await section.getByLabel("Password").fill(shopper.password);
    await section.getByLabel("Type DELETE to confirm").fill("DELETE");
    await section.getByRole("button", { name: "Delete my account" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expectToast(page, "Account deleted");
    await readMail(shopper.email, (m) => /is deleted$/.test(m.subject));
    await logIn(page, shopper.email, shopper.password);
    await expect(page.getByTestId("auth-error")).toHaveText("Invalid login credentials");

    // The same email and username make a new account.
    await signUpAgain(page, shopper);
    await expect(page.getByTestId("display-name")).toHaveText(shopper.username);
  });

  test("change email: the link to the new address makes it the login", async ({ page }) => {
    const shopper = await signUpAndConfirm(page, "mover");
    const next = newIdentity("moved").email;
    await openAccount(page);
    const section = page.getByRole("region", { name: "Change email" });
    await section.getByLabel("New email").fill(next);
    await section.getByLabel("Password").fill(shopper.password);
    await section.getByRole("button", { name: "Change email" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expectToast(page, "Check your new email!");
    await expect(page.getByTestId("account-pending-email")).toContainText(next);
    await expect(page.getByTestId("account-email")).toHaveText(shopper.email);

    const mail = await readMail(next, (m) => /\/account\/email\?/.test(m.text));
    await readMail(shopper.email, (m) => /about to change$/.test(m.subject));
    await page.goto(linkIn(mail.text, "/account/email")!);
    await expect(page).toHaveURL(/\/account$/);
    await expectToast(page, "Email changed");
    await expect(page.getByTestId("account-email")).toHaveText(next);

    await page.goto("/");
    await logOut(page);
    await logIn(page, shopper.email, shopper.password);
    await expect(page.getByTestId("auth-error")).toHaveText("Invalid login credentials");
    await logIn(page, next, shopper.password);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("display-name")).toHaveText(shopper.username);
  });

  test("sign out everywhere else: a second browser is signed out, this one stays", async ({ page, browser }, testInfo) => {
    const shopper = await signUpAndConfirm(page, "everywhere");
    const other = await secondBrowser(browser, testInfo);
    await logIn(other, shopper.email, shopper.password);
    await expect(other).toHaveURL(/\/$/);

    await openAccount(page);
    await page.getByRole("button", { name: "Sign out everywhere else" }).click();
    await expectToast(page, "1 other session signed out.");
    await expect(page).toHaveURL(/\/account$/);

    await other.goto("/my-mixtapes");
    await expect(other).toHaveURL(/\/auth$/);
    await other.context().close();
    await page.goto("/my-mixtapes");
    await expect(page).toHaveURL(/\/my-mixtapes$/);
  });
});

/** Signs up with this identity again (over HTTP, as signUpAndConfirm does) and opens the new confirmation link. */
async function signUpAgain(page: Page, s: Shopper) {
  const res = await page.request.post("/auth?mode=signup", {
    form: { mode: "signup", username: s.username, email: s.email, password: s.password },
    maxRedirects: 0,
  });
  expect(res.status(), "sign-up answers with a redirect").toBe(302);
  // Sent before the answer, so the newest confirmation email is the new account's.
  const mail = await readMail(s.email, (m) => /\/auth\/confirm\?/.test(m.text));
  await page.goto(linkIn(mail.text, "/auth/confirm")!);
  await expect(page).toHaveURL(/\/$/);
}
