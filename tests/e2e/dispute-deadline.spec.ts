// A dispute's deadline for the shop's evidence, as Stripe sends it (evidence_details.due_by), on the
// console: "Respond by" on the queue's card (outside its disclosure) and beside the dispute on the
// order's page, at 390 and 1280 px, and axe finds nothing there. On the shop specs' server (Stripe's secret).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import Stripe from "stripe";
import { expect, expectOnTop, jsEnabled } from "./fixtures";
import { viewport, WIDTHS } from "./in-view-support";
import { logIn, mixerPage, placeOrder, shopperFor, STRIPE_SECRET, test } from "./shop-support";

async function expectNoViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    label,
  ).toEqual([]);
}

test("a Stripe dispute's deadline reads 'Respond by' on the queue's card and the order page", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  await logIn(page, shopperFor(testInfo, 2).email);
  const code = await placeOrder(page, ["9"]);
  const send = async (type: string, object: object) => {
    const payload = JSON.stringify({ id: `evt_${type}_${code}`, object: "event", livemode: true, type, data: { object } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET });
    const res = await page.request.post("/webhooks/stripe", {
      data: payload,
      headers: { "content-type": "application/json", "stripe-signature": signature },
    });
    return res.text();
  };
  const paid = { id: `cs_${code}`, client_reference_id: code, amount_total: 1200, currency: "usd", payment_status: "paid" };
  expect(await send("checkout.session.completed", { ...paid, payment_intent: `pi_${code}` })).toBe("paid");
  const dueBy = "2026-12-20T23:59:59.000Z";
  const dispute = {
    id: `dp_${code}`,
    object: "dispute",
    amount: 1200,
    currency: "usd",
    charge: `ch_${code}`,
    payment_intent: `pi_${code}`,
    reason: "product_not_received",
    status: "needs_response",
    evidence_details: { due_by: Date.parse(dueBy) / 1000, has_evidence: false },
  };
  expect(await send("charge.dispute.created", dispute)).toBe("disputed");

  const mixer = await mixerPage(browser, testInfo, baseURL);
  const m = mixer.page;
  for (const width of WIDTHS) {
    await m.setViewportSize(viewport(width));
    await m.goto(`/mixer?q=${code}`);
    const onCard = m.locator(`#order-${code}`).getByTestId("order-facts").getByTestId("dispute-deadline");
    await expect(onCard).toHaveText(/^Respond by Dec (20|21), 2026/);
    await expect(onCard.locator("time")).toHaveAttribute("datetime", dueBy);
    await expectOnTop(onCard, `${width} px: the card's deadline`);
    if (jsEnabled(testInfo)) await expectNoViolations(m, `${width} px: /mixer with a dispute's deadline`);
    await m.goto(`/mixer/orders/${code}`);
    const dispute = m.getByTestId("order-dispute");
    await expect(dispute).toContainText("needs your response");
    await expect(dispute.getByTestId("dispute-deadline")).toHaveText(/^Respond by Dec (20|21), 2026/);
    await expect(dispute.getByRole("link", { name: "Respond on Stripe's dashboard" })).toHaveAttribute(
      "href",
      `https://dashboard.stripe.com/payments/pi_${code}`,
    );
    await dispute.scrollIntoViewIfNeeded();
    await expectOnTop(dispute.getByTestId("dispute-deadline"), `${width} px: the order page's deadline`);
    if (jsEnabled(testInfo)) await expectNoViolations(m, `${width} px: /mixer/orders/{CODE} with a dispute's deadline`);
  }
  await mixer.close();
});
