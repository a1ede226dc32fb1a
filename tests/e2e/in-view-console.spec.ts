// Every answer in view, continued: the console reads at a glance, the order page is one tap away, and the small
// things. Each test runs at 390 and 1280 px, with JavaScript and without (the two projects).
import fs from "node:fs";
import path from "node:path";
import { addSongs, expect, expectOnTop, jsEnabled, markPaidOnCard, openReview, signUpAndConfirm, test } from "./fixtures";
import { mixerPage, mixerPost, placeOrder, viewport, WIDTHS } from "./in-view-support";

test.describe("5. A console that reads at a glance", () => {
  test("compact cards: six tracks in at most 420 px on a desktop, tracks as a count that opens; filters with counts; on a phone the first order on the first screen", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "glance");
    const code = await placeOrder(page.request, ["14", "15", "16", "17", "18", "19"], "high-voltage");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    for (const width of WIDTHS) {
      await m.setViewportSize(viewport(width));
      await m.goto(`/mixer?q=${code}`);
      const card = m.locator(`#order-${code}`);
      await expect(card.getByTestId("order-code")).toHaveText(code);
      const tracks = card.getByTestId("order-track-count");
      await expect(tracks).toHaveText("6 tracks");
      await expectOnTop(tracks, `${width} px: the track count`);
      if (width === 1280) {
        expect((await card.boundingBox())!.height, "a received card").toBeLessThanOrEqual(420);
        await card.getByRole("button", { name: "Start Mixing" }).click();
        await expect(card.getByTestId("order-status")).toHaveText("Status: Mixing");
        await expect(card.getByRole("button", { name: "Mark Sent" })).toBeVisible();
        expect((await card.boundingBox())!.height, "a mixing card, with Mark Sent").toBeLessThanOrEqual(420);
      }
      // The filters count this search's orders.
      await m.evaluate(() => window.scrollTo(0, 0));
      const filters = m.getByRole("navigation", { name: "Show orders" }).getByRole("link");
      const mixing = width === 1280 ? 1 : 0;
      await expect(filters).toHaveText([
        /^All\s*1$/,
        new RegExp(`^Received\\s*${1 - mixing}$`),
        new RegExp(`^Mixing\\s*${mixing}$`),
        /^Sent\s*0$/,
        /^Cancelled\s*0$/,
        /^Unpaid\s*1$/,
        /^Late\s*0$/,
      ]);
      await expectOnTop(filters.first(), `${width} px: the filters`);
      await tracks.click();
      await expect(card.getByTestId("order-tracks").locator("li")).toHaveCount(6);
      await card.getByTestId("order-tracks").locator("li").last().scrollIntoViewIfNeeded();
      await expectOnTop(card.getByTestId("order-tracks").locator("li").last(), `${width} px: the sixth track`);
      // The whole queue: its first order is on the first screen.
      await m.goto("/mixer");
      await expectOnTop(m.getByTestId("queue-order").first().getByTestId("order-code"), `${width} px: the first order`);
    }
    await mixer.close();
  });

  test("after an action the page stays where it was: the answer is in place, and nothing covers the cards", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "inplace");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    for (const width of WIDTHS) {
      // Three orders whose codes start alike: a search for that letter lists them last, oldest first.
      const codes: string[] = [];
      for (const song of ["20", "21", "22"]) codes.push(await placeOrder(page.request, [song], undefined, codes[0]?.[0]));
      await m.setViewportSize(viewport(width));
      await m.goto(`/mixer?filter=received&q=${codes[0][0]}`);
      await expect(m.getByTestId("queue-order").last()).toHaveId(`order-${codes[2]}`);
      const second = m.locator(`#order-${codes[1]}`);
      await second.scrollIntoViewIfNeeded();
      await second.getByRole("button", { name: "Start Mixing" }).click();
      // The card left the Received filter; its answer stays where it was.
      const answer = m.locator(`#order-${codes[1]}`).getByTestId("order-answer");
      await expect(answer).toHaveText(`Order ${codes[1]} is now Mixing`);
      await expectOnTop(answer, `${width} px: the answer`);
      await expect(m.locator(`#order-${codes[1]}`).getByRole("button", { name: "Start Mixing" })).toHaveCount(0);
      await expectOnTop(m.locator(`#order-${codes[2]}`).getByTestId("order-code"), `${width} px: the next card`);
      for (const heading of await m.getByTestId("queue-order").getByTestId("order-code").all())
        if (await heading.isVisible()) {
          const box = await heading.boundingBox();
          if (box && box.y >= 0 && box.y + box.height <= viewport(width).height) await expectOnTop(heading, "a card's code");
        }
      // An action that keeps the card in the list answers in the card.
      await m.goto(`/mixer?q=${codes[2]}`);
      const third = m.locator(`#order-${codes[2]}`);
      await third.getByRole("button", { name: "Start Mixing" }).click();
      await expect(third.getByTestId("order-answer")).toHaveText(`Order ${codes[2]} is now Mixing`);
      await expectOnTop(third.getByTestId("order-answer"), `${width} px: the answer in the card`);
      await expectOnTop(third.getByTestId("order-code"), `${width} px: the card's code`);
    }
    await mixer.close();
  });
});

