// The shop is the DJ's: the mixer restocks the catalogue in the console (songs, previews, thumbnails,
// designs, the cover backgrounds, the shop's words) and shoppers see it on their next page, while an
// order placed before keeps what it was sold with. Both JavaScript modes (plain multipart forms
// without it, uploads with progress with it), on a server of their own: the catalogue is the whole shop's.
import http from "node:http";
import AxeBuilder from "@axe-core/playwright";
import { addSongs, expect, expectToast, generateCode, jsEnabled, openReview, postsSettled, waitForScripts } from "./fixtures";
import { logIn, MIXERS, mixerPage, pickFile, saveAndExpect, shopperFor, songRow, test } from "./catalogue-support";

test.describe.configure({ mode: "serial" });

test("done when: a mixer restocks the shop; a shopper sees all of it, and an order placed before keeps what it was sold with", async ({
  page,
  browser,
  baseURL,
  shop,
}, testInfo) => {
  test.setTimeout(240_000);
  // Before: an order of "Static Over Babylon" (song 1) and "Pirate Frequency" (song 2), cover "ice cold".
  await logIn(page, shopperFor(testInfo, 0).email);
  await addSongs(page, ["1", "2"]);
  await page.getByRole("button", { name: "Choose design: ice cold" }).click();
  await expect(page.getByRole("button", { name: "Choose design: ice cold" })).toHaveAttribute("aria-pressed", "true");
  await openReview(page);
  const code = await generateCode(page);
  await page.getByRole("button", { name: "Transmit Order" }).click();
  await expectToast(page, "Order Submitted!");

  const mixer = await mixerPage(browser, testInfo, baseURL);
  const m = mixer.page;
  // Renames a song and replaces its preview and thumbnail.
  await m.getByRole("link", { name: "Console" }).click();
  await m.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Catalogue" }).click();
  await expect(m.getByRole("heading", { name: "Catalogue", level: 1 })).toBeVisible();
  await songRow(m, "1").getByRole("link", { name: "Edit Static Over Babylon" }).click();
  await m.getByLabel("Title").fill("Static Over Babylon (Dub)");
  await pickFile(m, testInfo, "Preview", shop.files.ogg);
  await pickFile(m, testInfo, "Thumbnail", shop.files.thumbPng);
  await saveAndExpect(m, "Saved.");
  await expect(songRow(m, "1")).toContainText("Static Over Babylon (Dub)");
  // Retires one.
  await m.goto("/mixer/catalogue/3");
  await m.getByRole("button", { name: "Retire" }).click();
  await expectToast(m, "Neon Curfew is retired: it left the library.");
  await expect(songRow(m, "3").getByTestId("catalogue-status")).toHaveText("Retired");
  // Adds one.
  await m.getByRole("link", { name: "Add a song" }).click();
  await m.getByLabel("Title").fill("Fresh Cut");
  await pickFile(m, testInfo, "Preview", shop.files.mp3);
  await pickFile(m, testInfo, "Thumbnail", shop.files.thumbJpg);
  await saveAndExpect(m, "Fresh Cut is in the library.");
  await expect(songRow(m, "31")).toContainText("Fresh Cut");
  // Adds a design.
  await m.getByRole("link", { name: "Add a design" }).click();
  await m.getByLabel("Name").fill("dawn patrol");
  await pickFile(m, testInfo, "Image", shop.files.designPng);
  await saveAndExpect(m, "dawn patrol is among the designs.");
  // Renames the shop.
  await m.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Shop Settings" }).click();
  await m.getByLabel("Shop title").fill("Basement Tapes");
  await m.getByRole("button", { name: "Save", exact: true }).click();
  await expectToast(m, "The shop's words are saved.");
  await mixer.close();

  // The shopper sees all of it on the next page.
  await page.goto("/");
  await expect(page.getByRole("banner")).toContainText("Basement Tapes");
  const renamed = page.locator("#song-1");
  await expect(renamed.getByRole("heading", { level: 3 })).toHaveText("Static Over Babylon (Dub)");
  await expect(renamed.locator("img")).toHaveAttribute("src", /^\/media\/catalogue\/thumbs\/[0-9a-f-]{36}\.webp$/);
  const preview = await renamed.locator("audio").getAttribute("src");
  expect(preview).toMatch(/^\/media\/catalogue\/previews\/[0-9a-f-]{36}\.ogg$/);
  await expect(page.locator("#song-3")).toHaveCount(0);
  await expect(page.locator("#song-31")).toContainText("Fresh Cut");
  await expect(page.getByRole("button", { name: "Choose design: dawn patrol" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Choose design: dawn patrol" }).locator("img")).toHaveAttribute(
    "src",
    /^\/media\/catalogue\/designs\/.+\.webp$/,
  );

  // The new preview plays signed out: public, ranged, cached for good.
  const anonymous = await fetch(new URL(preview!, baseURL), { headers: { Range: "bytes=0-99" } });
  expect(anonymous.status).toBe(206);
  expect(anonymous.headers.get("content-type")).toBe("audio/ogg");
  expect(anonymous.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect((await anonymous.arrayBuffer()).byteLength).toBe(100);

  // The order placed before keeps what it was sold with.
  await page.goto(`/my-mixtapes/${code}`);
  const tracks = page.getByTestId("order-tracks");
  await expect(tracks).toContainText("Static Over Babylon");
  await expect(tracks).not.toContainText("(Dub)");
  await expect(tracks.locator("audio").first()).toHaveAttribute("src", "/previews/01.mp3");
  await expect(tracks.locator("img").first()).toHaveAttribute("src", "/art/thumbs/01.svg");
  await expect(page.getByTestId("order-design")).toContainText("ice cold");
});

test("a retired song stays in the deck that holds it, says so, and is never added again", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  await logIn(page, shopperFor(testInfo, 1).email);
  await addSongs(page, ["5", "6"]);
  await postsSettled(page);
  const mixer = await mixerPage(browser, testInfo, baseURL);
  await mixer.page.goto("/mixer/catalogue/5");
  await mixer.page.getByRole("button", { name: "Retire" }).click();
  await expectToast(mixer.page, "Concrete Lullaby is retired: it left the library.");

  await page.goto("/");
  await expect(page.locator("#song-5")).toHaveCount(0);
  const deck = page.getByTestId("deck-list");
  await expect(deck.getByTestId("deck-track")).toHaveCount(2);
  await expect(deck.getByTestId("deck-track").first()).toContainText("Concrete Lullaby");
  await expect(deck.getByTestId("deck-track-retired")).toHaveText("Retired");
  // Removed, a replayed Add is refused with a message, never a 5xx.
  await deck.getByRole("button", { name: "Remove: Concrete Lullaby" }).click();
  await expect(deck.getByTestId("deck-track")).toHaveCount(1);
  await postsSettled(page);
  const replay = await page.request.post("/", { form: { intent: "add", songId: "5" }, maxRedirects: 0 });
  expect(replay.status()).toBe(400);
  // The answer's page says why (its toast, rendered by the server).
  expect(await replay.text()).toContain("Concrete Lullaby&quot; is retired: it is no longer in the library.");
  await page.goto("/");
  await expect(page.getByTestId("deck-track")).toHaveCount(1);

  // Brought back, it is in the library again.
  await mixer.page.goto("/mixer/catalogue/5");
  await mixer.page.getByRole("button", { name: "Bring back" }).click();
  await expectToast(mixer.page, "Concrete Lullaby is back in the library.");
  await mixer.close();
  await page.goto("/");
  await expect(page.locator("#song-5")).toContainText("Concrete Lullaby");
});

test("bad input gets its message on the form and changes nothing: a title, a preview that is not audio, images that are not fit", async ({
  browser,
  baseURL,
  shop,
}, testInfo) => {
  test.setTimeout(150_000);
  const mixer = await mixerPage(browser, testInfo, baseURL);
  const m = mixer.page;
  await m.goto("/mixer/catalogue/8");
  await m.getByLabel("Title").fill("   ");
  await m.getByRole("button", { name: "Save", exact: true }).click();
  await expect(m.getByTestId("title-error")).toHaveText("A title is required.");
  await m.getByLabel("Title").fill("x".repeat(81));
  await m.getByRole("button", { name: "Save", exact: true }).click();
  await expect(m.getByTestId("title-error")).toHaveText("The title is limited to 80 characters.");

  await m.goto("/mixer/catalogue/8");
  await pickFile(m, testInfo, "Preview", shop.files.text);
  if (!jsEnabled(testInfo)) await m.getByRole("button", { name: "Save", exact: true }).click();
  await expect(m.getByTestId("media-error")).toHaveText("This file is not audio (MP3, M4A, OGG, FLAC or WAV).");

  for (const [file, message] of [
    [shop.files.svg, "This file is not an image (JPEG, PNG, WebP or AVIF)."],
    [shop.files.wide, "This image is too large: at most 8000 × 8000 pixels."],
  ] as const) {
    await m.goto("/mixer/catalogue/8");
    await pickFile(m, testInfo, "Thumbnail", file);
    if (!jsEnabled(testInfo)) await m.getByRole("button", { name: "Save", exact: true }).click();
    await expect(m.getByTestId("media-error")).toHaveText(message);
  }
  await m.goto("/mixer/catalogue");
  await expect(songRow(m, "8").getByTestId("catalogue-song-title")).toHaveText("Rebel Broadcast");
  await expect(songRow(m, "8").locator("img")).toHaveAttribute("src", "/art/thumbs/08.svg");

  await m.goto("/mixer/shop");
  await m.getByLabel("Creator URL").fill("http://not-secure.example");
  await m.getByRole("button", { name: "Save", exact: true }).click();
  await expect(m.locator("#words-errors")).toHaveText("Creator URL must be an https:// link.");
  await expect(m.getByLabel("Creator URL")).toHaveValue("http://not-secure.example");
  await mixer.close();
});

test("two mixers save the same song at once: the later save says it changed meanwhile and keeps what was typed", async ({
  browser,
  baseURL,
}, testInfo) => {
  const a = await mixerPage(browser, testInfo, baseURL, MIXERS[0]);
  const b = await mixerPage(browser, testInfo, baseURL, MIXERS[1]);
  await a.page.goto("/mixer/catalogue/12");
  await b.page.goto("/mixer/catalogue/12");
  await a.page.getByLabel("Title").fill("Low Battery Love (A)");
  await b.page.getByLabel("Title").fill("Low Battery Love (B)");
  await saveAndExpect(a.page, "Saved.");
  await b.page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(b.page.locator("#song-form-error")).toContainText("This was changed meanwhile");
  await expect(b.page.getByLabel("Title")).toHaveValue("Low Battery Love (B)");
  // Saved again, deliberately, it goes through.
  await saveAndExpect(b.page, "Saved.");
  await b.page.goto("/mixer/catalogue");
  await expect(songRow(b.page, "12")).toContainText("Low Battery Love (B)");
  await a.close();
  await b.close();
});

test("the mixer reorders the library, replaces a cover background, renames and retires a design; the storefront follows", async ({
  page,
  browser,
  baseURL,
  shop,
}, testInfo) => {
  test.setTimeout(150_000);
  const mixer = await mixerPage(browser, testInfo, baseURL);
  const m = mixer.page;
  await m.goto("/mixer/catalogue");
  await songRow(m, "4").getByRole("button", { name: "Move up: Signal Jammer" }).click();
  await expect(m.getByTestId("catalogue-song").nth(2)).toHaveAttribute("id", "song-4");
  const background = m.locator("#background-1");
  await pickFile(m, testInfo, "Replace image (Background 1)", shop.files.coverWebp);
  await background.getByRole("button", { name: "Save", exact: true }).click();
  await expectToast(m, "Background 1 replaced.");
  await expect(m.locator("#background-1 img").first()).toHaveAttribute("src", /^\/media\/catalogue\/covers\/.+\.webp$/);
  await m.goto("/mixer/catalogue/designs/system-burnout");
  await m.getByLabel("Name").fill("system meltdown");
  await saveAndExpect(m, "Saved.");
  await m.goto("/mixer/catalogue/designs/unicorn-mix");
  await m.getByRole("button", { name: "Retire" }).click();
  await expectToast(m, "unicorn mix is retired.");
  await mixer.close();

  await logIn(page, shopperFor(testInfo, 0).email);
  const titles = page.getByTestId("song-card").getByRole("heading", { level: 3 });
  // Signal Jammer moved above Neon Curfew (which an earlier test may have retired): third either way.
  await expect(titles.nth(1)).toHaveText("Pirate Frequency");
  await expect(titles.nth(2)).toHaveText("Signal Jammer");
  await expect(page.getByRole("button", { name: "Choose design: system meltdown" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Choose design: unicorn mix" })).toHaveCount(0);
});

test("with JavaScript a file's upload shows its progress, and Save waits for it", async ({
  browser,
  baseURL,
  shop,
}, testInfo) => {
  test.skip(!jsEnabled(testInfo), "progress is shown with JavaScript (without it the browser sends the form)");
  const mixer = await mixerPage(browser, testInfo, baseURL);
  const m = mixer.page;
  await m.goto("/mixer/catalogue/9");
  await waitForScripts(m);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await m.route("**/mixer/catalogue/media?kind=preview", async (route) => {
    await released;
    await route.continue();
  });
  await m.getByLabel("Preview", { exact: true }).setInputFiles(shop.files.mp3);
  await expect(m.getByTestId("upload-progress")).toBeVisible();
  await expect(m.getByTestId("upload-progress")).toContainText("Uploading...");
  await expect(m.getByRole("button", { name: "Save", exact: true })).toBeDisabled();
  release();
  await expect(m.getByTestId("media-preview").getByTestId("media-ready")).toBeVisible();
  await saveAndExpect(m, "Saved.");
  await m.goto("/mixer/catalogue/9");
  await expect(m.getByTestId("media-preview").locator("audio").first()).toHaveAttribute(
    "src",
    /^\/media\/catalogue\/previews\/.+\.mp3$/,
  );
  await mixer.close();
});

test("only the catalogue's files are served, only mixers reach the catalogue, and a form over its limit is refused unread", async ({
  page,
  baseURL,
}, testInfo) => {
  // A tape's key is never a catalogue file; nor is a path that leaves the folder.
  for (const path of [
    "/media/ABCD1234/0f8fad5b-d9cb-469f-a165-70867728950e.mp3",
    "/media/catalogue/previews/../../x.mp3",
    "/media/catalogue/previews/nope.mp3",
  ])
    expect((await fetch(new URL(path, baseURL))).status, path).toBe(404);
  await logIn(page, shopperFor(testInfo, 1).email);
  for (const path of ["/mixer/catalogue", "/mixer/catalogue/1", "/mixer/catalogue/designs/ice-cold"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  }
  const media = await page.request.post("/mixer/catalogue/media?kind=preview", {
    multipart: { file: { name: "x.mp3", mimeType: "audio/mpeg", buffer: Buffer.from("x") } },
  });
  expect(media.status()).toBe(404);
  // Declared over a preview and an image: refused before a byte of it is read.
  const status = await new Promise<number>((resolve, reject) => {
    const url = new URL("/mixer/catalogue/8", baseURL);
    const req = http.request(url, {
      method: "POST",
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(31 * 1024 * 1024),
        origin: url.origin,
      },
    });
    req.on("response", (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on("error", reject);
    req.write("--x\r\n");
  });
  expect(status).toBe(413);
});

test("the catalogue's pages have no axe violations", async ({ browser, baseURL }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "axe-core needs JavaScript in the page");
  const mixer = await mixerPage(browser, testInfo, baseURL);
  const m = mixer.page;
  const scan = async (label: string) => {
    const results = await new AxeBuilder({ page: m })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
      .analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      label,
    ).toEqual([]);
  };
  await m.goto("/mixer/catalogue");
  await scan("/mixer/catalogue");
  await m.goto("/mixer/catalogue/1");
  await scan("/mixer/catalogue/1");
  await m.getByLabel("Title").fill("");
  await m.getByRole("button", { name: "Save", exact: true }).click();
  await expect(m.getByTestId("title-error")).toBeVisible();
  await scan("/mixer/catalogue/1 with an error");
  await m.goto("/mixer/catalogue/new");
  await scan("/mixer/catalogue/new");
  await m.goto("/mixer/catalogue/designs/ice-cold");
  await scan("/mixer/catalogue/designs/ice-cold");
  await m.goto("/mixer/shop");
  await scan("/mixer/shop with the shop's words");
  await mixer.close();
});
