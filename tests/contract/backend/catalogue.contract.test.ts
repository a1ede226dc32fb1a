// The Backend port's contract, the shop's catalogue: the seeded spec library, who may read and change
// songs, designs, cover backgrounds and the shop's words, a save made from an older page, the last
// song on sale, the mixer's order, and an order that keeps the design it was sold with; against every adapter.
import "../../support/env";
import { describe, expect, it } from "vitest";
import { readCatalogue, SEEDED_CATALOGUE } from "~/domain/catalogue";
import { readOrderRow } from "~/domain/orders";
import { readShop } from "~/server/services/catalogue.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { backendContract, order, shopHelpers } from "../../support/backend-contract";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { browser } = contract;
  const { shoppersAndMixer, place } = shopHelpers(contract);

  const catalogueOf = async (b = browser()) => {
    const { catalogue, error } = await b.call((api) => api.catalogue());
    expect(error).toBeNull();
    return { catalogue: readCatalogue(catalogue), raw: catalogue! };
  };
  const media = (name: string) => `/media/catalogue/${name}`;

  describe("the shop's catalogue", () => {
    it("a new shop is the spec's: 30 songs (ids 1 to 30), 4 designs, 3 backgrounds, no saved words; signed out too", async () => {
      const { catalogue, raw } = await catalogueOf();
      expect(catalogue).toEqual(SEEDED_CATALOGUE);
      expect(raw.words).toEqual({
        title: null,
        tagline: null,
        mixerName: null,
        productLabel: null,
        priceNote: null,
        creatorUrl: null,
        checkoutUrl: null,
      });
      // The environment's words stand in until a mixer saves the shop's own.
      expect((await browser().call((api) => readShop(api))).words.mixerName).toBe("DJ Aika");
    });

    it("only a mixer changes it: a shopper and a visitor are refused and nothing changes", async () => {
      const { alice } = await shoppersAndMixer();
      for (const b of [alice.browser, browser()]) {
        const song = await b.call((api) =>
          api.saveSong({ id: "1", version: 1, title: "Mine now", thumbnail: null, previewUrl: null }),
        );
        expect(song.outcome).toBeNull();
        expect(song.error).not.toBeNull();
        expect(
          (await b.call((api) => api.addSong({ title: "x", thumbnail: media("t.webp"), previewUrl: media("p.mp3") }))).id,
        ).toBeNull();
        expect((await b.call((api) => api.setSongActive("1", 1, false))).outcome).toBeNull();
        expect((await b.call((api) => api.addDesign({ name: "x", image: media("d.webp"), colour: "#000000" }))).id).toBeNull();
        expect((await b.call((api) => api.saveCoverBackground(0, 1, media("b.webp")))).outcome).toBeNull();
        expect((await b.call((api) => api.moveInCatalogue("song", "2", -1))).moved).toBe(false);
        const words = {
          title: "x",
          tagline: "",
          mixerName: "x",
          productLabel: "x",
          priceNote: "",
          creatorUrl: "https://x.test",
          checkoutUrl: "https://x.test",
        };
        expect((await b.call((api) => api.saveShopWords(words))).saved).toBe(false);
      }
      expect((await catalogueOf()).catalogue).toEqual(SEEDED_CATALOGUE);
    });

    it("a mixer renames a song, replaces its files, retires and brings it back; every reader sees it at once", async () => {
      const { mixer, alice } = await shoppersAndMixer();
      const save = {
        id: "3",
        version: 1,
        title: "Neon Curfew (Dub)",
        thumbnail: media("thumbs/a.webp"),
        previewUrl: media("previews/a.mp3"),
      };
      expect(await mixer.browser.call((api) => api.saveSong(save))).toEqual({ outcome: "saved", error: null });
      const renamed = (await catalogueOf(alice.browser)).catalogue.songs.find((s) => s.id === "3");
      expect(renamed).toEqual({
        id: "3",
        title: "Neon Curfew (Dub)",
        thumbnail: save.thumbnail,
        previewUrl: save.previewUrl,
        active: true,
        version: 2,
      });
      // null keeps the files the song has.
      expect(
        await mixer.browser.call((api) =>
          api.saveSong({ ...save, version: 2, title: "Neon Curfew", thumbnail: null, previewUrl: null }),
        ),
      ).toEqual({
        outcome: "saved",
        error: null,
      });
      expect((await catalogueOf()).catalogue.songs[2]).toMatchObject({
        title: "Neon Curfew",
        thumbnail: save.thumbnail,
        version: 3,
      });
      expect(await mixer.browser.call((api) => api.setSongActive("3", 3, false))).toEqual({ outcome: "saved", error: null });
      expect((await catalogueOf()).catalogue.songs[2]).toMatchObject({ active: false, version: 4 });
      expect(await mixer.browser.call((api) => api.setSongActive("3", 4, true))).toEqual({ outcome: "saved", error: null });
      expect((await catalogueOf()).catalogue.songs[2]).toMatchObject({ active: true, version: 5 });
    });

    it("two mixers save the same song at once: the later one is told it changed meanwhile, and nothing of it is written", async () => {
      const { mixer } = await shoppersAndMixer();
      const first = await mixer.browser.call((api) =>
        api.saveSong({ id: "5", version: 1, title: "First", thumbnail: null, previewUrl: null }),
      );
      const second = await mixer.browser.call((api) =>
        api.saveSong({ id: "5", version: 1, title: "Second", thumbnail: null, previewUrl: null }),
      );
      expect([first.outcome, second.outcome]).toEqual(["saved", "changed"]);
      expect((await catalogueOf()).catalogue.songs[4]).toMatchObject({ title: "First", version: 2 });
      expect((await mixer.browser.call((api) => api.setSongActive("5", 1, false))).outcome).toBe("changed");
      expect(
        (await mixer.browser.call((api) => api.saveSong({ id: "99", version: 1, title: "x", thumbnail: null, previewUrl: null })))
          .outcome,
      ).toBe("missing");
    });

    it("bad input is refused by the table: an empty or 81-character title, a file of another site", async () => {
      const { mixer } = await shoppersAndMixer();
      for (const change of [
        { title: " " },
        { title: "x".repeat(81) },
        { thumbnail: "https://evil.test/x.png" },
        { previewUrl: "javascript:alert(1)" },
        { previewUrl: "/media/../../etc/passwd.mp3" },
      ]) {
        const answer = await mixer.browser.call((api) =>
          api.saveSong({ id: "1", version: 1, title: "Fine", thumbnail: null, previewUrl: null, ...change }),
        );
        expect(answer.outcome, JSON.stringify(change)).toBeNull();
        expect(answer.error?.code, JSON.stringify(change)).toBe("23514");
      }
      expect((await catalogueOf()).catalogue).toEqual(SEEDED_CATALOGUE);
    });

    it("the last song on sale is never retired, even by two mixers retiring the last two at once", async () => {
      const { mixer } = await shoppersAndMixer();
      const { catalogue } = await catalogueOf();
      for (const song of catalogue.songs.slice(2)) {
        expect((await mixer.browser.call((api) => api.setSongActive(song.id, song.version, false))).outcome).toBe("saved");
      }
      const [one, two] = await Promise.all([
        mixer.browser.call((api) => api.setSongActive("1", 1, false)),
        mixer.browser.call((api) => api.setSongActive("2", 1, false)),
      ]);
      expect([one.outcome, two.outcome].sort()).toEqual(["last", "saved"]);
      expect((await catalogueOf()).catalogue.songs.filter((s) => s.active)).toHaveLength(1);
    });

    it("a mixer adds a song (id 31, last in the order) and a design, and moves them up the mixer's order", async () => {
      const { mixer } = await shoppersAndMixer();
      const id = await mixer.browser.call((api) =>
        api.addSong({ title: "Fresh Cut", thumbnail: media("t.webp"), previewUrl: media("p.m4a") }),
      );
      expect(id).toEqual({ id: "31", error: null });
      const design = await mixer.browser.call((api) =>
        api.addDesign({ name: "dawn patrol", image: media("d.webp"), colour: "#123abc" }),
      );
      expect(design).toEqual({ id: "design-5", error: null });
      expect(await mixer.browser.call((api) => api.moveInCatalogue("song", "31", -1))).toEqual({ moved: true, error: null });
      expect(await mixer.browser.call((api) => api.moveInCatalogue("design", "design-5", -1))).toEqual({
        moved: true,
        error: null,
      });
      expect((await mixer.browser.call((api) => api.moveInCatalogue("song", "1", -1))).moved).toBe(false);
      const { catalogue } = await catalogueOf();
      expect(catalogue.songs.map((s) => s.id).slice(-3)).toEqual(["29", "31", "30"]);
      expect(catalogue.songs.find((s) => s.id === "31")).toMatchObject({ title: "Fresh Cut", active: true, version: 1 });
      expect(catalogue.designs.map((d) => d.id)).toEqual([
        "ice-cold",
        "system-burnout",
        "high-voltage",
        "design-5",
        "unicorn-mix",
      ]);
      // A move is not a change of what a shopper sees: a save typed meanwhile still goes through.
      expect(
        (
          await mixer.browser.call((api) =>
            api.saveSong({ id: "31", version: 1, title: "Fresh Cut II", thumbnail: null, previewUrl: null }),
          )
        ).outcome,
      ).toBe("saved");
    });

    it("a cover background is replaced by a mixer, from the version read", async () => {
      const { mixer } = await shoppersAndMixer();
      expect(await mixer.browser.call((api) => api.saveCoverBackground(1, 1, media("covers/b.webp")))).toEqual({
        outcome: "saved",
        error: null,
      });
      expect((await mixer.browser.call((api) => api.saveCoverBackground(1, 1, media("covers/c.webp")))).outcome).toBe("changed");
      expect((await catalogueOf()).catalogue.backgrounds[1]).toEqual({ slot: 1, image: media("covers/b.webp"), version: 2 });
    });

    it("the shop's words: a mixer saves them and they win over the environment's; https links only", async () => {
      const { mixer } = await shoppersAndMixer();
      const words = {
        title: "Basement Tapes",
        tagline: "",
        mixerName: "DJ Nova",
        productLabel: "CASSETTE",
        priceNote: "pay what you like",
        creatorUrl: "https://nova.example",
        checkoutUrl: "https://pay.example/{code}",
      };
      expect(await mixer.browser.call((api) => api.saveShopWords(words))).toEqual({ saved: true, error: null });
      expect((await browser().call((api) => readShop(api))).words).toEqual(words);
      const insecure = await mixer.browser.call((api) => api.saveShopWords({ ...words, creatorUrl: "http://nova.example" }));
      expect(insecure.saved).toBe(false);
      expect(insecure.error?.code).toBe("23514");
      expect((await browser().call((api) => readShop(api))).words.creatorUrl).toBe("https://nova.example");
    });

    it("an order keeps the design it was sold with; renaming or retiring the design later changes nothing of it", async () => {
      const { alice, mixer } = await shoppersAndMixer();
      const placed = order(alice.user.id, { design_id: "high-voltage" });
      await place([[alice, placed]]);
      expect(
        (
          await mixer.browser.call((api) =>
            api.saveDesign({ id: "high-voltage", version: 1, name: "low voltage", image: media("d2.webp"), colour: null }),
          )
        ).outcome,
      ).toBe("saved");
      expect((await mixer.browser.call((api) => api.setDesignActive("high-voltage", 2, false))).outcome).toBe("saved");
      const [row] = (await alice.browser.call((api) => api.listOrders(alice.user.id, { code: placed.code }))).rows;
      expect(readOrderRow(row)?.design).toEqual({ name: "high voltage", image: "/art/designs/high-voltage.svg" });
      const later = order(alice.user.id, { design_id: "high-voltage" });
      await place([[alice, later]]);
      const [next] = (await alice.browser.call((api) => api.listOrders(alice.user.id, { code: later.code }))).rows;
      expect(readOrderRow(next)?.design).toEqual({ name: "low voltage", image: media("d2.webp") });
      // Nobody rewrites what an order was sold with, a mixer neither.
      await expect(ctx.sql.query(`update public.mixtapes set design_name = 'x' where code = $1`, [placed.code])).rejects.toThrow(
        /never change/,
      );
    });
  });
});
