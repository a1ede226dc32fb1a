// axe reports no violations on any page. axe-core hangs with JavaScript
// disabled, so it runs in the JS-on project; the server renders the same markup
// for both (the no-JS states: native audio controls, the open review dialog).
import AxeBuilder from "@axe-core/playwright";
import { addSongs, expect, fillSignUp, newIdentity, signInAsMixer, signUpAndConfirm, test } from "./fixtures";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { placeOrder, viewport, WIDTHS } from "./in-view-support";

async function expectNoViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, label).toEqual([]);
}

test.describe("Accessibility (axe)", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe-core needs JavaScript in the page");

  test("the signed-out pages have no axe violations", async ({ page }) => {
    await page.goto("/auth");
    await expectNoViolations(page, "/auth");
    await page.goto("/auth?mode=signup");
    await expectNoViolations(page, "/auth?mode=signup");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page.getByTestId("auth-error")).toBeVisible();
    await expectNoViolations(page, "/auth with errors");
    await page.goto("/missing-page");
    await expectNoViolations(page, "404");
  });

  test("the shopper's pages have no axe violations", async ({ page }) => {
    test.setTimeout(120_000); // ten pages, each scanned whole
    await signUpAndConfirm(page);
    await expectNoViolations(page, "/ empty");
    await addSongs(page, ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    await expect(page.locator("#deck")).not.toHaveAttribute("aria-busy", "true");
    await expectNoViolations(page, "/ full");
    await page.goto("/review");
    await page.getByRole("button", { name: "Generate Order Code" }).click();
    await expect(page.getByTestId("order-code")).toBeVisible();
    await expectNoViolations(page, "review dialog");
    await page.getByRole("button", { name: "Transmit Order" }).click();
    await expect(page).toHaveURL(/\/\?placed=[A-Z0-9]{8}$/);
    await expectNoViolations(page, "/ after an order (code and pay link)");
    const code = new URL(page.url()).searchParams.get("placed")!;
    await page.goto("/my-mixtapes");
    await expectNoViolations(page, "/my-mixtapes");
    await page.goto(`/my-mixtapes?cancel=${code}`);
    await expect(page.getByTestId("cancel-confirm")).toBeVisible();
    await expectNoViolations(page, "/my-mixtapes with the cancel confirmation");
    // The order's page, with a message and with a refusal in the form.
    await page.goto(`/my-mixtapes/${code}`);
    await page.getByLabel("Message", { exact: true }).fill("Loud, please");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByTestId("timeline-message")).toHaveCount(1);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByTestId("message-error")).toBeVisible();
    await expectNoViolations(page, "/my-mixtapes/{CODE}");
  });

  test("the shopper's answers in place at 390 and 1280 px: a cancel's in the order's card, a refused transmit in the review", async ({
    page,
  }) => {
    test.setTimeout(180_000); // eight scans of whole pages
    await signUpAndConfirm(page, "axeanswers");
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      for (const where of ["/my-mixtapes", "order page"]) {
        const code = await placeOrder(page.request, ["6"]);
        const url = where === "/my-mixtapes" ? where : `/my-mixtapes/${code}`;
        await page.goto(`${url}?cancel=${code}`);
        await page.getByRole("button", { name: "Yes, cancel it" }).click();
        await expect(page.getByTestId("order-answer").filter({ hasText: `Order ${code} is now Cancelled` })).toBeFocused();
        await expectNoViolations(page, `${width} px: ${where}, the cancel's answer`);
      }
      await page.goto("/");
      await addSongs(page, ["7"]);
      await page.goto("/review");
      await page.getByRole("button", { name: "Generate Order Code" }).click();
      await expect(page.getByTestId("order-code")).toBeVisible();
      // Another tab made a new code: this Transmit is refused.
      expect((await page.request.post("/review", { form: { intent: "generate-code" }, maxRedirects: 0 })).status()).toBe(303);
      await page.getByRole("button", { name: "Transmit Order" }).click();
      await expect(page.getByTestId("transmit-answer")).toBeFocused();
      await expectNoViolations(page, `${width} px: the review, a refused transmit's answer`);
      await page.goto("/");
      await page
        .locator("#deck")
        .getByRole("button", { name: /^Remove/ })
        .click();
      await expect(page.getByTestId("empty-hint")).toBeVisible();
    }
  });

  test("the mixer console has no axe violations", async ({ page, browser }, testInfo) => {
    const shopper = await browser.newContext();
    const shop = await shopper.newPage();
    await signUpAndConfirm(shop, "axe");
    await addSongs(shop, ["2", "3"]);
    await shop.goto("/review");
    await shop.getByRole("button", { name: "Generate Order Code" }).click();
    await shop.getByRole("button", { name: "Transmit Order" }).click();
    await expect(shop).toHaveURL(/placed=/);
    const code = new URL(shop.url()).searchParams.get("placed")!;
    // A second order, still received when the first is mixing.
    await addSongs(shop, ["5"]);
    await shop.goto("/review");
    await shop.getByRole("button", { name: "Generate Order Code" }).click();
    await shop.getByRole("button", { name: "Transmit Order" }).click();
    await expect(shop).toHaveURL(/placed=/);
    await shopper.close();

    await signInAsMixer(page, testInfo, "axe");
    await page.goto("/mixer");
    await expect(page.getByTestId("queue-order").first()).toBeVisible();
    await expectNoViolations(page, "/mixer");
    await page.getByTestId("queue-order").first().getByTestId("order-track-count").click();
    await expect(page.getByTestId("queue-order").first().getByTestId("order-tracks")).toBeVisible();
    await expectNoViolations(page, "/mixer with a card's tracks open");
    await page.getByTestId("queue-order").first().getByRole("button", { name: "Start Mixing" }).click();
    await page.getByTestId("queue-order").first().getByText("Add a link or a message").click();
    await expect(page.getByTestId("queue-order").first().getByLabel("Delivery link")).toBeVisible();
    await expectNoViolations(page, "/mixer with the Mark Sent form");
    // An order that leaves the filter: its answer stays where it stood.
    await page.goto("/mixer?filter=received");
    await page.getByTestId("queue-order").first().getByRole("button", { name: "Start Mixing" }).click();
    await expect(page.getByTestId("queue-moved")).toBeVisible();
    await expectNoViolations(page, "/mixer with a card's answer where it stood");
    await page.goto("/mixer?q=@@");
    await expectNoViolations(page, "/mixer with a search problem");
    await page.goto("/mixer/shop");
    await expectNoViolations(page, "/mixer/shop");
    await page.goto("/mixer/payments");
    await expectNoViolations(page, "/mixer/payments");
    // An order's page in the console, and the insights with every data table open.
    await page.goto(`/mixer/orders/${code}`);
    await expect(page.getByRole("heading", { name: "Timeline" })).toBeVisible();
    await expectNoViolations(page, "/mixer/orders/{CODE}");
    await page.goto("/mixer/insights");
    for (const summary of await page.getByText("Show the data").all()) await summary.click();
    await expectNoViolations(page, "/mixer/insights");
  });

  test("the console's day at 390 and 1280 px: the tape chip, the cards' disclosures, an answer in place, a downloaded tape's corrected version", async ({
    page,
    browser,
  }, testInfo) => {
    const shopper = await browser.newContext();
    const shop = await shopper.newPage();
    await signUpAndConfirm(shop, "axeday");
    const sent = await placeOrder(shop.request, ["2"]);
    const received = [await placeOrder(shop.request, ["3"]), await placeOrder(shop.request, ["4"])];
    await signInAsMixer(page, testInfo, "axe");
    const tone = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/audio/tone.mp3"));
    const upload = await page.request.post(`/mixer/orders/${sent}`, {
      multipart: { tape: { name: "tone.mp3", mimeType: "audio/mpeg", buffer: tone } },
      maxRedirects: 0,
    });
    expect(upload.status()).toBe(303);
    for (const intent of ["start-mixing", "mark-sent"]) {
      const res = await page.request.post("/mixer", {
        form: { intent, code: sent, deliveryUrl: "", message: "" },
        maxRedirects: 0,
      });
      expect(res.status()).toBe(303);
    }
    expect((await shop.request.get(`/my-mixtapes/${sent}/tape?download`)).status()).toBe(200);
    await shopper.close();
    await page.goto("/mixer"); // the posts' last answer is shown (and spent) here
    for (const [i, width] of WIDTHS.entries()) {
      await page.setViewportSize(viewport(width));
      await page.goto(`/mixer?q=${received[i]}`);
      await page.getByText("Mark paid by hand").click();
      await page.getByRole("button", { name: "Mark Paid" }).click();
      await expect(page.locator(`#order-${received[i]}`).getByTestId("order-answer")).not.toBeEmpty();
      await expectNoViolations(page, `${width} px: /mixer, a card's answer and its disclosures`);
      await page.goto(`/mixer?q=${sent}`);
      await expect(page.getByTestId("order-tape-chip")).toBeVisible();
      await expectNoViolations(page, `${width} px: /mixer with the tape chip`);
      await page.goto(`/mixer/orders/${sent}`);
      await expect(page.getByTestId("tape-locked")).toBeVisible();
      await expectNoViolations(page, `${width} px: /mixer/orders/{CODE}, the tape downloaded`);
      await page.goto(`/mixer/orders/${received[i]}`);
      await page.getByRole("button", { name: "Start Mixing" }).click();
      await expect(page.locator(`#order-${received[i]}`).getByTestId("order-answer")).not.toBeEmpty();
      await expectNoViolations(page, `${width} px: /mixer/orders/{CODE}, an answer in place`);
    }
  });

  test("the no-JS renders (native audio controls, preview links, plain forms) have no axe violations", async ({
    browser,
  }, testInfo) => {
    // Render with JS off, then load the same HTML into a JS-enabled page for axe.
    const off = await browser.newContext({ javaScriptEnabled: false });
    const offPage = await off.newPage();
    await signUpAndConfirm(offPage);
    const strip = (html: string) => html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
    const renders: Record<string, string> = { "/ without JS": strip(await offPage.content()) };
    await addSongs(offPage, ["4"]);
    await offPage.goto("/review");
    await offPage.getByRole("button", { name: "Generate Order Code" }).click();
    await offPage.getByRole("button", { name: "Transmit Order" }).click();
    await expect(offPage).toHaveURL(/placed=/);
    await offPage.goto(`/my-mixtapes/${new URL(offPage.url()).searchParams.get("placed")}`);
    renders["/my-mixtapes/{CODE} without JS"] = strip(await offPage.content());
    const mixer = await browser.newContext({ javaScriptEnabled: false });
    const mixerPage = await mixer.newPage();
    await signInAsMixer(mixerPage, testInfo, "axe");
    await mixerPage.goto("/mixer");
    renders["/mixer without JS"] = strip(await mixerPage.content());
    const base = new URL(offPage.url()).origin;
    await off.close();
    await mixer.close();
    const on = await browser.newContext({ javaScriptEnabled: true, baseURL: base });
    const page = await on.newPage();
    for (const [label, html] of Object.entries(renders)) {
      await page.route(`${base}/static-render`, (route) => route.fulfill({ contentType: "text/html", body: html }));
      await page.goto(`${base}/static-render`);
      // The console's cards hold their tracks behind a disclosure: open, so axe reads them too.
      await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
      // The console's long list links each preview to its file; the other pages have the browser's player
      // (the storefront's behind a disclosure, opened above).
      const preview = label.startsWith("/mixer")
        ? page.getByRole("link", { name: /^Play preview/ })
        : page.locator("audio[controls]");
      await expect(preview.first()).toBeVisible();
      await expectNoViolations(page, label);
      await page.unroute(`${base}/static-render`);
    }
    await on.close();
  });

  test("the account page has no axe violations, its forms' errors included", async ({ page }) => {
    await signUpAndConfirm(page, "axe_account");
    await page.goto("/account");
    await expectNoViolations(page, "/account");
    const remove = page.getByRole("region", { name: "Delete account" });
    await remove.getByRole("button", { name: "Delete my account" }).click();
    await expect(remove.getByTestId("auth-error")).toBeVisible();
    await expectNoViolations(page, "/account with the delete form's errors");
    const email = page.getByRole("region", { name: "Change email" });
    await email.getByLabel("New email").fill("not-an-address");
    await email.getByRole("button", { name: "Change email" }).click();
    await expect(email.getByTestId("auth-error")).toBeVisible();
    await expectNoViolations(page, "/account with the email form's errors");
    await page.goto("/account/email?token_hash=nothing&type=email_change");
    await expect(page.getByTestId("email-change-error")).toBeVisible();
    await expectNoViolations(page, "/account/email with a used link");
  });

  test("the front door and the lasting notices have no axe violations", async ({ page, browser }) => {
    await fillSignUp(page, newIdentity("axe27"));
    await expect(page.getByTestId("lasting-notice")).toBeVisible();
    await expectNoViolations(page, "/auth with the sign-up notice");
    await page.goto("/auth/forgot");
    await page.getByLabel("Email", { exact: true }).fill("nobody.axe@example.com");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByTestId("lasting-notice")).toBeVisible();
    await expectNoViolations(page, "/auth/forgot with its notice");
    // /auth without JavaScript: the preview is a link to its file.
    const off = await browser.newContext({ javaScriptEnabled: false });
    const offPage = await off.newPage();
    await offPage.goto(new URL("/auth", page.url()).toString());
    const html = (await offPage.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
    await off.close();
    const base = new URL(page.url()).origin;
    await page.route(`${base}/static-render`, (route) => route.fulfill({ contentType: "text/html", body: html }));
    await page.goto(`${base}/static-render`);
    await expect(page.getByTestId("preview-front-link")).toBeVisible();
    await expectNoViolations(page, "/auth without JS");
    await page.unroute(`${base}/static-render`);
  });
});