test.describe("6. The order page one obvious tap away", () => {
  test("each My Mixtapes card opens its order; a reply shows there and in the header", async ({ page, browser }, testInfo) => {
    await signUpAndConfirm(page, "openorder");
    const code = await placeOrder(page.request, ["25"]);
    const mixer = await mixerPage(browser, testInfo);
    expect(
      (
        await mixer.page.request.post(`/mixer/orders/${code}`, {
          form: { intent: "message", body: "Which version of track 1?" },
          maxRedirects: 0,
        })
      ).status(),
    ).toBe(303);
    await mixer.close();
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await page.goto("/");
      const mark = page.getByTestId("header-unread");
      if (width === 390) {
        await expect(mark).toHaveText("1");
        await expectOnTop(mark, "the header's unread mark");
        await expect(
          page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: /My Mixtapes/ }),
        ).toHaveAccessibleName("My Mixtapes (1 new reply)");
      }
      await page.goto("/my-mixtapes");
      const open = page.locator(`#order-${code}`).getByRole("link", { name: /^Open order/ });
      await expect(open).toHaveText(width === 390 ? "Open order · 1 new reply" : "Open order");
      await expectOnTop(open, `${width} px: Open order`);
      await open.click();
      await expect(page).toHaveURL(new RegExp(`/my-mixtapes/${code}`));
      await expect(page.getByRole("heading", { name: `Order ${code}`, level: 1 })).toBeVisible();
      await expect(page.getByTestId("header-unread")).toHaveCount(0);
    }
  });

  test("the order page says who cancelled and why; a paid order's cancel confirmation says what is refunded", async ({
    page,
    browser,
  }, testInfo) => {
    await signUpAndConfirm(page, "cancelled");
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await m.setViewportSize(viewport(width));
      const [byMixer, paid] = [await placeOrder(page.request, ["26"]), await placeOrder(page.request, ["27"])];
      expect(
        (
          await mixerPost(m, { intent: "cancel", code: byMixer, from: "received", reason: "The tape deck broke, sorry!" })
        ).status(),
      ).toBe(303);
      await page.goto(`/my-mixtapes/${byMixer}`);
      const cancelled = page.getByTestId("order-cancelled");
      await expect(cancelled).toContainText("Cancelled by DJ Aika");
      await expect(cancelled).toContainText("The tape deck broke, sorry!");
      await cancelled.scrollIntoViewIfNeeded();
      await expectOnTop(cancelled, `${width} px: who cancelled and why`);

      await m.goto(`/mixer?q=${paid}`);
      const card = m.locator(`#order-${paid}`);
      await markPaidOnCard(card, "12.00");
      await expect(card.getByTestId("order-paid")).toHaveText("Paid $12.00");
      await page.goto("/my-mixtapes");
      const mine = page.locator(`#order-${paid}`);
      await mine.getByRole("link", { name: "Cancel Order" }).click();
      const refund = mine.getByTestId("cancel-refund");
      await expect(refund).toHaveText("Your payment of $12.00 will be refunded.");
      await expectOnTop(refund, `${width} px: the refund`);
      await mine.getByRole("button", { name: "Yes, cancel it" }).click();
      await expect(page.locator(`#order-${paid}`).getByTestId("order-status")).toHaveText("Status: Cancelled");
      await page.goto(`/my-mixtapes/${paid}`);
      await expect(page.getByTestId("order-cancelled")).toContainText("Cancelled by you");
    }
    await mixer.close();
  });
});

