import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, testChromiumPath } from "./tests/support/chromium.js";

// One fresh data dir per run, shared with the workers (they inherit the env).
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-e2e-"));
process.env.E2E_PORT ??= String(3300 + Math.floor(Math.random() * 500));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  // Generous: two Chromiums, the server and the runner share 2 cores.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL,
    // Tracing every attempt cost 40 % of the end-to-end time (docs/testing.md); a failure is traced on its retry.
    trace: "on-first-retry",
    // No animation frames to paint: with the headless shell, a third less CPU on 2 cores (docs/testing.md).
    contextOptions: { reducedMotion: "reduce" },
    launchOptions: {
      executablePath: testChromiumPath(),
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: "js-on", use: { javaScriptEnabled: true, viewport: { width: 1280, height: 900 } } },
    { name: "js-off", use: { javaScriptEnabled: false, viewport: { width: 1280, height: 900 } } },
  ],
  webServer: {
    command: "node build/server/index.js",
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: process.env.E2E_PORT,
      HOST: "127.0.0.1",
      SITE_URL: baseURL, // email links open on the origin the tests browse
      DATA_DIR: process.env.E2E_DATA_DIR,
      NODE_ENV: "production",
      RATE_LIMIT_FACTOR: "1000",
      MIXER_NAME: "DJ Aika",
      PRODUCT_LABEL: "VIRTUAL MIXTAPE",
      CHECKOUT_URL: "https://example.com/checkout",
      // Mixer accounts (tests/e2e/fixtures.ts MIXERS, created by global-setup.ts).
      MIXER_EMAILS: "mixer.js-on@example.com,mixer.js-off@example.com,mixer.axe@example.com",
      // Request lines would drown the test report; warnings and errors still show.
      LOG_LEVEL: "warn",
      // The deployer's switches, on unless the run turns them off (scripts/test.js runs the smoke specs with both off).
      DEFER_SCRIPTS: process.env.DEFER_SCRIPTS ?? "1",
      BUFFER_HTML: process.env.BUFFER_HTML ?? "1",
      BATCH_DB_CALLS: process.env.BATCH_DB_CALLS ?? "1",
    },
  },
});
