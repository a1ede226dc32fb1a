// `npm run screenshots`: headless Chromium screenshots of every screen at phone
// (390x844) and desktop (1280x900) widths, with JavaScript on and off, into
// docs/screenshots/. Starts its own server on a fresh data dir, with one mixer.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "../tests/support/chromium.js";

const out = path.resolve(process.argv[2] ?? "docs/screenshots");
fs.mkdirSync(out, { recursive: true });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-shots-"));
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const MIXER = { email: "mixer@shots.example", username: "dj_aika", password: "correct-horse-42" };

if (!fs.existsSync("build/server/index.js")) {
  const b = spawn(process.execPath, ["node_modules/@react-router/dev/bin.js", "build"], { stdio: "inherit" });
  await new Promise((r) => b.on("exit", r));
}
const server = spawn(process.execPath, ["build/server/index.js"], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: base, // the emailed links open on this server
    DATA_DIR: dataDir,
    RATE_LIMIT_FACTOR: "100",
    MIXER_EMAILS: MIXER.email,
  },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise((resolve, reject) => {
  server.stdout.on("data", (d) => String(d).includes("http://") && resolve());
  server.on("exit", () => reject(new Error("server exited")));
});

const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: CHROMIUM_ARGS,
});

async function newShopper(
  context,
  n,
  who = { email: `shots${n}.${Date.now()}@example.com`, username: `rebel${n}${Date.now() % 100000}` },
  afterSignUp = async () => {},
) {
  const page = await context.newPage();
  const email = who.email;
  await page.goto(`${base}/auth?mode=signup`);
  await page.getByLabel("Username", { exact: true }).fill(who.username);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill("correct-horse-42");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await page.waitForURL(/\/auth$/);
  await afterSignUp(page);
  let link;
  for (let i = 0; i < 50 && !link; i++) {
    for (const f of fs.readdirSync(path.join(dataDir, "outbox"))) {
      const mail = JSON.parse(fs.readFileSync(path.join(dataDir, "outbox", f), "utf8"));
      if (mail.to === email) link = mail.text.match(/https?:\/\/\S+/)[0];
    }
    if (!link) await new Promise((r) => setTimeout(r, 100));
  }
  await page.goto(link);
  return page;
}

/** The mixer: signed up on first use, logged in after. */
let mixerExists = false;
async function mixerPage(context) {
  if (!mixerExists) {
    mixerExists = true;
    return newShopper(context, 0, MIXER);
  }
  const page = await context.newPage();
  await page.goto(`${base}/auth`);
  await page.getByLabel("Email or Username").fill(MIXER.email);
  await page.getByLabel("Password").fill(MIXER.password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL(/\/$/);
  return page;
}

const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };
let n = 0;
for (const js of [true, false]) {
  for (const [sizeName, viewport] of Object.entries(sizes)) {
    const context = await browser.newContext({ viewport, javaScriptEnabled: js, reducedMotion: "reduce" });
    const shot = async (page, name, fullPage = false, { keepScroll = false } = {}) => {
      await page.waitForLoadState("networkidle");
      if (!keepScroll) await page.evaluate(() => window.scrollTo(0, 0)); // a reload keeps the old scroll position
      await page.screenshot({
        path: path.join(out, `${name}-${sizeName}-${js ? "js" : "nojs"}.png`),
        fullPage,
        animations: "disabled",
      });
    };
    const anon = await context.newPage();
    await anon.goto(`${base}/auth`);
    await shot(anon, "auth-login");
    await anon.goto(`${base}/auth?mode=signup`);
    await shot(anon, "auth-signup");
    await anon.goto(`${base}/auth/forgot`);
    await shot(anon, "auth-forgot");
    await anon.close();

    // The sign-up's answer, as it stays on /auth.
    const page = await newShopper(context, ++n, undefined, (p) => shot(p, "auth-check-email"));
    await page.goto(`${base}/`);
    await shot(page, "home-empty");
    for (let id = 1; id <= 10; id++) {
      await page
        .locator(`#song-${id}`)
        .getByRole("button", { name: /^Add to Mixtape/ })
        .click();
      await page
        .locator(`#song-${id}`)
        .getByRole("button", { name: /^Add to Mixtape/ })
        .isDisabled();
    }
    await page.getByRole("button", { name: "Choose design: ice cold" }).click();
    await page.getByLabel("Include Custom Intro").check();
    if (!js) await page.getByRole("button", { name: "Save options" }).click();
    await page.locator('#deck:not([aria-busy="true"])').waitFor();
    await page.waitForLoadState("networkidle");
    await page.goto(`${base}/`);
    await shot(page, "home-full");
    // Scrolled down to the designs: the library's full note and the deck's bar stay in view.
    await page.locator("#designs").scrollIntoViewIfNeeded();
    await shot(page, "home-full-scrolled", false, { keepScroll: true });
    await page.locator("#deck").screenshot({
      path: path.join(out, `deck-full-${sizeName}-${js ? "js" : "nojs"}.png`),
      animations: "disabled",
      style: "[data-testid=deck-bar] { visibility: hidden; }", // the sticky bar would cover the deck's last rows
    });
    await page.goto(`${base}/review`);
    await page.getByRole("button", { name: "Generate Order Code" }).click();
    await page.waitForURL(/\/review$/);
    await shot(page, "review-code");
    const code = await page.getByTestId("order-code").textContent();
    await page.getByRole("button", { name: "Transmit Order" }).click();
    await page.waitForURL(/\/\?placed=/);
    // As the shopper lands: with JavaScript the card is scrolled into view and focused.
    await shot(page, "order-placed", false, { keepScroll: true });
    await page.goto(`${base}/my-mixtapes`);
    await shot(page, "my-mixtapes");

    // The mixer runs this order to the end, so the console shows every state.
    const mixerContext = await browser.newContext({ viewport, javaScriptEnabled: js, reducedMotion: "reduce" });
    const mixer = await mixerPage(mixerContext);
    const card = () => mixer.locator(`#order-${code}`);
    await mixer.goto(`${base}/mixer?q=${code}`);
    await card().getByRole("button", { name: "Start Mixing" }).click();
    await card().getByRole("button", { name: "Mark Sent" }).waitFor();
    await mixer.goto(`${base}/mixer`);
    await shot(mixer, "mixer-console", true);
    await mixer.goto(`${base}/mixer?q=${code}`);
    await card().getByRole("button", { name: "Mark Paid" }).click();
    await card().getByTestId("order-paid").filter({ hasText: /^Paid/ }).waitFor();
    await card().getByLabel("Delivery link").fill(`https://tapes.example/${code}`);
    await card().getByLabel("Message to the shopper").fill("Blended at 3 a.m. Play it loud.");
    await card().getByRole("button", { name: "Mark Sent" }).click();
    await card().getByText("Status: Sent").waitFor();
    await mixer.goto(`${base}/mixer?filter=sent`);
    await shot(mixer, "mixer-sent", true);
    await page.goto(`${base}/my-mixtapes`);
    await shot(page, "my-mixtapes-sent");
    await page.goto(`${base}/account`);
    await shot(page, "account");
    await mixerContext.close();
    await context.close();
  }
}
await browser.close();
server.kill("SIGTERM");
console.log(`screenshots written to ${out}`);
