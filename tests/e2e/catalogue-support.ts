// The catalogue specs' server of their own (the catalogue and the shop's words are the whole shop's),
// its accounts, the files a mixer uploads, and the steps the tests share.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { signUpConfirmed, startApp, type AppServer } from "../support/app-server";
import { expect, expectToast, jsEnabled, PASSWORD, test as base, waitForScripts } from "./fixtures";

export const MIXERS = [
  { username: "cat_dj_a", email: "cat.dj.a@example.com" },
  { username: "cat_dj_b", email: "cat.dj.b@example.com" },
];
export const SHOPPERS = Array.from({ length: 4 }, (_, i) => ({ username: `cat_fan_${i}`, email: `cat.fan.${i}@example.com` }));
export const AUDIO = path.resolve(import.meta.dirname, "../fixtures/audio");

export type CatalogueServer = { server: AppServer; dataDir: string; files: Record<string, string> };

/** The files a mixer picks: pictures made here (sharp), a text file, and the audio fixtures. */
async function makeFiles(dir: string): Promise<Record<string, string>> {
  const picture = (w: number, h: number, r: number, g: number, b: number) =>
    sharp({ create: { width: w, height: h, channels: 3, background: { r, g, b } } });
  const files = {
    thumbPng: path.join(dir, "new-thumb.png"),
    thumbJpg: path.join(dir, "other-thumb.jpg"),
    designPng: path.join(dir, "dawn-patrol.png"),
    coverWebp: path.join(dir, "cover.webp"),
    wide: path.join(dir, "panorama.png"),
    svg: path.join(dir, "logo.svg"),
    text: path.join(AUDIO, "notes.txt"),
    mp3: path.join(AUDIO, "tone.mp3"),
    ogg: path.join(AUDIO, "tone.ogg"),
  };
  await picture(300, 300, 25, 194, 181).png().toFile(files.thumbPng);
  await picture(200, 200, 240, 60, 60).jpeg().toFile(files.thumbJpg);
  await picture(640, 400, 120, 40, 200).png().toFile(files.designPng);
  await picture(800, 500, 10, 10, 60).webp().toFile(files.coverWebp);
  await picture(50_000, 2, 0, 0, 0).png().toFile(files.wide);
  fs.writeFileSync(files.svg, '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script></svg>');
  return files;
}

export const test = base.extend<{ baseURL: string }, { shop: CatalogueServer }>({
  shop: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-e2e-catalogue-"));
      const server = await startApp({
        DATA_DIR: dataDir,
        MIXER_EMAILS: MIXERS.map((m) => m.email).join(","),
        RATE_LIMIT_FACTOR: "1000",
        LOG_LEVEL: "warn",
      });
      for (const account of [...MIXERS, ...SHOPPERS])
        await signUpConfirmed(server.url, dataDir, { ...account, password: PASSWORD });
      const files = await makeFiles(dataDir);
      await use({ server, dataDir, files });
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

/** A page of its own for a mixer, in this project's JavaScript mode. */
export async function mixerPage(browser: Browser, testInfo: TestInfo, baseURL: string, mixer = MIXERS[0]) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo), baseURL });
  const page = await context.newPage();
  await logIn(page, mixer.email);
  return { page, close: () => context.close() };
}

export const songRow = (page: Page, id: string) => page.locator(`#song-${id}`);

/** Picks a file for a catalogue form's field: with JavaScript it is uploaded at once (progress, then "ready"). */
export async function pickFile(page: Page, testInfo: TestInfo, label: string | RegExp, file: string) {
  if (jsEnabled(testInfo)) await waitForScripts(page);
  const input = page.getByLabel(label, { exact: typeof label === "string" });
  await input.setInputFiles(file);
  if (jsEnabled(testInfo)) {
    const field = page.locator("[data-testid^=media-]").filter({ has: input });
    await expect(field.getByTestId("media-ready").or(field.getByTestId("media-error"))).toBeVisible();
  }
}

export async function saveAndExpect(page: Page, toast: string) {
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expectToast(page, toast);
}

export const shopperFor = (testInfo: TestInfo, n: number) => SHOPPERS[(jsEnabled(testInfo) ? 0 : 2) + n];
