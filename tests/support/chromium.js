// Finds Debian's Chromium for Playwright (never `playwright install`).
import fs from "node:fs";

export const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
/** Debian's `chromium-headless-shell`: the same engine without the browser's UI layers. */
export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/** CHROMIUM_PATH, or Debian's chromium; undefined when none is installed. */
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return CHROMIUM_CANDIDATES.find((p) => fs.existsSync(p));
}

/** The end-to-end tests' browser: the headless shell when installed (a quarter less CPU on 2 cores), else chromiumPath(). */
export function testChromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : chromiumPath();
}

/** Flags for Debian's Chromium on these machines (as root, no network but localhost). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-quic",
];
