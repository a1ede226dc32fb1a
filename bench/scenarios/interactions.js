#!/usr/bin/env node
// What a shopper on a slow phone feels, in Chromium with the CPU slowed 4×:
// - interaction delay: Event Timing entries (PerformanceObserver, type "event",
//   durationThreshold 16) for each kind of tap, 10 of each; an interaction's delay is the
//   longest entry of its interactionId (under 16 ms none is reported: counted as 16);
// - layout shift: the CLS while a page loads and while it is scrolled top to bottom, at
//   390 and 1280 px.
// `npm run bench` runs it; alone: node bench/run.js interactions (after npm run build).
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "../../tests/support/chromium.js";
import { freePort, mkTemp, newAgent, percentile, placeOrder, signUpShopper, sleep, startApp, stopChild } from "../lib/index.js";

export const ROUNDS = 10;
export const CPU_SLOWDOWN = 4;

const OBSERVE = `
  window.__events = [];
  window.__shifts = [];
  window.__shiftSources = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) window.__events.push({ id: e.interactionId, name: e.name, duration: e.duration });
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
  // Each shift with what moved (a null node lives in a browser's own shadow DOM), for the report.
  const describe = (n) => (n?.localName ? n.localName + (n.id ? "#" + n.id : "") + (typeof n.className === "string" && n.className ? "." + n.className.trim().split(/\\s+/).slice(0, 3).join(".") : "") : "(browser's own)");
  const rect = (r) => [r.x, r.y, r.width, r.height].map(Math.round).join(",");
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (!e.hadRecentInput) {
        window.__shifts.push(e.value);
        window.__shiftSources.push({ value: e.value, at: Math.round(e.startTime), nodes: e.sources.map((x) => describe(x.node) + " " + rect(x.previousRect) + " -> " + rect(x.currentRect)) });
      }
  }).observe({ type: "layout-shift", buffered: true });
`;

