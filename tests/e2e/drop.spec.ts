// The drop, in both JavaScript modes: the mixer uploads a real tape on the order's page
// (with JavaScript through tus, its progress shown and a dropped connection retried; without it
// through the plain form) and plays the draft there; the shopper sees nothing of it until the
// mixer sends the drop, then plays it (the player's time advances) and downloads it (the same bytes).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import {
  addSongs,
  expect,
  expectToast,
  generateCode,
  jsEnabled,
  openReview,
  signInAsMixer,
  signUpAndConfirm,
  test,
  waitForScripts,
} from "./fixtures";

const TONE = path.resolve(import.meta.dirname, "../fixtures/audio/tone.mp3");
const TONE_M4A = path.resolve(import.meta.dirname, "../fixtures/audio/tone.m4a");
const sha = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");

/**
 * The browser's own player plays the tape: its time advances. Without JavaScript the page runs no
 * script, but the player still plays; Playwright's evaluate stands in for the press on its button.
 */
async function playsFor(player: Locator) {
  await player.evaluate((audio: HTMLAudioElement) => {
    audio.muted = true;
    return audio.play();
  });
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime)).toBeGreaterThan(0);
}

/** The shopper places an order and stays signed in; its code. */
async function placeOrder(page: Page): Promise<string> {
  await signUpAndConfirm(page, "drop");
  await addSongs(page, ["2", "5"]);
  await openReview(page);
  const code = await generateCode(page);
  await page.getByRole("button", { name: "Transmit Order" }).click();
  await expectToast(page, "Order Submitted!");
  // The Order placed card opens the order's own page.
  await expect(page.getByTestId("placed-order").getByRole("link", { name: "Open your order" })).toHaveAttribute(
    "href",
    `/my-mixtapes/${code}`,
  );
  return code;
}

