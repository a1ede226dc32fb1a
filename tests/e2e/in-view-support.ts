// The in-view specs' shared set-up: the two widths, an order placed as a browser without
// JavaScript places it, and the mixer's page in a context of the test's JavaScript mode.
import type { APIRequestContext, Browser, Page, TestInfo } from "@playwright/test";
import { expect, jsEnabled, signInAsMixer } from "./fixtures";

export const WIDTHS = [390, 1280] as const;
export const viewport = (width: number) => ({ width, height: width === 390 ? 844 : 900 });

/** One order through the form posts a browser without JavaScript sends; its code. */
export async function placeOrder(
  request: APIRequestContext,
  songs: string[],
  design?: string,
  startingWith?: string,
): Promise<string> {
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

export async function mixerPage(browser: Browser, testInfo: TestInfo) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
  const page = await context.newPage();
  await signInAsMixer(page, testInfo);
  return { page, close: () => context.close() };
}

/** The mixer's form posts, as a browser without JavaScript sends them. */
export const mixerPost = (m: Page, form: Record<string, string>) => m.request.post("/mixer", { form, maxRedirects: 0 });
