// The shop specs' server of their own (the shop's settings are the whole shop's), its accounts and
// the steps the tests share: logging in, the mixer's page, an order placed through the forms.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { signUpConfirmed, startApp, type AppServer } from "../support/app-server";
import { addSongs, expect, expectToast, generateCode, jsEnabled, openReview, PASSWORD, test as base } from "./fixtures";

export const STRIPE_SECRET = "whsec_e2e_shop_secret";
export const MIXER = { username: "shop_dj", email: "shop.dj@example.com" };
export const SHOPPERS = Array.from({ length: 6 }, (_, i) => ({ username: `shop_fan_${i}`, email: `shop.fan.${i}@example.com` }));

export type ShopServer = { server: AppServer; dataDir: string; restart(): Promise<void> };

export const test = base.extend<{ baseURL: string }, { shop: ShopServer }>({
  shop: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-e2e-shop-"));
      const env = {
        DATA_DIR: dataDir,
        STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
        MIXER_EMAILS: MIXER.email,
        RATE_LIMIT_FACTOR: "1000",
        LOG_LEVEL: "warn",
      };
      let server = await startApp(env);
      for (const account of [MIXER, ...SHOPPERS]) await signUpConfirmed(server.url, dataDir, { ...account, password: PASSWORD });
      const shop: ShopServer = {
        dataDir,
        get server() {
          return server;
        },
        async restart() {
          await server.stop();
          server = await startApp(env, Number(new URL(server.url).port));
        },
      };
      await use(shop);
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ shop }, use) => use(shop.server.url),
});

export async function logIn(page: Page, email: string) {
  await page.goto("/auth");
  await page.getByLabel("Email or Username").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/$/);
}

export async function mixerPage(browser: Browser, testInfo: TestInfo, baseURL: string) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo), baseURL });
  const page = await context.newPage();
  await logIn(page, MIXER.email);
  return { page, close: () => context.close() };
}

/** Builds a deck of two songs and transmits it: the order's code. */
export async function placeOrder(page: Page, songs = ["7", "8"]) {
  await page.goto("/");
  await addSongs(page, songs);
  await openReview(page);
  const code = await generateCode(page);
  await page.getByRole("button", { name: "Transmit Order" }).click();
  await expectToast(page, "Order Submitted!");
  return code;
}

export const card = (page: Page, code: string) => page.getByTestId("order-card").filter({ hasText: code });

export async function consoleCard(page: Page, code: string) {
  await page.goto(`/mixer?q=${code}`);
  const order = page.getByTestId("queue-order");
  await expect(order).toHaveCount(1);
  return order;
}

export async function saveSettings(page: Page, settings: { open: boolean; message?: string; most?: string }) {
  await page.goto("/mixer/shop");
  await expect(page.getByRole("heading", { name: "Shop Settings", level: 1 })).toBeVisible();
  await page.getByLabel("Shop open").setChecked(settings.open);
  await page.getByLabel("Message when closed").fill(settings.message ?? "");
  await page.getByLabel("Most open orders").fill(settings.most ?? "");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expectToast(page, "Settings saved.");
}

export const shopperFor = (testInfo: TestInfo, n: number) => SHOPPERS[(jsEnabled(testInfo) ? 0 : 3) + n];
