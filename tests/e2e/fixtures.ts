// Shared end-to-end helpers. Every test makes its own shoppers through the real
// sign-up flow, reading the confirmation link from the outbox in DATA_DIR.
import crypto from "node:crypto";
import { expect, test as base, type Locator, type Page } from "@playwright/test";
import { waitForMail, type Mail } from "../support/outbox";

export const DATA_DIR = process.env.E2E_DATA_DIR!;
export const PASSWORD = "correct-horse-42";

export type Shopper = { username: string; email: string; password: string };

export function newIdentity(prefix = "rebel"): Shopper {
  const id = crypto.randomBytes(4).toString("hex");
  return { username: `${prefix}_${id}`, email: `${prefix}.${id}@example.com`, password: PASSWORD };
}

export type { Mail };

/** The newest mail to this address (that matches), waiting for it to land in the outbox. */
export const readMail = (to: string, matches: (mail: Mail) => boolean = () => true): Promise<Mail> =>
  waitForMail(DATA_DIR, to, matches);

export async function confirmLink(to: string): Promise<string> {
  const mail = await readMail(to);
  const link = mail.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error("no link in mail");
  return link;
}

export async function fillSignUp(page: Page, s: Shopper) {
  await page.goto("/auth?mode=signup");
  await page.getByLabel("Username", { exact: true }).fill(s.username);
  await page.getByLabel("Email", { exact: true }).fill(s.email);
  await page.getByLabel("Password").fill(s.password);
  await page.getByRole("button", { name: "Sign Up" }).click();
}

/**
 * A new confirmed shopper, signed in on /: the sign-up form is posted over HTTP (the
 * browser's own cookie jar; tests/e2e/auth.spec.ts drives the form itself), then the
 * emailed link is opened in the page.
 */
export async function signUpAndConfirm(page: Page, prefix?: string): Promise<Shopper> {
  const s = newIdentity(prefix);
  const signUp = await page.request.post("/auth?mode=signup", {
    form: { mode: "signup", username: s.username, email: s.email, password: s.password },
    maxRedirects: 0,
  });
  expect(signUp.status(), "sign-up answers with a redirect").toBe(302);
  await page.goto(await confirmLink(s.email));
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("display-name")).toHaveText(s.username);
  return s;
}

export async function logIn(page: Page, identifier: string, password: string) {
  await page.goto("/auth");
  await page.getByLabel("Email or Username").fill(identifier);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

/** The mixer accounts (MIXER_EMAILS in playwright.config.ts), created by global-setup.ts. */
export const MIXERS = ["js-on", "js-off", "axe"].map((name) => ({
  name,
  username: `mixer_${name.replace("-", "_")}`,
  email: `mixer.${name}@example.com`,
}));

/** Logs in this project's mixer (or the named one). */
export async function signInAsMixer(
  page: Page,
  testInfo: { project: { name: string } },
  name = testInfo.project.name,
): Promise<Shopper> {
  const mixer = { ...MIXERS.find((m) => m.name === name)!, password: PASSWORD };
  await logIn(page, mixer.email, mixer.password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("display-name")).toHaveText(mixer.username);
  return mixer;
}

/** Opens the review dialog from the deck panel. */
export async function openReview(page: Page) {
  await expect(page.locator("#deck")).not.toHaveAttribute("aria-busy", "true");
  await page.locator("#deck").getByRole("button", { name: "Review Order" }).click();
  await expect(page).toHaveURL(/\/review$/);
  return page.getByTestId("review-dialog");
}

/** Generates (or regenerates) the order code in the open review dialog; returns it. */
export async function generateCode(page: Page) {
  const dialog = page.getByTestId("review-dialog");
  const code = dialog.getByTestId("order-code");
  // Regenerating: the code shown before is not the answer; wait for the new one.
  const before = (await code.count()) ? await code.textContent() : null;
  await dialog.getByRole("button", { name: /Generate Order Code|Regenerate Order Code/ }).click();
  await expect(code).toHaveText(/^[A-Z0-9]{8}$/);
  if (before) await expect(code).not.toHaveText(before);
  return (await code.textContent())!;
}

export async function logOut(page: Page) {
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expectToast(page, "Signed out");
}

/** A toast with this text is shown (toasts queue with JavaScript: any of them). */
export async function expectToast(page: Page, text: string) {
  await expect(page.getByTestId("toast").filter({ hasText: text }).first()).toBeAttached();
}

/** A console action's answer, in the queue's card (or where a card that left the list stood). */
export async function expectCardAnswer(page: Page, text: string) {
  await expect(page.getByTestId("order-answer").filter({ hasText: text }).first()).toBeVisible();
}

/**
 * A refund by hand: its disclosure opened, the amount typed, and the button that names it pressed.
 * Without JavaScript the button still names the amount it was drawn with, so the server asks first.
 */
export async function refundByHand(
  page: Page,
  card: Locator,
  amount: string,
  money: string,
  testInfo: { project: { name: string } },
) {
  const refund = card.getByTestId("refund-by-hand");
  if (!(await refund.evaluate((d) => (d as HTMLDetailsElement).open)))
    await refund.getByText("Refund by hand", { exact: true }).click();
  const field = refund.getByLabel(/^Amount/);
  if ((await field.inputValue()) !== amount) {
    await field.fill(amount);
    if (!jsEnabled(testInfo)) {
      await refund.getByRole("button", { name: /^Refund / }).click();
      await expectToast(page, `Refund ${money}? Press “Refund ${money}” to record it.`);
    }
  }
  await card
    .getByTestId("refund-by-hand")
    .getByRole("button", { name: `Refund ${money}` })
    .click();
}

/**
 * The answer is on screen and nothing covers it: it intersects the viewport, and the topmost
 * element at its own centre (document.elementFromPoint) is the answer or inside it.
 */
export async function expectOnTop(locator: Locator, label = "the answer") {
  await expect(locator, `${label} is in the viewport`).toBeInViewport();
  await expect
    .poll(
      () =>
        locator.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const x = Math.min(Math.max(r.left + r.width / 2, 0), window.innerWidth - 1);
          const y = Math.min(Math.max(r.top + r.height / 2, 0), window.innerHeight - 1);
          const hit = document.elementFromPoint(x, y);
          if (hit && (hit === el || el.contains(hit))) return "on top";
          return hit ? `covered by <${hit.tagName.toLowerCase()} ${hit.className}>` : "nothing there";
        }),
      { message: `${label} is the topmost element at its centre` },
    )
    .toBe("on top");
}