test.describe("The drop", () => {
  test("the mixer uploads the tape and plays the draft; once the drop is sent its shopper plays it and downloads the same bytes", async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(150_000);
    const js = jsEnabled(testInfo);
    const code = await placeOrder(page);

    const mixerContext = await browser.newContext({ javaScriptEnabled: js });
    const m = await mixerContext.newPage();
    await signInAsMixer(m, testInfo);
    await m.goto(`/mixer/orders/${code}`);
    const card = m.getByTestId("tape-card");
    await expect(card.getByText("No tape uploaded yet.")).toBeVisible();
    await card.getByLabel("Upload the tape").setInputFiles(TONE);

    if (js) {
      await waitForScripts(m);
      await expect(card.getByTestId("tape-form")).toHaveAttribute("data-enhanced", "tus");
      // tus: the first PATCH is held, then its connection drops; tus-js-client asks the server for the
      // offset (HEAD) and sends the bytes again. Meanwhile the card shows the progress and Cancel.
      const methods: string[] = [];
      let cut!: () => void;
      const cutNow = new Promise<void>((resolve) => (cut = resolve));
      let held = false;
      await m.route("**/mixer/uploads/*", async (route) => {
        methods.push(route.request().method());
        if (route.request().method() !== "PATCH" || held) return route.continue();
        held = true;
        await cutNow;
        await route.abort("connectionreset");
      });
      await card.getByRole("button", { name: "Upload", exact: true }).click();
      await expect(card.getByRole("progressbar", { name: "Upload progress" })).toHaveAttribute("aria-valuenow", "0");
      await expect(card.getByTestId("tape-progress-text")).toContainText(/of 12 KB \(0%\)/);
      await expect(card.getByRole("button", { name: "Cancel" })).toBeVisible();
      cut();
      await expect(card.getByTestId("tape-answer")).toHaveText(/^Tape uploaded: 0:0\d, 12 KB\.$/);
      await expect(card.getByTestId("tape-answer")).toBeInViewport();
      expect(methods).toEqual(["PATCH", "HEAD", "PATCH"]);
      expect(m.url()).toMatch(new RegExp(`/mixer/orders/${code}$`)); // no navigation: the page revalidated
      await expect(card.getByRole("progressbar")).toHaveCount(0);
    } else {
      await card.getByRole("button", { name: "Upload", exact: true }).click();
      // The answer in the Tape card, where the upload was, with the focus the button had.
      await expect(card.getByTestId("tape-answer")).toHaveText(/^Tape uploaded: 0:0\d, 12 KB\.$/);
      await expect(card.getByTestId("tape-answer")).toBeFocused();
      await expect(m.getByTestId("toast")).toHaveCount(0);
    }
    await expect(card.getByTestId("tape-facts")).toContainText("tone.mp3");
    await expect(card.getByTestId("tape-downloads")).toHaveText("Not downloaded yet");
    await expect(card.getByTestId("tape-draft")).toHaveText("A draft: the shopper gets it when you send the drop.");
    // The mixer plays the draft on the order's page (its time advances).
    await playsFor(card.locator("audio"));

    // A draft: the shopper's order page shows nothing of it, and its file route has nothing.
    await page.goto(`/my-mixtapes/${code}`);
    await expect(page.getByTestId("order-page")).toBeVisible();
    await expect(page.getByTestId("tape-panel")).toHaveCount(0);
    // When it is expected: a date (the minute says nothing more).
    await expect(page.getByTestId("order-expected")).toHaveText(/^Expected by [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect((await page.request.get(`/my-mixtapes/${code}/tape`)).status()).toBe(404);

    // Send the drop: Start Mixing, then the button that says so once a tape is there.
    await m.getByRole("button", { name: "Start Mixing" }).click();
    await expect(m.getByTestId("order-status")).toHaveText("Status: Mixing");
    await m.getByRole("button", { name: "Send the drop" }).click();
    await expect(m.getByTestId("order-status")).toHaveText("Status: Sent");
    await expect(card.getByTestId("tape-draft")).toHaveCount(0);

    // My Mixtapes says the tape is ready, one tap from its player.
    await page.goto("/my-mixtapes");
    const ready = page.locator(`#order-${code}`).getByTestId("order-tape-ready");
    await expect(ready).toHaveText("Your tape is ready: play or download it");
    await expect(ready).toHaveAttribute("href", `/my-mixtapes/${code}#tape`);
    // The shopper's order page: the player plays (its time advances), and Download saves the same bytes.
    await page.goto(`/my-mixtapes/${code}`);
    const panel = page.getByTestId("tape-panel");
    await expect(panel.getByRole("heading", { name: "Your tape" })).toBeVisible();
    await playsFor(panel.getByTestId("tape-player"));
    // Played: the shopper has heard it, so it counts as downloaded.
    await m.reload();
    await expect(card.getByTestId("tape-downloads")).toContainText(/^Downloaded \d+ times?/);
    const ranged = await page.request.get(`/my-mixtapes/${code}/tape`, { headers: { range: "bytes=0-99" } });
    expect(ranged.status()).toBe(206);

    const [download] = await Promise.all([page.waitForEvent("download"), panel.getByRole("link", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(` - ${code}\\.mp3$`));
    const saved = testInfo.outputPath("tape.mp3");
    await download.saveAs(saved);
    expect(sha(fs.readFileSync(saved))).toBe(sha(fs.readFileSync(TONE)));

    await mixerContext.close();
  });

  test("the queue and the order show the tape; once downloaded the card says when, and a corrected version reaches the shopper with a message", async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(150_000);
    const js = jsEnabled(testInfo);
    const code = await placeOrder(page);
    const mixerContext = await browser.newContext({ javaScriptEnabled: js });
    const m = await mixerContext.newPage();
    await signInAsMixer(m, testInfo);
    await m.goto(`/mixer/orders/${code}`);
    if (js) await waitForScripts(m);
    const card = m.getByTestId("tape-card");
    const uploadAndWait = async (file: string, button: string) => {
      await card.locator("input[type=file]").setInputFiles(file);
      await card.getByRole("button", { name: button, exact: true }).click();
      await expect(card.getByTestId("tape-answer")).not.toBeEmpty();
    };
    await uploadAndWait(TONE, "Upload");
    await expect(card.getByTestId("tape-facts")).toContainText("tone.mp3");
    // The queue's card shows the tape: its length and whether the shopper has it.
    const queue = await mixerContext.newPage();
    const chip = queue.getByTestId("order-tape-chip");
    await queue.goto(`/mixer?q=${code}`);
    await expect(chip).toHaveText(/^Tape 0:0\d · not downloaded$/);
    await expect(chip).toHaveAttribute("href", `/mixer/orders/${code}#tape`);
    await m.getByRole("button", { name: "Start Mixing" }).click();
    await expect(m.getByTestId("order-status")).toHaveText("Status: Mixing");
    await m.getByRole("button", { name: "Send the drop" }).click();
    await expect(m.getByTestId("order-status")).toHaveText("Status: Sent");

    // The shopper downloads it: the card says when, why it stays, and the ways forward.
    expect((await page.request.get(`/my-mixtapes/${code}/tape?download`)).status()).toBe(200);
    await m.reload();
    if (js) await waitForScripts(m);
    await expect(card.getByTestId("tape-locked")).toHaveText(
      /^Downloaded [A-Z][a-z]{2} \d{1,2}, \d{4}, so it can no longer be replaced\. To fix something, send the shopper a message, or upload a corrected version: they get a message about it\. Send a message$/,
    );
    await expect(card.getByRole("link", { name: "Send a message" })).toHaveAttribute("href", "#messages");
    // Sent without a link: the delivery is the tape.
    await expect(m.getByTestId("order-delivery")).toHaveText(/^The tape \(0:0\d, 12 KB\)$/);
    await queue.reload();
    await expect(chip).toHaveText(/^Tape 0:0\d · downloaded$/);
    await card.getByLabel("Upload a corrected version").setInputFiles(TONE_M4A);
    await card.getByRole("button", { name: "Upload new version" }).click();
    const told = /^New version uploaded: 0:0\d, 13 KB\. The shopper got a message about it\.$/;
    await expect(card.getByTestId("tape-answer")).toHaveText(told);
    await expect(card.getByTestId("tape-answer")).toBeFocused();
    await expect(card.getByTestId("tape-facts")).toContainText("tone.m4a");
    await expect(card.getByTestId("tape-version")).toHaveText("Version 2");
    await expect(card.getByTestId("tape-downloads")).toHaveText("Not downloaded yet");
    await expect(m.locator("#messages")).toContainText("I uploaded a corrected version of your tape (0:0");
    await queue.reload();
    await expect(chip).toHaveText(/^Tape v2 0:0\d · not downloaded$/);

    // The shopper reads the mixer's message and downloads the new version's bytes.
    await page.goto(`/my-mixtapes/${code}`);
    await expect(page.locator("#messages")).toContainText("I uploaded a corrected version of your tape");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("tape-panel").getByRole("link", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(` - ${code}\\.m4a$`));
    const saved = testInfo.outputPath("tape.m4a");
    await download.saveAs(saved);
    expect(sha(fs.readFileSync(saved))).toBe(sha(fs.readFileSync(TONE_M4A)));
    await mixerContext.close();
  });

  test("with JavaScript, an upload cut off by a reload goes on from the server's offset when the same file is chosen; Cancel removes it", async ({
    page,
    browser,
  }, testInfo) => {
    test.skip(!jsEnabled(testInfo), "tus runs with JavaScript; without it the plain form posts the file whole");
    test.setTimeout(150_000);
    const code = await placeOrder(page);
    const mixerContext = await browser.newContext();
    const m = await mixerContext.newPage();
    await signInAsMixer(m, testInfo);
    await m.goto(`/mixer/orders/${code}`);
    await waitForScripts(m);
    const card = m.getByTestId("tape-card");

    // The first PATCH never gets through: the page is reloaded while it is held.
    const methods: string[] = [];
    let hold = true;
    let creation: Promise<void> | null = null; // when set, the creating POST waits for it
    await m.route("**/mixer/uploads**", async (route) => {
      methods.push(route.request().method());
      if (route.request().method() === "PATCH" && hold) return; // left hanging: the reload ends it
      if (route.request().method() === "POST" && creation) await creation;
      await route.continue();
    });
    await card.getByLabel("Upload the tape").setInputFiles(TONE);
    await card.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(card.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
    // The card during an upload: the progress bar is labelled and its value is read (axe, as tests/e2e/a11y.spec.ts).
    const axe = await new AxeBuilder({ page: m })
      .include("[data-testid=tape-card]")
      .withTags(["wcag2a", "wcag2aa", "best-practice"])
      .analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    expect(methods).toEqual(["POST", "PATCH"]);

    hold = false;
    await m.reload();
    await waitForScripts(m);
    await expect(card.getByTestId("tape-unfinished")).toContainText("An upload of tone.mp3 stopped before it finished");
    methods.length = 0;
    await card.getByLabel("Upload the tape").setInputFiles(TONE);
    await card.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(card.getByTestId("tape-answer")).toHaveText(/^Tape uploaded: 0:0\d, 12 KB\.$/);
    // Resumed (HEAD read the offset), not created again.
    expect(methods).toEqual(["HEAD", "PATCH"]);
    await expect(card.getByTestId("tape-unfinished")).toHaveCount(0);

    // A second upload (the shopper has not downloaded the first), cancelled while the server is still
    // creating it: once created it is deleted, and no byte is sent.
    let create!: () => void;
    creation = new Promise((resolve) => (create = resolve));
    methods.length = 0;
    await card
      .getByLabel("Upload the tape")
      .setInputFiles({ name: "v2.mp3", mimeType: "audio/mpeg", buffer: fs.readFileSync(TONE) });
    await card.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(card.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
    await card.getByRole("button", { name: "Cancel" }).click();
    await expect(card.getByTestId("tape-answer")).toHaveText("Upload cancelled.");
    create();
    await expect.poll(() => methods).toEqual(["POST", "DELETE"]);
    await expect(card.getByTestId("tape-facts")).toContainText("tone.mp3");
    await m.reload();
    await expect(card.getByTestId("tape-unfinished")).toHaveCount(0);
    await mixerContext.close();
  });
});

test.describe("The upload's hint", () => {
  test("with JavaScript, 'stopped before it finished' names only an upload that really stopped: never a refused or cancelled one, always the newest", async ({
    page,
    browser,
  }, testInfo) => {
    test.skip(!jsEnabled(testInfo), "the hint is about tus's resumable uploads, which run with JavaScript");
    test.setTimeout(150_000);
    const code = await placeOrder(page);
    const mixerContext = await browser.newContext();
    const m = await mixerContext.newPage();
    await signInAsMixer(m, testInfo);
    await m.goto(`/mixer/orders/${code}`);
    await waitForScripts(m);
    const card = m.getByTestId("tape-card");
    const hint = card.getByTestId("tape-unfinished");
    const reload = async () => {
      await m.reload();
      await waitForScripts(m);
    };

    // A file that is not audio is refused: no hint, now or after a reload.
    const notes = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/audio/notes.txt"));
    await card.getByLabel("Upload the tape").setInputFiles({ name: "fake.mp3", mimeType: "audio/mpeg", buffer: notes });
    await card.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(card.getByTestId("tape-problem")).toBeVisible();
    await expect(hint).toHaveCount(0);
    await reload();
    await expect(hint).toHaveCount(0);

    // Its bytes held, the upload is cancelled on purpose: no hint, now or after a reload.
    let hold = true;
    let held = 0;
    await m.route("**/mixer/uploads/*", async (route) => {
      if (route.request().method() === "PATCH" && hold) return void held++; // left hanging: created, no byte arrives
      await route.continue();
    });
    const startHeld = async (name: string) => {
      const before = held;
      await card.getByLabel("Upload the tape").setInputFiles({ name, mimeType: "audio/mpeg", buffer: fs.readFileSync(TONE) });
      await card.getByRole("button", { name: "Upload", exact: true }).click();
      await expect(card.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
      await expect.poll(() => held).toBe(before + 1);
    };
    await startHeld("first.mp3");
    await card.getByRole("button", { name: "Cancel" }).click();
    await expect(card.getByTestId("tape-answer")).toHaveText("Upload cancelled.");
    await expect(hint).toHaveCount(0);
    await reload();
    await expect(hint).toHaveCount(0);

    // Stopped by a reload: the hint names that file; after another file's stops, that one.
    await startHeld("first.mp3");
    await reload();
    await expect(hint).toContainText("An upload of first.mp3 stopped before it finished");
    await startHeld("second.mp3");
    await reload();
    await expect(hint).toContainText("An upload of second.mp3 stopped before it finished");
    await expect(hint).not.toContainText("first.mp3");

    // Finished: no hint is left.
    hold = false;
    await card.getByLabel("Upload the tape").setInputFiles(TONE);
    await card.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(card.getByTestId("tape-answer")).toHaveText(/^Tape uploaded:/);
    await expect(hint).toHaveCount(0);
    await reload();
    await expect(hint).toHaveCount(0);
    await mixerContext.close();
  });
});
