// The DJ's day on a phone and a desktop, in both JavaScript modes: cards that carry their facts and
// one primary action (the rest behind a disclosure or on the order's page), answers where the action
// was, and the focus kept on the control acted on.
import { expect, signUpAndConfirm, test } from "./fixtures";
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
