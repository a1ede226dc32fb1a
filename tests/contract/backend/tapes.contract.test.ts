// The Backend port's contract, the drop's tapes (issue 38): which file is which order's tape, who
// may save, read and count it, and the store's chores (expiry, the deletion queue, an erased
// account's files); run against every adapter.
import "../../support/env";
import { describe, expect, it } from "vitest";
import { readOrderRow } from "~/domain/orders";
import { deleteAccount } from "~/server/services/own-account.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { PASSWORD, backendContract, order, shopHelpers, unique } from "../../support/backend-contract";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { shoppersAndMixer, place, backdate } = shopHelpers(contract);

  describe("the drop's tapes", () => {
    const tape = (code: string, name = "Final Mix.flac") => ({
      key: `${code}/${unique()}.flac`,
      fileName: name,
      contentType: "audio/flac",
      size: 1234567,
      durationSeconds: 1832.5,
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

    it("a mixer saves the order's tape; its shopper and the mixers read it on the order; nobody else saves or reads it", async () => {
      const { alice, bob, mixer, a1 } = await shop();
      const first = tape(a1.code);
      expect(await mixer.browser.call((api) => api.saveTape(a1.code, first))).toEqual({
        outcome: "saved",
        replacedKey: null,
        error: null,
      });
      const seen = await alice.browser.call(async (api) => (await api.listOrders(alice.user.id, { code: a1.code })).rows);
      expect(readOrderRow(seen[0])?.tape).toMatchObject({
        key: first.key,
        fileName: "Final Mix.flac",
        contentType: "audio/flac",
        size: 1234567,
        durationSeconds: 1832.5,
        downloads: 0,
        lastDownloadedAt: null,
        deletedAt: null,
      });
      const queued = await mixer.browser.call(
        async (api) =>
          (
            await api.listQueue({
              status: null,
              unpaid: false,
              late: false,
              code: a1.code,
              newestFirst: false,
              limit: 1,
              offset: 0,
            })
          ).rows,
      );
      expect(readOrderRow(queued[0])?.tape?.key).toBe(first.key);
      // Bob sees no order, so no tape; a shopper (even the order's own) cannot save one.
      expect((await bob.browser.call((api) => api.listOrders(bob.user.id, { code: a1.code }))).rows).toEqual([]);
      for (const who of [alice, bob]) {
        const refused = await who.browser.call((api) => api.saveTape(a1.code, tape(a1.code)));
        expect(refused.outcome).toBeNull();
        expect(refused.error?.code).toBe("42501");
      }
      expect(await mixer.browser.call((api) => api.saveTape("ZZZZ9999", tape("ZZZZ9999")))).toMatchObject({
        outcome: "no_order",
      });
    });

    it("a new upload replaces the tape until its shopper downloads it; the mixers' downloads do not count; a sent order's tape is closed", async () => {
      const { alice, bob, mixer, a1, a2 } = await shop();
      const first = tape(a1.code);
      const second = tape(a1.code, "Final Mix v2.flac");
      await mixer.browser.call((api) => api.saveTape(a1.code, first));
      expect(await mixer.browser.call((api) => api.saveTape(a1.code, second))).toEqual({
        outcome: "replaced",
        replacedKey: first.key,
        error: null,
      });
      expect(await mixer.browser.call((api) => api.countTapeDownload(a1.code))).toEqual({ counted: false, error: null });
      expect(await bob.browser.call((api) => api.countTapeDownload(a1.code))).toEqual({ counted: false, error: null });
      expect(await alice.browser.call((api) => api.countTapeDownload(a1.code))).toEqual({ counted: true, error: null });
      expect(await alice.browser.call((api) => api.countTapeDownload(a1.code))).toEqual({ counted: true, error: null });
      const row = (
        await ctx.sql.query(
          `select downloads, last_downloaded_at is not null as at, file_name from public.tapes t join public.mixtapes m on m.id = t.order_id where m.code = $1`,
          [a1.code],
        )
      ).rows[0];
      expect(row).toEqual({ downloads: 2, at: true, file_name: "Final Mix v2.flac" });
      // Downloaded: the shopper has it, and a new upload is refused (kept).
      expect(await mixer.browser.call((api) => api.saveTape(a1.code, tape(a1.code)))).toMatchObject({
        outcome: "downloaded",
        replacedKey: null,
      });
      // Sent: the order takes no tape any more.
      await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "mixing" }));
      await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "sent", deliveryUrl: null, message: null }));
      expect(await mixer.browser.call((api) => api.saveTape(a2.code, tape(a2.code)))).toMatchObject({ outcome: "closed" });
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