export const jsEnabled = (testInfo: { project: { name: string } }) => testInfo.project.name === "js-on";

/** The page's scripts have started: React Router's router exists and has loaded, and React had a frame to hydrate. */
export async function waitForScripts(page: Page) {
  await page.waitForFunction(() => {
    const router = (window as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter;
    return router?.state.initialized === true;
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Adds songs by id through the song cards, waiting for each to land in the deck. */
export async function addSongs(page: Page, ids: string[]) {
  for (const id of ids) {
    const card = page.locator(`#song-${id}`);
    await card.getByRole("button", { name: /^Add to Mixtape/ }).click();
    await expect(card.getByRole("button", { name: /^Add to Mixtape/ })).toBeDisabled();
  }
}

/**
 * Every page must hydrate cleanly: a React hydration error (the server's markup and the
 * browser's first render differ) fails the test, even though React recovers from it by
 * rendering on the client.
 */
const HYDRATION_ERROR = /hydrat|Minified React error #(418|423|425)/i;

const posts = new WeakMap<Page, { open: number; last: number }>();
/**
 * Every form or fetcher POST the page sent has its answer, and none was sent for half a second.
 * Playwright's own "networkidle" sometimes never fires here although Chromium reports the page
 * idle (docs/testing.md), so the tests wait for what they need: the deck's saves.
 */
export async function postsSettled(page: Page) {
  const state = posts.get(page)!;
  const since = Date.now();
  await expect.poll(() => state.open === 0 && Date.now() - Math.max(state.last, since) >= 500, { intervals: [100] }).toBe(true);
}

/** Counts the page's POSTs for postsSettled (the test's own page does it; call it for another context's). */
export function trackPosts(page: Page) {
  const state = { open: 0, last: 0 };
  posts.set(page, state);
  page.on("request", (r) => {
    if (r.method() !== "POST") return;
    state.open++;
    state.last = Date.now();
  });
  const answered = (r: import("@playwright/test").Request) => {
    if (r.method() !== "POST") return;
    state.open--;
    state.last = Date.now();
  };
  page.on("requestfinished", answered);
  page.on("requestfailed", answered);
}

export const test = base.extend<{ page: Page }>({
  page: async ({ page }, use, testInfo) => {
    trackPosts(page);
    const errors: string[] = [];
    // A failure's first attempt is not traced (playwright.config.ts): what the page threw goes with its report.
    const thrown: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") thrown.push(`console: ${m.text()}`);
      if (m.type() === "error" && HYDRATION_ERROR.test(m.text())) errors.push(m.text());
    });
    page.on("pageerror", (e) => {
      thrown.push(`uncaught: ${e.stack ?? e.message}`);
      if (HYDRATION_ERROR.test(e.message)) errors.push(e.message);
    });
    await use(page);
    if (testInfo.status !== testInfo.expectedStatus && thrown.length)
      await testInfo.attach("browser errors", { body: thrown.join("\n"), contentType: "text/plain" });
    expect(errors, "React hydration errors").toEqual([]);
  },
});
export { expect };

/** Mark Paid on a queue's card: its disclosure opened first (the card's one primary action stands alone). */
export async function markPaidOnCard(card: Locator, amount?: string) {
  const place = card.getByTestId("mark-paid");
  if (!(await place.evaluate((d) => (d as HTMLDetailsElement).open))) await place.getByText("Mark paid by hand").click();
  if (amount) await place.getByLabel("Amount (USD)").fill(amount);
  await place.getByRole("button", { name: "Mark Paid" }).click();
}

/** Mark Sent on a queue's card, with a link and a message behind its disclosure. */
export async function markSentOnCard(card: Locator, { link, message }: { link?: string; message?: string }) {
  const fields = card.getByText("Add a link or a message");
  if (!(await card.getByLabel("Delivery link").isVisible())) await fields.click();
  if (link !== undefined) await card.getByLabel("Delivery link").fill(link);
  if (message !== undefined) await card.getByLabel("Message to the shopper").fill(message);
  await card.getByRole("button", { name: "Mark Sent" }).click();
}
