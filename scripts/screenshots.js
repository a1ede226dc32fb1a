// `npm run screenshots`: headless Chromium screenshots of every screen at phone
// (390x844) and desktop (1280x900) widths, with JavaScript on and off, into
// docs/screenshots/. Starts its own server on a fresh data dir, with one mixer.
// SHOTS=order-shopper,insights writes only those screens; DESKTOP_WIDTH sets the desktop width.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { CHROMIUM_ARGS, chromiumPath } from "../tests/support/chromium.js";

const out = path.resolve(process.argv[2] ?? "docs/screenshots");
fs.mkdirSync(out, { recursive: true });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-shots-"));
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const MIXER = { email: "mixer@shots.example", username: "dj_aika", password: "correct-horse-42" };
const CHECKOUT_SECRET = `whsec_${Buffer.from("the screenshots' checkout secret!").toString("base64")}`;
const only = process.env.SHOTS ? new Set(process.env.SHOTS.split(",")) : null;

if (!fs.existsSync("build/server/index.js")) {
  const b = spawn(process.execPath, ["node_modules/@react-router/dev/bin.cjs", "build"], { stdio: "inherit" });
  await new Promise((r) => b.on("exit", r));
}
const server = spawn(process.execPath, ["build/server/index.js"], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SITE_URL: base, // the confirmation links open on the origin the browser uses
    RATE_LIMIT_FACTOR: "100",
    MIXER_EMAILS: MIXER.email,
    PAYMENT_WEBHOOK_SECRET: CHECKOUT_SECRET,
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

const sizes = { phone: { width: 390, height: 844 }, desktop: { width: Number(process.env.DESKTOP_WIDTH ?? 1280), height: 900 } };

/** A payment for this order, as a creator's own checkout reports it (Standard Webhooks). */
async function pay(code, amount) {
  const id = `msg_${code}_${amount}`;
  const body = JSON.stringify({ type: "payment.succeeded", data: { code, amount, currency: "USD", reference: id } });
  const at = new Date();
  await fetch(`${base}/webhooks/checkout`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(CHECKOUT_SECRET).sign(id, at, body),
    },
    body,
  });
}