/** A context signed in as this shopper (their cookies), with the observers installed. */
async function shopperPage(browser, base, shopper, viewport = { width: 390, height: 844 }) {
  const context = await browser.newContext({ viewport, baseURL: base });
  const { hostname } = new URL(base);
  await context.addCookies(
    shopper.jar
      .header()
      .split("; ")
      .filter(Boolean)
      .map((pair) => {
        const i = pair.indexOf("=");
        return { name: pair.slice(0, i), value: pair.slice(i + 1), domain: hostname, path: "/" };
      }),
  );
  await context.addInitScript(OBSERVE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  return { context, page, cdp };
}

const slow = (cdp, rate) => cdp.send("Emulation.setCPUThrottlingRate", { rate });

/** Runs `act` and answers the longest Event Timing entry of the interactions it caused (16 when none reached 16 ms). */
async function timed(page, act) {
  const before = await page.evaluate(() => window.__events.length);
  await act();
  await sleep(250); // entries are reported after the next paint
  const entries = await page.evaluate((from) => window.__events.slice(from), before);
  return Math.max(16, ...entries.map((e) => e.duration));
}

const deckReady = (page) => page.locator("#deck:not([aria-busy='true'])").waitFor();

/** Ten of each kind of tap on the storefront (and the message form, when an order page is given). */
export async function measureInteractions(browser, base, shopper, orderPath) {
  const { context, page, cdp } = await shopperPage(browser, base, shopper);
  const kinds = {};
  const record = async (kind, act) => (kinds[kind] ??= []).push(await timed(page, act));
  try {
    await page.goto("/");
    // Hydrated: the previews' own play buttons replace the native controls.
    await page
      .getByRole("button", { name: /^Play preview/ })
      .first()
      .waitFor();
    await slow(cdp, CPU_SLOWDOWN);
    const songs = Array.from({ length: ROUNDS }, (_, i) => String(i + 1));
    for (const id of songs) {
      await record("add", () =>
        page
          .locator(`#song-${id}`)
          .getByRole("button", { name: /^Add to Mixtape/ })
          .click(),
      );
      await deckReady(page);
    }
    for (let i = 0; i < ROUNDS; i++) {
      await record("Move Up", () =>
        page
          .locator("#deck")
          .getByRole("button", { name: /^Move Up/ })
          .last()
          .click(),
      );
      await deckReady(page);
    }
    for (let i = 0; i < ROUNDS; i++) {
      await record("remove", () =>
        page
          .locator("#deck")
          .getByRole("button", { name: /^Remove/ })
          .first()
          .click(),
      );
      await deckReady(page);
    }
    const designs = page.locator("#designs").getByRole("button");
    for (let i = 0; i < ROUNDS; i++) {
      await record("design", () => designs.nth(i % 4).click());
      await deckReady(page);
    }
    const option = page.locator("#options").getByRole("checkbox").first();
    for (let i = 0; i < ROUNDS; i++) await record("option", () => option.click());
    const note = page.locator("#options").getByRole("textbox");
    await note.click();
    for (let i = 0; i < ROUNDS; i++) await record("typing the note", () => page.keyboard.type("x"));
    await deckReady(page);
    await page
      .locator(`#song-11`)
      .getByRole("button", { name: /^Add to Mixtape/ })
      .click();
    await deckReady(page);
    for (let i = 0; i < ROUNDS; i++) {
      await record("Review Order", async () => {
        await page.locator("#deck").getByRole("button", { name: "Review Order" }).click();
        await page.getByTestId("review-dialog").waitFor();
      });
      await page.getByTestId("review-dialog").getByRole("link", { name: /Close/ }).click();
      await page.getByTestId("review-dialog").waitFor({ state: "detached" });
    }
    if (orderPath) {
      await slow(cdp, 1);
      await page.goto(orderPath);
      await slow(cdp, CPU_SLOWDOWN);
      const box = page.getByLabel("Message", { exact: true });
      for (let i = 0; i < ROUNDS; i++) {
        await box.fill(`Bench message ${i}`);
        // Playwright's "networkidle" can miss here (docs/testing.md): the message's POST is what to wait for.
        const answered = page.waitForResponse((r) => r.request().method() === "POST");
        await record("sending a message", () => page.getByRole("button", { name: "Send", exact: true }).click());
        await answered;
        await page.getByTestId("timeline-message").nth(i).waitFor();
      }
    }
  } finally {
    await context.close();
  }
  return Object.entries(kinds).map(([kind, values]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { kind, n: values.length, p75: percentile(sorted, 75), worst: sorted.at(-1) };
  });
}

/** CLS while each page loads, then while it is scrolled top to bottom, at a phone's and a desktop's width. */
export async function measureLayoutShift(browser, base, shopper, paths) {
  const rows = [];
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    for (const p of paths) {
      const { context, page, cdp } = await shopperPage(browser, base, shopper, viewport);
      try {
        await slow(cdp, CPU_SLOWDOWN);
        await page.goto(p, { waitUntil: "load" });
        await sleep(500);
        const load = await page.evaluate(() => window.__shifts.reduce((a, b) => a + b, 0));
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0; y <= height; y += Math.round(viewport.height / 2)) {
          await page.mouse.wheel(0, Math.round(viewport.height / 2));
          await sleep(120);
        }
        await sleep(300);
        const total = await page.evaluate(() => window.__shifts.reduce((a, b) => a + b, 0));
        const sources = await page.evaluate(() => window.__shiftSources);
        rows.push({ page: p, width: viewport.width, load, scroll: total - load, sources });
      } finally {
        await context.close();
      }
    }
  }
  return rows;
}

/** Both measurements on a server of their own: a shopper with one order (its page, when order pages exist). */
export async function measureFeel() {
  const dataDir = await mkTemp("interactions");
  const app = await startApp({
    dataDir,
    port: await freePort(),
    env: { LOG_LEVEL: "warn", MIXER_EMAILS: "feel.mixer@example.com" },
  });
  const agent = newAgent(4);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const shopper = await signUpShopper(app.base, dataDir, "feel", agent);
    const code = await placeOrder(app.base, shopper, "20", agent);
    const orderPath =
      code && (await fetch(`${app.base}/my-mixtapes/${code}`, { headers: { cookie: shopper.jar.header() } })).ok
        ? `/my-mixtapes/${code}`
        : null;
    const interactions = await measureInteractions(browser, app.base, shopper, orderPath);
    const mixer = await signUpShopper(app.base, dataDir, "feelmix", agent, {
      username: "feel_mixer",
      email: "feel.mixer@example.com",
      password: shopper.password,
    });
    const shifts = [
      ...(await measureLayoutShift(browser, app.base, shopper, ["/", ...(orderPath ? [orderPath] : [])])),
      ...(await measureLayoutShift(browser, app.base, mixer, ["/mixer"])),
    ];
    return { interactions, shifts };
  } finally {
    await browser.close();
    await stopChild(app.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureFeel();
  console.log(JSON.stringify(result, null, 2));
}
