// The Backend port's contract, the drop's tapes: which file is which order's tape, who
// may save, read and count it, and the store's chores (expiry, the deletion queue, an erased
// account's files); run against every adapter.
import "../../support/env";
import { describe, expect, it } from "vitest";
import { readOrderRow } from "~/domain/orders";
import { deleteAccount } from "~/server/services/own-account.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { PASSWORD, backendContract, order, shopHelpers, unique, type SignedIn } from "../../support/backend-contract";
import { queue } from "../../support/order-cases";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { shoppersAndMixer, place, backdate } = shopHelpers(contract);

  describe("the drop's tapes", () => {
    const tape = (code: string, name = "Final Mix.flac", notice = "") => ({
      key: `${code}/${unique()}.flac`,
      fileName: name,
      contentType: "audio/flac",
      size: 1234567,
      durationSeconds: 1832.5,
      notice,
    });
    async function shop() {
      const { alice, bob, mixer } = await shoppersAndMixer();
      const a1 = order(alice.user.id);
      const a2 = order(alice.user.id);
      await place([
        [alice, a1],
        [alice, a2],
      ]);
      return { alice, bob, mixer, a1, a2 };
    }
    const storedKeys = async () =>
      (await ctx.sql.query(`select storage_key from public.storage_deletions order by storage_key`)).rows.map(
        (r) => r.storage_key,
      );

    const send = async (mixer: SignedIn, code: string) => {
      await mixer.browser.call((api) => api.updateOrder(code, { to: "mixing" }));
      await mixer.browser.call((api) => api.updateOrder(code, { to: "sent", deliveryUrl: null, message: null }));
    };
    /** What a shopper's own reads hold of the order's tape: their list, the file route's lookup, their data export. */
    const shopperSees = async (who: SignedIn, code: string) => {
      const listed = await who.browser.call(async (api) => (await api.listOrders(who.user.id, { code })).rows);
      const file = await who.browser.call((api) => api.tapeFile(code, "shopper"));
      const exported = await who.browser.call(async (api) => (await api.exportData()).data?.orders ?? []);
      return {
        listed: listed[0] ? (readOrderRow(listed[0])?.tape ?? null) : undefined,
        raw: JSON.stringify(listed),
        file: file.file,
        exported: exported.find((o) => o.code === code)?.tape ?? null,
      };
    };

    it("the draft rule: the mixers read a tape at once; its shopper reads and fetches nothing of it until the order is sent", async () => {
      const { alice, bob, mixer, a1 } = await shop();
      const first = tape(a1.code);
      expect(await mixer.browser.call((api) => api.saveTape(a1.code, first))).toEqual({
        outcome: "saved",
        replacedKey: null,
        error: null,
      });
      // A draft: nothing of it for the shopper, on any of their reads; no download counted.
      expect(await shopperSees(alice, a1.code)).toMatchObject({ listed: null, file: null, exported: null });
      expect(await alice.browser.call((api) => api.countTapeDownload(a1.code, 0))).toEqual({ counted: false, error: null });
      // The mixers: its facts on the order (the file's name, never where the store keeps it), and the file itself.
      const queued = await mixer.browser.call(async (api) => (await api.listQueue(queue({ code: a1.code }))).rows);
      expect(readOrderRow(queued[0])?.tape).toMatchObject({
        ext: "flac",
        fileName: "Final Mix.flac",
        contentType: "audio/flac",
        size: 1234567,
        durationSeconds: 1832.5,
        downloads: 0,
        lastDownloadedAt: null,
        deletedAt: null,
      });
      expect(JSON.stringify(queued)).not.toContain(first.key);
      expect(await mixer.browser.call((api) => api.tapeFile(a1.code, "mixer"))).toEqual({
        file: { key: first.key, codename: "NEON SIGNAL", deleted: false },
        error: null,
      });
      // Sent: the shopper reads its facts (not the mixer's file name, nor the key) and fetches it; Bob nothing.
      await send(mixer, a1.code);
      const sent = await shopperSees(alice, a1.code);
      expect(sent.listed).toMatchObject({ ext: "flac", fileName: null, size: 1234567, downloads: 0, deletedAt: null });
      expect(sent.raw).not.toContain(first.key);
      expect(sent.raw).not.toContain("Final Mix");
      expect(sent.file).toEqual({ key: first.key, codename: "NEON SIGNAL", deleted: false });
      expect(sent.exported).toMatchObject({ size: 1234567 });
      expect(JSON.stringify(sent.exported)).not.toContain(first.key);
      expect((await shopperSees(bob, a1.code)).file).toBeNull();
      expect((await bob.browser.call((api) => api.tapeFile(a1.code, "mixer"))).file).toBeNull();
      // A shopper (even the order's own) cannot save one.
      for (const who of [alice, bob]) {
        const refused = await who.browser.call((api) => api.saveTape(a1.code, tape(a1.code)));
        expect(refused.outcome).toBeNull();
        expect(refused.error?.code).toBe("42501");
      }
      expect(await mixer.browser.call((api) => api.saveTape("ZZZZ9999", tape("ZZZZ9999")))).toMatchObject({
        outcome: "no_order",
      });
    });

    it("a draft is replaced by each new upload; any byte served to its shopper after sending makes it downloaded", async () => {
      const { alice, bob, mixer, a1 } = await shop();
      const first = tape(a1.code);
      const second = tape(a1.code, "Final Mix v2.flac");
      await mixer.browser.call((api) => api.saveTape(a1.code, first));
      expect(await mixer.browser.call((api) => api.saveTape(a1.code, second))).toEqual({
        outcome: "replaced",
        replacedKey: first.key,
        error: null,
      });
      await send(mixer, a1.code);
      const downloads = async () =>
        (
          await ctx.sql.query(
            `select downloads, last_downloaded_at is not null as at, file_name from public.tapes t join public.mixtapes m on m.id = t.order_id where m.code = $1`,
            [a1.code],
          )
        ).rows[0];
      // The mixers' reads and another shopper's are never the shopper's download.
      expect(await mixer.browser.call((api) => api.countTapeDownload(a1.code, 0))).toEqual({ counted: false, error: null });
      expect(await bob.browser.call((api) => api.countTapeDownload(a1.code, 0))).toEqual({ counted: false, error: null });
      // A read that starts past the first byte (the player's seek, a resumed download) makes it downloaded once...
      expect(await alice.browser.call((api) => api.countTapeDownload(a1.code, 1))).toEqual({ counted: true, error: null });
      expect(await downloads()).toEqual({ downloads: 1, at: true, file_name: "Final Mix v2.flac" });
      expect(await alice.browser.call((api) => api.countTapeDownload(a1.code, 5000))).toEqual({ counted: false, error: null });
      // ...and each read from the first byte (a play, a download) is one more.
      expect(await alice.browser.call((api) => api.countTapeDownload(a1.code, 0))).toEqual({ counted: true, error: null });
      expect(await downloads()).toMatchObject({ downloads: 2 });
    });

    it("a tape the shopper has is never replaced: a new upload is its next version, posted to the shopper as the mixer's message; closed once cancelled or the conversation is over", async () => {
      const { alice, mixer, a1, a2 } = await shop();
      const first = tape(a1.code);
      await mixer.browser.call((api) => api.saveTape(a1.code, first));
      await send(mixer, a1.code);
      expect(await alice.browser.call((api) => api.countTapeDownload(a1.code, 0))).toEqual({ counted: true, error: null });
      const corrected = tape(a1.code, "Final Mix (fixed).flac", "A corrected version of your tape.");
      expect(await mixer.browser.call((api) => api.saveTape(a1.code, corrected))).toEqual({
        outcome: "new_version",
        replacedKey: first.key,
        error: null,
      });
      const row = async (code: string) =>
        (
          await ctx.sql.query(
            `select t.version, t.downloads, t.last_downloaded_at is null as unheard, t.storage_key,
                    (select array_agg(x.body order by x.id) from public.order_messages x where x.order_id = m.id and x.from_mixer) as told
               from public.tapes t join public.mixtapes m on m.id = t.order_id where m.code = $1`,
            [code],
          )
        ).rows[0];
      expect(await row(a1.code)).toEqual({
        version: 2,
        downloads: 0,
        unheard: true,
        storage_key: corrected.key,
        told: ["A corrected version of your tape."],
      });
      // The shopper reads the new version (its number, not yet downloaded), and fetches its file.
      const listed = await alice.browser.call(async (api) => (await api.listOrders(alice.user.id, { code: a1.code })).rows);
      expect(readOrderRow(listed[0])?.tape).toMatchObject({ version: 2, downloads: 0 });
      expect((await alice.browser.call((api) => api.tapeFile(a1.code, "shopper"))).file?.key).toBe(corrected.key);
      // Over the conversation's days, a sent order's tape stays as it is.
      await backdate(a1.code, "sent_at", 31);
      expect(await mixer.browser.call((api) => api.saveTape(a1.code, tape(a1.code)))).toMatchObject({ outcome: "closed" });
      // A cancelled order takes no tape.
      expect(
        (await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "cancelled", from: "received", reason: null })))
          .updated,
      ).toBe(true);
      expect(await mixer.browser.call((api) => api.saveTape(a2.code, tape(a2.code)))).toMatchObject({ outcome: "closed" });
    });

    it("a cancelled order's draft is never its shopper's, and goes after the days a sent tape is kept", async () => {
      const { alice, mixer, a1 } = await shop();
      const jobs = ctx.backend.tapes;
      const draft = tape(a1.code);
      await mixer.browser.call((api) => api.saveTape(a1.code, draft));
      expect(
        (await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "cancelled", from: "received", reason: null })))
          .updated,
      ).toBe(true);
      expect(await shopperSees(alice, a1.code)).toMatchObject({ listed: null, file: null, exported: null });
      if (!jobs) return; // Supabase without its service role key: the server cannot run the chores
      expect(await jobs.expire(90)).toBe(0);
      await backdate(a1.code, "cancelled_at", 91);
      expect(await jobs.expire(90)).toBe(1);
      expect(await storedKeys()).toContain(draft.key);
    });

    it("the chores: a sent tape expires after its days (its file queued), queued files are claimed, retried after a failure, finished; an erased account's files are queued", async () => {
      const { alice, mixer, a1, a2 } = await shop();
      const jobs = ctx.backend.tapes;
      if (!jobs) return; // Supabase without its service role key: the server cannot run the chores
      const [k1, k2] = [tape(a1.code), tape(a2.code)];
      await mixer.browser.call((api) => api.saveTape(a1.code, k1));
      await mixer.browser.call((api) => api.saveTape(a2.code, k2));
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "mixing" }));
      await mixer.browser.call((api) => api.updateOrder(a1.code, { to: "sent", deliveryUrl: null, message: null }));
      const before = await storedKeys();
      expect(await jobs.expire(90)).toBe(0);
      await backdate(a1.code, "sent_at", 91);
      expect(await jobs.expire(90)).toBe(1);
      expect(await jobs.expire(90)).toBe(0);
      expect((await storedKeys()).filter((k) => !before.includes(k))).toEqual([k1.key]);
      const shown = await alice.browser.call(async (api) => (await api.listOrders(alice.user.id, { code: a1.code })).rows);
      expect(readOrderRow(shown[0])?.tape?.deletedAt).not.toBeNull();
      // Claimed once; a failed delete comes back only after its backoff; a finished one is gone.
      const claimed = (await jobs.claimDeletions(100)).filter((d) => d.key === k1.key);
      expect(claimed).toEqual([{ key: k1.key, attempts: 1 }]);
      expect((await jobs.claimDeletions(100)).some((d) => d.key === k1.key)).toBe(false);
      await jobs.finishDeletion(k1.key, "store down");
      expect(await storedKeys()).toContain(k1.key);
      await ctx.sql.query(`update public.storage_deletions set next_attempt_at = now() where storage_key = $1`, [k1.key]);
      expect((await jobs.claimDeletions(100)).filter((d) => d.key === k1.key)).toEqual([{ key: k1.key, attempts: 2 }]);
      await jobs.finishDeletion(k1.key, null);
      expect(await storedKeys()).not.toContain(k1.key);
      // A replaced file the store would not delete at once: queued by the server, once.
      await jobs.queueDeletion("ZZZZ9999/old.flac");
      await jobs.queueDeletion("ZZZZ9999/old.flac");
      expect((await storedKeys()).filter((k) => k === "ZZZZ9999/old.flac")).toHaveLength(1);
      // Alice erases her account: her other tape's file is queued, its row says deleted.
      expect(await alice.browser.call((api) => deleteAccount(api, alice.user, PASSWORD), "/account")).toEqual({ ok: true });
      expect(await storedKeys()).toContain(k2.key);
      const gone = (
        await ctx.sql.query(`select deleted_at is not null as gone from public.tapes where storage_key = $1`, [k2.key])
      ).rows;
      expect(gone).toEqual([{ gone: true }]);
    });
  });
});
