// No click is lost: each kind of control is clicked as soon as its page's HTML is parsed
// (domcontentloaded: before the JavaScript has loaded or hydrated the page), on a CPU slowed
// four times, once in `npm test` (the bench's STRESS_ROUNDS and STRESS_CPU raise both), and
// every click must take effect. State is set up and checked through the server. Without
// JavaScript each click is a plain form post, which every other spec covers in its js-off run.
import type { Page } from "@playwright/test";
import { expect, PASSWORD, postsSettled, signUpAndConfirm, test } from "./fixtures";

const MAX_ROUNDS = Number(process.env.STRESS_ROUNDS ?? 1);
const rounds = () => MAX_ROUNDS;
test.describe.configure({ mode: "parallel", timeout: 60_000 + MAX_ROUNDS * 15_000 });

/** A POST as a same-origin form would send it, with the page's cookies. */
const post = (page: Page, path: string, form: Record<string, string>) =>
  page.request.post(path, { form, maxRedirects: 0, headers: { origin: new URL(page.url()).origin } });
const slowed = new WeakSet<Page>();
/**
 * Opens the page on a slow phone, clicking-ready as soon as its HTML is parsed (a click before may
 * still be posting natively). The phone is slowed from here: set-up before it runs at full speed.
 */
const early = async (page: Page, path: string, slow = true) => {
  await postsSettled(page);
  if (slow && !slowed.has(page)) {
    // Hydration takes long enough for the clicks to land at every stage of it.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: Number(process.env.STRESS_CPU ?? 4) });
    slowed.add(page);
  }
  await page.goto(path, { waitUntil: "domcontentloaded" });
};
/** The song ids in the deck, as the server renders it. */
const deckSongs = async (page: Page) => {
  const html = await (await page.request.get("/")).text();
  const deck = html.slice(html.indexOf('id="deck"'));
  return [...new Set([...deck.matchAll(/name="songId" value="(\d+)"/g)].map((m) => m[1]))];
};