/** A few more orders through the plain form posts, so the insights have something to show. */
async function moreOrders(page, n) {
  const post = (to, form) => page.request.post(`${base}${to}`, { form, maxRedirects: 0 });
  for (let i = 0; i < n; i++) {
    for (const songId of [String(((i * 7) % 30) + 1), String(((i * 3) % 30) + 2), "5"])
      await post("/", { intent: "add", songId });
    await post("/", { intent: "design", designId: ["ice-cold", "system-burnout", "high-voltage", "unicorn-mix"][i % 4] });
    await post("/review", { intent: "generate-code" });
    const code = /data-testid="order-code"[^>]*>([A-Z0-9]{8})</.exec(await (await page.request.get(`${base}/review`)).text())[1];
    await post("/review", { intent: "transmit", code });
    if (i % 2 === 0) await pay(code, 1000 + i * 150);
  }
}
let n = 0;
for (const js of [true, false]) {
  for (const [sizeName, viewport] of Object.entries(sizes)) {
    const context = await browser.newContext({ viewport, javaScriptEnabled: js, reducedMotion: "reduce" });
    const shot = async (page, name, fullPage = false, { keepScroll = false, toasts = false } = {}) => {
      if (only && !only.has(name)) return;
      await page.waitForLoadState("load"); // images in; Playwright's "networkidle" can miss (docs/testing.md)
      if (!keepScroll) await page.evaluate(() => window.scrollTo(0, 0)); // a reload keeps the old scroll position
      await page.screenshot({
        path: path.join(out, `${name}-${sizeName}-${js ? "js" : "nojs"}.png`),
        fullPage,
        // "disabled" fast-forwards every animation to its end: the toasts' is their leaving.
        animations: toasts ? "allow" : "disabled",
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
    await page.locator('#deck:not([aria-busy="true"])').waitFor();
    // No design chosen yet: the review says so and offers "Choose a cover".
    await page.goto(`${base}/review`);
    await shot(page, "review-no-design");
    await page.goto(`${base}/`);
    await page.getByRole("button", { name: "Choose design: ice cold" }).click();
    await page.getByLabel("Include Custom Intro").check();
    await page.getByRole("button", { name: "Save options" }).click();
    await page.getByTestId("options-saved").filter({ hasText: "Options saved" }).waitFor();
    // The answer where the shopper is.
    await shot(page, "options-saved", false, { keepScroll: true });
    await page.locator('#deck:not([aria-busy="true"])').waitFor();
    await page.goto(`${base}/`);
    await shot(page, "home-full");
    // Scrolled down to the designs: the library's full note and the deck's bar stay in view.
    await page.locator("#designs").scrollIntoViewIfNeeded();
    await shot(page, "home-full-scrolled", false, { keepScroll: true });
    if (!only || only.has("deck-full"))
      await page.locator("#deck").screenshot({
        path: path.join(out, `deck-full-${sizeName}-${js ? "js" : "nojs"}.png`),
        animations: "disabled",
        style: "[data-testid=deck-bar] { visibility: hidden; }", // the sticky bar would cover the deck's last rows
      });
    await page.goto(`${base}/review`);
    await page.getByRole("button", { name: "Generate Order Code" }).click();
    await page.waitForURL(/\/review#order-steps$/);
    await shot(page, "review-code");
    // A refusal while the review is open (another tab made a new code): read in the Transmit step.
    await page.request.post(`${base}/review`, { form: { intent: "generate-code" }, maxRedirects: 0 });
    await page.getByRole("button", { name: "Transmit Order" }).click();
    await page.getByTestId("transmit-answer").filter({ hasText: "out of date" }).waitFor();
    await shot(page, "review-refused", false, { keepScroll: true });
    await page.goto(`${base}/review`); // the deck's new code
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
    // The answer in the card, where the mixer is.
    await shot(mixer, "mixer-answer", false, { keepScroll: true });
    await mixer.goto(`${base}/mixer`);
    await shot(mixer, "mixer-console", true);
    await mixer.goto(`${base}/mixer?q=${code}`);
    await card().getByText("Mark paid by hand").click();
    await card().getByRole("button", { name: "Mark Paid" }).click();
    await card().getByTestId("order-paid").filter({ hasText: /^Paid/ }).waitFor();
    // The tape, through the order page's plain form: the card's chip shows it.
    const tape = fs.readFileSync("tests/fixtures/audio/tone.mp3");
    await mixer.request.post(`${base}/mixer/orders/${code}`, {
      multipart: { tape: { name: "final mix v3.mp3", mimeType: "audio/mpeg", buffer: tape } },
      maxRedirects: 0,
    });
    await mixer.goto(`${base}/mixer?q=${code}`);
    await card().getByText("Add a link or a message").click();
    await card().getByLabel("Message to the shopper").fill("Blended at 3 a.m. Play it loud.");
    await card().getByRole("button", { name: "Send the drop" }).click();
    await card().getByText("Status: Sent").waitFor();
    // The shopper downloads it: the mixer's Tape card says so, and offers a corrected version.
    await page.request.get(`${base}/my-mixtapes/${code}/tape?download`);
    await mixer.goto(`${base}/mixer?filter=sent`);
    await shot(mixer, "mixer-sent", true);
    await page.goto(`${base}/my-mixtapes`);
    await shot(page, "my-mixtapes-sent");
    await page.goto(`${base}/account`);
    await shot(page, "account", true);

    // The order's page on both sides, with a conversation; then the insights.
    await page.goto(`${base}/my-mixtapes/${code}`);
    await page.getByLabel("Message", { exact: true }).fill("Can you add a shout-out for Sam? It's her birthday.");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("timeline-message").first().waitFor();
    await mixer.goto(`${base}/mixer/orders/${code}`);
    await mixer.getByLabel("Message", { exact: true }).fill("Happy birthday, Sam! Which version of track 3: the long one?");
    await mixer.getByRole("button", { name: "Send", exact: true }).click();
    await mixer.getByTestId("timeline-message").nth(1).waitFor();
    await mixer.goto(`${base}/mixer/orders/${code}`);
    await shot(mixer, "order-mixer", true);
    await page.goto(`${base}/my-mixtapes/${code}`);
    await shot(page, "order-shopper", true);
    if (n === 1) await moreOrders(page, 8);
    await mixer.goto(`${base}/mixer/insights`);
    await shot(mixer, "insights", true);
    // The shop is the DJ's: the catalogue, a song's page and the shop's words.
    await mixer.goto(`${base}/mixer/catalogue`);
    await shot(mixer, "catalogue", true);
    await mixer.goto(`${base}/mixer/catalogue/1`);
    await shot(mixer, "catalogue-song", true);
    await mixer.goto(`${base}/mixer/shop`);
    await shot(mixer, "shop-settings", true);
    await mixerContext.close();
    await context.close();
  }
}
// The emails, as a mail client on a phone and a desktop shows them: one of each kind from the
// outbox, after one more order runs to its end with a real tape uploaded through the plain form.
{
  const context = await browser.newContext({ viewport: sizes.phone });
  const page = await newShopper(context, ++n);
  const mixerContext = await browser.newContext({ viewport: sizes.phone });
  const mixer = await mixerPage(mixerContext);
  const post = (p, to, form, multipart) => p.request.post(`${base}${to}`, { form, multipart, maxRedirects: 0 });
  for (const songId of ["3", "14", "27"]) await post(page, "/", { intent: "add", songId });
  await post(page, "/", { intent: "design", designId: "system-burnout" });
  await post(page, "/review", { intent: "generate-code" });
  const code = /data-testid="order-code"[^>]*>([A-Z0-9]{8})</.exec(await (await page.request.get(`${base}/review`)).text())[1];
  await post(page, "/review", { intent: "transmit", code });
  await pay(code, 1500);
  await post(mixer, "/mixer", { intent: "start-mixing", code });
  const tape = { name: "tape.mp3", mimeType: "audio/mpeg", buffer: fs.readFileSync("tests/fixtures/audio/tone.mp3") };
  await post(mixer, `/mixer/orders/${code}`, undefined, { tape });
  await post(mixer, "/mixer", { intent: "mark-sent", code, deliveryUrl: "", message: "Blended at 3 a.m. Play it loud." });
  const kinds = {
    "Your tape is ready": "tape-ready",
    "Your order": "order-in",
    "New order": "new-order",
    "Payment received": "paid",
    "Confirm your sign up": "confirm",
  };
  const seen = new Set();
  for (let i = 0; i < 50 && seen.size < Object.keys(kinds).length; i++) {
    for (const f of fs.readdirSync(path.join(dataDir, "outbox")).sort().reverse()) {
      const mail = JSON.parse(fs.readFileSync(path.join(dataDir, "outbox", f), "utf8"));
      const kind = Object.entries(kinds).find(([prefix]) => mail.subject.startsWith(prefix))?.[1];
      if (!kind || seen.has(kind) || (kind === "tape-ready" && !mail.subject.includes(code))) continue;
      seen.add(kind);
      if (only && !only.has(`email-${kind}`)) continue;
      for (const [sizeName, viewport] of Object.entries(sizes)) {
        await page.setViewportSize(viewport);
        await page.setContent(mail.html);
        await page.screenshot({ path: path.join(out, `email-${kind}-${sizeName}.png`), fullPage: true });
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await mixerContext.close();
  await context.close();
}
await browser.close();
server.kill("SIGTERM");
console.log(`screenshots written to ${out}`);