test.describe("7. Small things", () => {
  test.describe("local times", () => {
    test.use({ timezoneId: "Asia/Tokyo" });
    test("with JavaScript in the shopper's time zone; without it in UTC, labelled", async ({ page }, testInfo) => {
      await signUpAndConfirm(page, "tokyo");
      const code = await placeOrder(page.request, ["28"]);
      for (const width of WIDTHS) {
        await page.setViewportSize(viewport(width));
        for (const to of ["/my-mixtapes", `/my-mixtapes/${code}`]) {
          await page.goto(to);
          const placed = page.getByTestId("order-placed").first();
          const iso = (await placed.getAttribute("datetime"))!;
          const tokyo = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Tokyo" })
            .format(new Date(iso))
            .replace(/\u202f/g, " ");
          if (jsEnabled(testInfo)) {
            await expect(placed).toHaveText(`${tokyo} GMT+9`);
          } else {
            await expect(placed).toHaveText(/ UTC$/);
            await expect(placed).not.toHaveText(new RegExp(`^${tokyo}`));
          }
          await expectOnTop(placed, `${width} px ${to}: the time`);
        }
      }
    });
  });

  test("order codes have no O, I or L", async ({ page }) => {
    await signUpAndConfirm(page, "codes");
    await addSongs(page, ["29"]);
    const codes = [];
    for (let i = 0; i < 20; i++) {
      expect((await page.request.post("/review", { form: { intent: "generate-code" }, maxRedirects: 0 })).status()).toBe(303);
      codes.push(/data-testid="order-code"[^>]*>([A-Z0-9]{8})</.exec(await (await page.request.get("/review")).text())![1]);
    }
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z0-9]{8}$/);
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      await page.goto("/review");
      await expectOnTop(page.getByTestId("order-code"), `${width} px: the code`);
    }
  });

  test("$10+ says what it means, in the review and at the front door", async ({ page, browser }, testInfo) => {
    const line = "from $10: you choose the amount at checkout";
    const anon = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo) });
    const door = await anon.newPage();
    await signUpAndConfirm(page, "price");
    await addSongs(page, ["30"]);
    for (const width of WIDTHS) {
      await page.setViewportSize(viewport(width));
      const dialog = await openReview(page);
      const note = dialog.getByTestId("price-note");
      await expect(note).toHaveText(line);
      await note.scrollIntoViewIfNeeded();
      await expectOnTop(note, `${width} px: the review's price line`);
      await page.goto("/");
      await door.setViewportSize(viewport(width));
      await door.goto("/auth");
      const front = door.getByTestId("front-price-note");
      await expect(front).toHaveText(line);
      await front.scrollIntoViewIfNeeded();
      await expectOnTop(front, `${width} px: the front door's price line`);
    }
    await anon.close();
  });

  test("the insights' design colours come from the designs themselves", async ({ page, browser }, testInfo) => {
    await signUpAndConfirm(page, "colours");
    for (const design of ["ice-cold", "system-burnout", "high-voltage", "unicorn-mix"])
      await placeOrder(page.request, ["1"], design);
    const mixer = await mixerPage(browser, testInfo);
    const m = mixer.page;
    for (const width of WIDTHS) {
      await m.setViewportSize(viewport(width));
      await m.goto("/mixer/insights");
      const slices = m.getByTestId("chart-designs").getByTestId("design-slice");
      const seen = new Map<string, string>();
      for (const slice of await slices.all()) {
        const id = (await slice.getAttribute("data-design"))!;
        const fill = (await slice.evaluate((el) => el.getAttribute("fill") ?? "")).toLowerCase();
        seen.set(id, fill);
        if (id === "none") continue;
        const art = fs.readFileSync(path.join("public/art/designs", `${id}.svg`), "utf8").toLowerCase();
        expect(art, `${id}'s colour ${fill} is in its art`).toContain(fill);
      }
      expect([...seen.keys()]).toEqual(expect.arrayContaining(["ice-cold", "system-burnout", "high-voltage", "unicorn-mix"]));
      expect(new Set(seen.values()).size, "one colour per design").toBe(seen.size);
      const legend = m.getByTestId("chart-designs").getByTestId("design-legend").first();
      await legend.scrollIntoViewIfNeeded();
      await expectOnTop(legend, `${width} px: the legend`);
    }
    await mixer.close();
  });
});