test.describe("No click is lost, before the page has hydrated", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "nothing hydrates without JavaScript");

  test("add", async ({ page }) => {
    await signUpAndConfirm(page, "stress");
    for (let i = 0; i < rounds(); i++) {
      await early(page, "/");
      await page
        .locator("#song-5")
        .getByRole("button", { name: /^Add to Mixtape/ })
        .click();
      await expect(page.locator("#song-5").getByRole("button", { name: /^Add to Mixtape/ }), `round ${i}`).toBeDisabled();
      await expect.poll(() => deckSongs(page), `round ${i}`).toEqual(["5"]);
      expect((await post(page, "/", { intent: "remove", songId: "5" })).status()).toBe(303);
    }
  });

  test("remove", async ({ page }) => {
    await signUpAndConfirm(page, "stress");
    for (let i = 0; i < rounds(); i++) {
      expect((await post(page, "/", { intent: "add", songId: "6" })).status()).toBe(303);
      await early(page, "/");
      await page.getByRole("button", { name: "Remove: Midnight Dub Relay" }).click();
      await expect(page.getByRole("button", { name: "Remove: Midnight Dub Relay" }), `round ${i}`).toHaveCount(0);
      await expect.poll(() => deckSongs(page), `round ${i}`).toEqual([]);
    }
  });

  test("move", async ({ page }) => {
    await signUpAndConfirm(page, "stress");
    for (const songId of ["1", "2"]) await post(page, "/", { intent: "add", songId });
    for (let i = 0; i < rounds(); i++) {
      const before = await deckSongs(page);
      await early(page, "/");
      await page
        .getByRole("button", { name: `Move Down: ${before[0] === "1" ? "Static Over Babylon" : "Pirate Frequency"}` })
        .click();
      await expect.poll(() => deckSongs(page), `round ${i}`).toEqual([...before].reverse());
    }
  });

  test("design", async ({ page }) => {
    await signUpAndConfirm(page, "stress");
    for (let i = 0; i < rounds(); i++) {
      const design = i % 2 ? "ice cold" : "high voltage";
      await early(page, "/");
      await page.getByRole("button", { name: `Choose design: ${design}` }).click();
      await expect(page.getByRole("button", { name: `Choose design: ${design}` }), `round ${i}`).toHaveAttribute(
        "aria-pressed",
        "true",
      );
      await expect
        .poll(
          async () => (await (await page.request.get("/")).text()).includes(`aria-label="Choose design: ${design}"`),
          `round ${i}`,
        )
        .toBe(true);
    }
  });

  test("an option", async ({ page }) => {
    await signUpAndConfirm(page, "stress");
    for (let i = 0; i < rounds(); i++) {
      const on = i % 2 === 0;
      await early(page, "/");
      const box = page.getByLabel("Add cassette noise");
      await (on ? box.check() : box.uncheck());
      // Taken into account: saved in the deck (through a reload, the server's answer).
      await expect
        .poll(async () => /name="retronoise" checked=""/.test(await (await page.request.get("/")).text()), {
          message: `round ${i}`,
          timeout: 15_000,
        })
        .toBe(on);
    }
  });

  test("review", async ({ page }) => {
    await signUpAndConfirm(page, "stress");
    await post(page, "/", { intent: "add", songId: "9" });
    for (let i = 0; i < rounds(); i++) {
      await early(page, "/");
      await page.locator("#deck").getByRole("button", { name: "Review Order" }).click();
      await expect(page, `round ${i}`).toHaveURL(/\/review$/);
      await expect(page.getByTestId("review-dialog"), `round ${i}`).toBeVisible();
    }
  });

  test("generate", async ({ page }) => {
    await signUpAndConfirm(page, "stress");
    await post(page, "/", { intent: "add", songId: "9" });
    let previous = "";
    for (let i = 0; i < rounds(); i++) {
      await early(page, "/review");
      await page.getByRole("button", { name: /Generate Order Code|Regenerate Order Code/ }).click();
      await expect(page.getByTestId("order-code"), `round ${i}`).toHaveText(/^[A-Z0-9]{8}$/);
      await expect(page.getByTestId("order-code"), `round ${i}`).not.toHaveText(previous || "-");
      previous = (await page.getByTestId("order-code").textContent())!;
    }
  });

  test("transmit", async ({ page }) => {
    await signUpAndConfirm(page, "stress");
    const codes: string[] = [];
    for (let i = 0; i < rounds(); i++) {
      await post(page, "/", { intent: "add", songId: "12" });
      await post(page, "/review", { intent: "generate-code" });
      await early(page, "/review");
      const code = (await page.getByTestId("order-code").textContent())!;
      await page.getByRole("button", { name: "Transmit Order" }).click();
      await expect(page, `round ${i}`).toHaveURL(new RegExp(`placed=${code}`));
      codes.push(code);
    }
    // Every order is stored once: My Mixtapes lists them 20 a page, by its Older orders link.
    const listed: string[] = [];
    for (let next: string | null = "/my-mixtapes", p = 0; next && p <= Math.ceil(rounds() / 20); p++) {
      await page.goto(next);
      listed.push(...(await page.getByTestId("order-card").getByTestId("order-code").allTextContents()));
      const older = page.getByTestId("orders-older");
      next = (await older.count()) ? await older.getAttribute("href") : null;
    }
    expect(listed.sort()).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(rounds());
  });

  test("logout", async ({ page }) => {
    const shopper = await signUpAndConfirm(page, "stress");
    for (let i = 0; i < rounds(); i++) {
      expect(
        (await post(page, "/auth", { mode: "login", email: shopper.email, password: PASSWORD })).status(),
        `round ${i}`,
      ).toBe(302);
      await early(page, "/");
      await page.getByRole("button", { name: "Logout" }).click();
      await expect(page, `round ${i}`).toHaveURL(/\/auth$/);
      expect(new URL((await page.request.get("/", { maxRedirects: 0 })).headers()["location"] ?? "/", page.url()).pathname).toBe(
        "/auth",
      );
    }
  });
});

test.describe("Changed before the page hydrated", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "nothing hydrates without JavaScript");
  test("a ticked option and a typed note are saved once the scripts arrive", async ({ page }) => {
    await signUpAndConfirm(page, "stress");
    // The scripts are held back until the option is ticked and the note typed.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/*.js", async (route) => {
      await held;
      await route.continue();
    });
    await early(page, "/", false);
    await page.getByLabel("Add cassette noise").check();
    await page.getByLabel(/^Message to/).fill("typed before the scripts");
    release();
    await expect
      .poll(async () => {
        const html = await (await page.request.get("/")).text();
        return /name="retronoise" checked=""/.test(html) && html.includes(">typed before the scripts</textarea>");
      })
      .toBe(true);
    await expect(page.getByLabel(/^Message to/)).toHaveValue("typed before the scripts");
  });
});
