// The DJ's day on a phone and a desktop, in both JavaScript modes: cards that carry their facts and
// one primary action (the rest behind a disclosure or on the order's page), answers where the action
// was, and the focus kept on the control acted on.
import { expect, expectOnTop, signUpAndConfirm, test } from "./fixtures";
import { mixerPage, mixerPost, placeOrder, viewport } from "./in-view-support";

test.describe("The console's cards", () => {
  test("on a phone a card holds its facts and one primary action: received, mixing and sent cards stay short, and Mark Sent still takes a link", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "short");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    await m.setViewportSize(viewport(390));
    const [received, mixing, sent] = [
      await placeOrder(page.request, ["3", "4", "5"]),
      await placeOrder(page.request, ["6", "7", "8"]),
      await placeOrder(page.request, ["9", "10", "11"]),
    ];
    // Paid by hand on its page, then sent: its card's money action is a refund by hand.
    await m.goto(`/mixer/orders/${sent}`);
    await m.getByRole("button", { name: "Mark Paid" }).click();
    await expect(m.getByText("Undo: paid $10.00 by hand")).toBeVisible();
    for (const code of [mixing, sent]) expect((await mixerPost(m, { intent: "start-mixing", code })).status()).toBe(303);
    expect((await mixerPost(m, { intent: "mark-sent", code: sent, deliveryUrl: "", message: "" })).status()).toBe(303);

    const heights: Record<string, number> = {};
    for (const [name, code] of Object.entries({ received, mixing, sent })) {
      await m.goto(`/mixer?q=${code}`);
      const card = m.locator(`#order-${code}`);
      await expect(card.getByTestId("order-code")).toHaveText(code);
      heights[name] = Math.round((await card.boundingBox())!.height);
      // Every form of a card but its primary action is closed: no field is shown.
      for (const field of await card.locator("input:not([type=hidden]), textarea").all())
        expect.soft(await field.isVisible(), `a field of the ${name} card`).toBe(false);
    }
    console.log(`card heights at 390 px: ${JSON.stringify(heights)}`);
    for (const [name, height] of Object.entries(heights)) expect(height, `a ${name} card at 390 px`).toBeLessThanOrEqual(320);

    // Mark Sent with a link: its fields are one tap away, in the same form.
    await m.goto(`/mixer?q=${mixing}`);
    const card = m.locator(`#order-${mixing}`);
    await card.getByText("Add a link or a message").click();
    await card.getByLabel("Delivery link").fill("https://example.com/tape");
    await card.getByRole("button", { name: "Mark Sent" }).click();
    await m.goto(`/mixer/orders/${mixing}`);
    await expect(m.getByTestId("order-status")).toHaveText("Status: Sent");
    await expect(m.getByRole("link", { name: "https://example.com/tape" })).toBeVisible();
    await mixer.close();
  });
});

test.describe("Answers where the action was", () => {
  test("on the order page a console action's answer is in the order's card, on top and focused, never a toast over the controls", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "inplace");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    for (const width of [390, 1280]) {
      const code = await placeOrder(page.request, ["12"]);
      await m.setViewportSize(viewport(width));
      await m.goto(`/mixer/orders/${code}`);
      const card = m.locator(`#order-${code}`);
      const answer = card.getByTestId("order-answer");
      await card.getByRole("button", { name: "Mark Paid" }).click();
      await expect(answer).toHaveText(`Payment of $10.00 recorded for ${code}`);
      await expect(answer, `${width} px: the answer takes the focus`).toBeFocused();
      await expectOnTop(answer, `${width} px: Mark Paid's answer`);
      await expect(m.getByTestId("toast")).toHaveCount(0);
      await card.getByRole("button", { name: "Start Mixing" }).click();
      await expect(answer).toHaveText(`Order ${code} is now Mixing`);
      await expect(answer).toBeFocused();
      // Cancelled with its money due back: the answer and the Refund due badge are both in view, uncovered.
      await card.getByText("Cancel Order", { exact: true }).first().click();
      await card.getByRole("button", { name: "Cancel Order" }).click();
      await expect(answer).toHaveText(`Order ${code} is now Cancelled`);
      await expect(m.getByTestId("toast")).toHaveCount(0);
      await expectOnTop(answer, `${width} px: the cancel's answer`);
      const due = card.getByText(/^Refund due/);
      await due.scrollIntoViewIfNeeded();
      await expectOnTop(due, `${width} px: the Refund due badge`);
    }
    await mixer.close();
  });

  test("on the queue the card's answer takes the focus after Start Mixing and Mark Paid", async ({ page, browser }, testInfo) => {
    await signUpAndConfirm(page, "focus");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    const code = await placeOrder(page.request, ["13"]);
    await m.goto(`/mixer?q=${code}`);
    const card = m.locator(`#order-${code}`);
    await card.getByRole("button", { name: "Start Mixing" }).click();
    await expect(card.getByTestId("order-answer")).toHaveText(`Order ${code} is now Mixing`);
    await expect(card.getByTestId("order-answer")).toBeFocused();
    await card.getByText("Mark paid by hand").click();
    await card.getByRole("button", { name: "Mark Paid" }).click();
    await expect(card.getByTestId("order-answer")).toHaveText(`Payment of $10.00 recorded for ${code}`);
    await expect(card.getByTestId("order-answer")).toBeFocused();
    await mixer.close();
  });
});
