// The Backend port's contract, pages that read their rows once: the console's queue a page at a time
// (25 and a cursor; the page after, the page before, the first page for a cursor that leads nowhere)
// and a shopper's orders 20 a page by the same cursor, newest first, each row with its money and tape;
// ties on the time placed never skip or repeat an order; the search forgives case and look-alikes.
// Against every adapter.
import "../../support/env";
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { codeSearchKey } from "~/domain/order-code";
import { readOrderRow } from "~/domain/orders";
import {
  QUEUE_PAGE_SIZE,
  readPagePlace,
  readQueueCursor,
  readQueueQuery,
  type QueueCursor,
  type QueueFilter,
} from "~/domain/queue";
import type { QueueRead } from "~/server/backend/port.server";
import { queueCounts, queuePage } from "~/server/services/mixer.server";
import { shopperOrders } from "~/server/services/orders.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { backendContract, order, shopHelpers, unique, type SignedIn } from "../../support/backend-contract";
import { queue } from "../../support/order-cases";

const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { shoppersAndMixer, place, moneyOf } = shopHelpers(contract);

  /** A prefix of four letters no other test's codes start with: a search for it finds this test's orders only. */
  const newPrefix = () => Array.from(crypto.randomBytes(4), (b) => ALPHABET[b % ALPHABET.length]).join("");
  /** Another prefix with the same first three letters. */
  const sibling = (prefix: string) => `${prefix.slice(0, 3)}${prefix[3] === "Z" ? "Y" : "Z"}`;
  /** `n` orders of `who` coded prefix + 0001…, placed in that order. */
  async function placeMany(who: SignedIn, prefix: string, n: number) {
    const orders = Array.from({ length: n }, (_, i) =>
      order(who.user.id, { code: `${prefix}${String(i + 1).padStart(4, "0")}` }),
    );
    await place(orders.map((o) => [who, o] as const));
    return orders.map((o) => o.code);
  }
  /** Three times a microsecond apart, dealt out across the orders against their insert order: ties, and ids that disagree with time. */
  const tie = (prefix: string) =>
    ctx.sql.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(
        `update public.mixtapes set created_at = timestamptz '2026-12-01 10:00:00.123456+00' + make_interval(secs => ((id * 7) % 3) / 1e6)
          where code like $1 || '%'`,
        [prefix],
      );
    });
  /** The orders of the prefix in the queue's order, read behind the app's back. */
  const inQueueOrder = async (prefix: string, desc = false) =>
    (
      await ctx.sql.query<{ code: string }>(
        `select code from public.mixtapes where code like $1 || '%'
          order by finished ${desc ? "desc" : ""}, created_at ${desc ? "desc" : ""}, id ${desc ? "desc" : ""}`,
        [prefix],
      )
    ).rows.map((r) => r.code);

  const codes = (rows: Record<string, unknown>[]) => rows.map((r) => String(r.code));
  const read = (who: SignedIn, over: Partial<QueueRead>) => who.browser.call((api) => api.listQueue(queue(over)));
  const cursorOf = (row: Record<string, unknown> | undefined) => readQueueCursor(row?.cursor as string);
  const page = (who: SignedIn, search: string) =>
    who.browser.call((api) => queuePage(api, readQueueQuery(new URLSearchParams(search))));
  const pageCodes = async (who: SignedIn, search: string) => {
    const p = await page(who, search);
    return { codes: p.orders.map((o) => o.code), before: p.before, after: p.after };
  };

  describe("the console's queue, a page at a time", () => {
    it("26 orders with tied times: 25 and one, after the cursor and before it, never skipped or repeated", async () => {
      const { alice, mixer } = await shoppersAndMixer();
      const prefix = newPrefix();
      await placeMany(alice, prefix, 26);
      await tie(prefix);
      const expected = await inQueueOrder(prefix);

      const first = await read(mixer, { code: prefix, limit: QUEUE_PAGE_SIZE + 1 });
      expect(first.error).toBeNull();
      expect(codes(first.rows)).toEqual(expected);
      const after25 = cursorOf(first.rows[24]);
      expect(after25).not.toBeNull();
      const rest = await read(mixer, { code: prefix, limit: QUEUE_PAGE_SIZE + 1, after: after25 });
      expect(codes(rest.rows)).toEqual(expected.slice(25));
      // Before the 26th: the 25 before it, in the list's order (the page before, read backward).
      const back = await read(mixer, {
        code: prefix,
        limit: QUEUE_PAGE_SIZE + 1,
        after: cursorOf(first.rows[25]),
        backward: true,
      });
      expect(codes(back.rows)).toEqual(expected.slice(0, 25));
      // One at a time, forward: every order once, in order.
      const walked: string[] = [];
      let cursor = null;
      for (let i = 0; i < 30; i++) {
        const { rows } = await read(mixer, { code: prefix, limit: 1, after: cursor });
        if (rows.length === 0) break;
        walked.push(...codes(rows));
        cursor = cursorOf(rows[0]);
      }
      expect(walked).toEqual(expected);

      // The service: 25 a page, links both ways, the same orders.
      const one = await pageCodes(mixer, `q=${prefix}`);
      expect(one.codes).toEqual(expected.slice(0, 25));
      expect(one.before).toBeNull();
      expect(one.after).not.toBeNull();
      const two = await pageCodes(mixer, `q=${prefix}&after=${one.after}`);
      expect(two).toMatchObject({ codes: expected.slice(25), after: null });
      expect(two.before).not.toBeNull();
      const again = await pageCodes(mixer, `q=${prefix}&before=${two.before}`);
      expect(again).toEqual(one);
    });

    it("exactly 25 orders are one page; Sent and Cancelled read newest first, their pages too", async () => {
      const { alice, bob, mixer } = await shoppersAndMixer();
      const prefix = newPrefix();
      const placed = await placeMany(alice, prefix, 25);
      await tie(prefix);
      expect(await pageCodes(mixer, `q=${prefix}`)).toEqual({ codes: await inQueueOrder(prefix), before: null, after: null });

      // 26 cancelled: newest first, by time and then id.
      const more = await placeMany(bob, sibling(prefix), 1);
      for (const code of [...placed, ...more])
        await mixer.browser.call((api) => api.updateOrder(code, { to: "cancelled", from: "received", reason: null }));
      await tie(prefix.slice(0, 3));
      const newest = (await inQueueOrder(prefix.slice(0, 3), true)).filter((c) => [...placed, ...more].includes(c));
      const one = await pageCodes(mixer, `filter=cancelled&q=${prefix.slice(0, 3)}`);
      expect(one.codes).toEqual(newest.slice(0, 25));
      const two = await pageCodes(mixer, `filter=cancelled&q=${prefix.slice(0, 3)}&after=${one.after}`);
      expect(two.codes).toEqual(newest.slice(25));
      expect(await pageCodes(mixer, `filter=cancelled&q=${prefix.slice(0, 3)}&before=${two.before}`)).toEqual(one);
    });

    it("a tampered or stale cursor gets the first page, never an error", async () => {
      const { alice, mixer } = await shoppersAndMixer();
      const prefix = newPrefix();
      await placeMany(alice, prefix, 3);
      const first = await pageCodes(mixer, `q=${prefix}`);
      expect(first.codes).toHaveLength(3);
      for (const cursor of [
        "nonsense",
        "0_2026-02-30T10:00:00.000000Z_1",
        "0_2026-12-01T10:00:00.000000Z_99999999999999999999",
        // Stale: nothing after it (past the end of this search), nothing before it (before its start).
        "1_9999-12-31T23:59:59.999999Z_999999999",
        "0_1970-01-01T00:00:00.000000Z_1",
      ]) {
        expect(await pageCodes(mixer, `q=${prefix}&before=${encodeURIComponent(cursor)}`), `before=${cursor}`).toEqual(first);
        const after = await pageCodes(mixer, `q=${prefix}&after=${encodeURIComponent(cursor)}`);
        expect(after.codes, `after=${cursor}`).toEqual(first.codes);
        // The page after a place before the start: its link back leads to the first page again.
        if (after.before) expect(await pageCodes(mixer, `q=${prefix}&before=${after.before}`)).toEqual(first);
      }
    });

    it("each row carries its money, its tape (the draft rule), its shopper and its place; filters read as the counts count", async () => {
      const { alice, bob, mixer } = await shoppersAndMixer();
      const prefix = newPrefix();
      const [a1, a2, a3] = await placeMany(alice, prefix, 3);
      const [b1] = await placeMany(bob, sibling(prefix), 1);
      const mark = (code: string, kind: "payment" | "refund", amount: number) =>
        mixer.browser.call((api) => api.markMoney(code, { kind, amount, currency: "USD", token: crypto.randomUUID() }));
      expect((await mark(a1, "payment", 1200)).outcome).toBe("paid");
      expect((await mark(a1, "refund", 200)).outcome).toBe("refunded");
      expect((await mark(a3, "payment", 1000)).outcome).toBe("paid");
      const tape = {
        key: `${a2}/${unique()}.flac`,
        fileName: "Mix.flac",
        contentType: "audio/flac",
        size: 10,
        durationSeconds: 61,
        notice: "",
      };
      expect((await mixer.browser.call((api) => api.saveTape(a2, tape))).outcome).toBe("saved");

      const { rows } = await read(mixer, { code: prefix.slice(0, 3) });
      expect(codes(rows)).toEqual([a1, a2, a3, b1]);
      for (const row of rows) {
        const o = readOrderRow(row)!;
        // The set's money is the one rule's, order by order.
        expect(o.money, o.code).toEqual(await moneyOf(o.code));
        expect(cursorOf(row), o.code).not.toBeNull();
      }
      expect(readOrderRow(rows[1])!.tape).toMatchObject({ ext: "flac", fileName: "Mix.flac", durationSeconds: 61 });
      expect(rows.filter((r) => r.tape !== null)).toHaveLength(1);
      expect(rows[3]).toMatchObject({ username: bob.username, email: bob.email });
      // The shopper's own queue: their orders only, and their draft's tape not at all.
      const own = await read(alice, { code: prefix.slice(0, 3) });
      expect(codes(own.rows)).toEqual([a1, a2, a3]);
      expect(own.rows.every((r) => r.tape === null)).toBe(true);

      // Each filter lists as many orders as its count says.
      await mixer.browser.call((api) => api.updateOrder(a2, { to: "mixing" }));
      const counts = await mixer.browser.call((api) =>
        queueCounts(api, readQueueQuery(new URLSearchParams(`q=${prefix.slice(0, 3)}`))),
      );
      for (const filter of ["all", "received", "mixing", "unpaid", "late", "sent", "cancelled"] satisfies QueueFilter[]) {
        const listed = await pageCodes(mixer, `filter=${filter}&q=${prefix.slice(0, 3)}`);
        expect(listed.codes.length, filter).toBe(counts![filter]);
      }
      expect((await pageCodes(mixer, `filter=unpaid&q=${prefix.slice(0, 3)}`)).codes).toEqual([a2, b1]);
    });

    it("the search forgives case and the look-alikes, on codes made before the alphabet too", async () => {
      const { alice, mixer } = await shoppersAndMixer();
      const prefix = newPrefix().slice(0, 2);
      // A code stored before O, I and L were left out of the alphabet, and one of today's.
      const old = order(alice.user.id, { code: `${prefix}OIL123` });
      const today = order(alice.user.id, { code: `${prefix}01K123` });
      await place([
        [alice, old],
        [alice, today],
      ]);
      for (const typed of [`${prefix}oil`, `${prefix}0IL`, `${prefix}011`, `${prefix}O1l1`])
        expect((await pageCodes(mixer, `q=${encodeURIComponent(typed)}`)).codes, typed).toEqual([old.code]);
      expect((await pageCodes(mixer, `q=${prefix.toLowerCase()}o`)).codes).toEqual([old.code, today.code]);
      const counted = await mixer.browser.call((api) => api.queueCounts({ code: codeSearchKey(`${prefix}oil`), dueDays: 5 }));
      expect(Number(counted.counts!.all)).toBe(1);
      // The order's page finds each by its own code.
      expect((await pageCodes(mixer, `q=${today.code}`)).codes).toEqual([today.code]);
    });
  });

  describe("a shopper's orders, by cursor", () => {
    /** My Mixtapes at the place a URL names: its codes and the places of its neighbours. */
    const myPage = async (who: SignedIn, search: string) => {
      const p = await who.browser.call((api) => shopperOrders(api, who.user, readPagePlace(new URLSearchParams(search))));
      return { codes: p.orders.map((o) => o.code), before: p.before, after: p.after };
    };
    /** The pages by the Older links from the first, then by the Newer links back: the codes of each. */
    async function walk(who: SignedIn) {
      const older = [await myPage(who, "")];
      while (older.at(-1)!.after && older.length < 10) older.push(await myPage(who, `after=${older.at(-1)!.after}`));
      const newer = [older.at(-1)!];
      while (newer.at(-1)!.before && newer.length < 10) newer.push(await myPage(who, `before=${newer.at(-1)!.before}`));
      expect(older[0].before).toBeNull();
      expect(older.at(-1)!.after).toBeNull();
      return { older: older.map((p) => p.codes), newer: newer.reverse().map((p) => p.codes) };
    }
    /** The raw port one order at a time: from the newest by `after`, then from the oldest back by `before`. */
    async function oneByOne(who: SignedIn) {
      const read = (after: QueueCursor | null, backward: boolean) =>
        who.browser.call((api) => api.listOrders(who.user.id, { page: { limit: 1, after, backward } }));
      const forward: string[] = [];
      let last: Record<string, unknown> | undefined;
      for (
        let row = (await read(null, false)).rows[0];
        row && forward.length < 100;
        row = (await read(cursorOf(row), false)).rows[0]
      )
        forward.push(String((last = row).code));
      const backward: string[] = [];
      for (let row = last; row && backward.length < 100; row = (await read(cursorOf(row), true)).rows[0])
        backward.unshift(String(row.code));
      return { forward, backward };
    }
    /** Every order of the prefix placed at one instant, behind the app's back: only the id orders them. */
    const sameInstant = (prefix: string) =>
      ctx.sql.transaction(async (tx) => {
        await tx.query(`set local session_replication_role = replica`);
        await tx.query(
          `update public.mixtapes set created_at = timestamptz '2021-06-01 12:00:00.5+00' where code like $1 || '%'`,
          [prefix],
        );
      });

    it("45 orders with tied times: 20, 20 and 5, walked older then newer, each once, each with its money", async () => {
      const { alice, mixer } = await shoppersAndMixer();
      const prefix = newPrefix();
      await placeMany(alice, prefix, 45);
      await tie(prefix);
      const newest = await inQueueOrder(prefix, true);
      const paid = newest[3];
      await mixer.browser.call((api) =>
        api.markMoney(paid, { kind: "payment", amount: 1500, currency: "USD", token: crypto.randomUUID() }),
      );

      const { older, newer } = await walk(alice);
      expect(older).toEqual([newest.slice(0, 20), newest.slice(20, 40), newest.slice(40)]);
      expect(newer).toEqual(older);
      expect(await oneByOne(alice)).toEqual({ forward: newest, backward: newest });

      const { rows, error } = await alice.browser.call((api) =>
        api.listOrders(alice.user.id, { page: { limit: 21, after: null, backward: false } }),
      );
      expect(error).toBeNull();
      expect(codes(rows)).toEqual(newest.slice(0, 21));
      for (const row of rows) expect(readOrderRow(row)!.money).toEqual(await moneyOf(String(row.code)));
      expect(readOrderRow(rows[3])!.paid).toBe(true);
      // Every order at once, and one code.
      expect(codes((await alice.browser.call((api) => api.listOrders(alice.user.id))).rows)).toEqual(newest);
      expect(codes((await alice.browser.call((api) => api.listOrders(alice.user.id, { code: paid }))).rows)).toEqual([paid]);
    });

    it("orders placed at the same instant are neither skipped nor repeated across a page's edge, nor by a newer order", async () => {
      const { alice } = await shoppersAndMixer();
      const prefix = newPrefix();
      await placeMany(alice, prefix, 41);
      await sameInstant(prefix);
      const newest = await inQueueOrder(prefix, true);
      const { older, newer } = await walk(alice);
      expect(older).toEqual([newest.slice(0, 20), newest.slice(20, 40), newest.slice(40)]);
      expect(newer).toEqual(older);
      expect(await oneByOne(alice)).toEqual({ forward: newest, backward: newest });

      // An order placed while the shopper reads page one: page two still starts after the last order seen.
      const one = await myPage(alice, "");
      await placeMany(alice, sibling(prefix), 1);
      expect((await myPage(alice, `after=${one.after}`)).codes).toEqual(newest.slice(20, 40));
    });

    it("a shopper never sees another's orders: not by their id, not by their cursor", async () => {
      const { alice, bob } = await shoppersAndMixer();
      const prefix = newPrefix();
      const mine = Array.from({ length: 21 }, (_, i) =>
        order(alice.user.id, { code: `${prefix}A${String(i).padStart(3, "0")}` }),
      );
      const theirs = Array.from({ length: 21 }, (_, i) =>
        order(bob.user.id, { code: `${prefix}B${String(i).padStart(3, "0")}` }),
      );
      // Placed in turn, then at one instant: their ids interleave.
      await place(mine.flatMap((o, i) => [[alice, o] as const, [bob, theirs[i]] as const]));
      await sameInstant(prefix);
      const alices = (await walk(alice)).older;
      expect(alices.flat().sort()).toEqual(mine.map((o) => o.code).sort());
      expect(alices.map((p) => p.length)).toEqual([20, 1]);
      expect((await walk(bob)).older.flat().sort()).toEqual(theirs.map((o) => o.code).sort());

      // Alice's place in Bob's list: Bob's own orders after it, none of hers.
      const one = await myPage(alice, "");
      const bobsAfter = await myPage(bob, `after=${one.after}`);
      expect(bobsAfter.codes.length).toBeGreaterThan(0);
      expect(bobsAfter.codes.every((c) => theirs.some((o) => o.code === c))).toBe(true);
      // Alice's id from Bob's session: nothing, by page or by code.
      for (const page of [
        { limit: 21, after: null, backward: false },
        { limit: 21, after: cursorOf({ cursor: one.after }), backward: true },
      ])
        expect((await bob.browser.call((api) => api.listOrders(alice.user.id, { page }))).rows).toEqual([]);
      expect((await bob.browser.call((api) => api.listOrders(alice.user.id, { code: mine[0].code }))).rows).toEqual([]);
    });

    it("a tampered or stale cursor, or an old page number, gets the first page, never an error", async () => {
      const { alice } = await shoppersAndMixer();
      const prefix = newPrefix();
      await placeMany(alice, prefix, 3);
      const first = await myPage(alice, "");
      expect(first).toEqual({ codes: await inQueueOrder(prefix, true), before: null, after: null });
      for (const search of [
        "page=3",
        "page=abc",
        "after=nonsense",
        "before=0_2026-02-30T10:00:00.000000Z_1",
        "after=0_2026-12-01T10:00:00.000000Z_99999999999999999999",
        // Stale: nothing older than it, nothing newer than it.
        "after=0_1970-01-01T00:00:00.000000Z_1",
        "before=1_9999-12-31T23:59:59.999999Z_999999999",
      ])
        expect(await myPage(alice, search), search).toEqual(first);
    });
  });
});
