// The Backend port's contract, orders: stored and listed by their shopper only, codes used once,
// failures with their SQLSTATE, malformed rows read tolerantly; run against every adapter.
import "../../support/env";
import { describe, expect, it } from "vitest";
import { TOAST_COPY } from "~/domain/copy";
import { REVIEW_COPY } from "~/domain/copy-review";
import { readOrderRow } from "~/domain/orders";
import { readQueueCursor } from "~/domain/queue";
import { transmitOrder } from "~/server/services/orders.server";
import { SEEDED_CATALOGUE } from "~/domain/catalogue";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { newCode, track, order, deckFor, backendContract } from "../../support/backend-contract";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const { browser, signedInUser } = backendContract(harness, (fresh) => (ctx = fresh));

  // ---- Orders ------------------------------------------------------------------------

  it("inserts orders and lists them newest first, every field read back", async () => {
    const { browser: b, user } = await signedInUser();
    const first = order(user.id);
    const second = order(user.id, {
      tracks: [track("7")],
      toggles: { Aikavoice: false, djIntro: true, retronoise: false },
      note: "",
      design_id: null,
    });
    expect(await b.call((api) => api.insertOrder(first))).toEqual({ error: null });
    expect(await b.call((api) => api.insertOrder(second))).toEqual({ error: null });

    const { rows, error } = await b.call((api) => api.listOrders(user.id));
    expect(error).toBeNull();
    expect(rows.map((r) => r.code)).toEqual([second.code, first.code]);
    for (const [row, sent] of [
      [rows[0], second],
      [rows[1], first],
    ] as const) {
      expect(row).toMatchObject({
        user_id: user.id,
        code: sent.code,
        tracks: sent.tracks,
        toggles: sent.toggles,
        note: sent.note,
        design_id: sent.design_id,
      });
      expect(row.id).toBeDefined();
      expect(row.created_at).toBeDefined();
      const read = readOrderRow(row);
      expect(read).toMatchObject({
        code: sent.code,
        tracks: sent.tracks,
        toggles: sent.toggles,
        note: sent.note,
        design_id: sent.design_id,
      });
      expect(Number.isNaN(Date.parse(read!.created_at))).toBe(false);
    }
    expect(Date.parse(readOrderRow(rows[0])!.created_at)).toBeGreaterThanOrEqual(Date.parse(readOrderRow(rows[1])!.created_at));

    // One code only.
    const one = await b.call((api) => api.listOrders(user.id, { code: first.code }));
    expect(one.rows.map((r) => r.code)).toEqual([first.code]);

    if (ctx.fake) {
      const [insert] = ctx.fake.requestsTo("/rest/v1/mixtapes", "POST");
      // The spec's fields, and the cover's codename the console's card shows.
      expect(Object.keys(insert.body as object).sort()).toEqual([
        "code",
        "codename",
        "design_id",
        "note",
        "toggles",
        "tracks",
        "user_id",
      ]);
      // The list, read once: one call of the page's function, not a computed column per row.
      const [list] = ctx.fake.requestsTo("/rest/v1/rpc/my_orders", "POST");
      expect(list.body).toEqual({
        p_user_id: user.id,
        p_code: null,
        p_after_at: null,
        p_after_id: null,
        p_backward: false,
        p_limit: null,
      });
      expect(ctx.fake.requestsTo("/rest/v1/mixtapes", "GET")).toEqual([]);
    }
  });

  it("lists orders a page at a time by cursor, newest first, the pages together the whole list", async () => {
    const { browser: b, user } = await signedInUser();
    for (let i = 0; i < 7; i++) expect(await b.call((api) => api.insertOrder(order(user.id)))).toEqual({ error: null });
    const all = (await b.call((api) => api.listOrders(user.id))).rows;
    expect(all).toHaveLength(7);
    const codes = all.map((r) => r.code);
    const placeOf = (i: number) => readQueueCursor(all[i].cursor as string);

    const page = async (limit: number, after: number | null, backward = false) => {
      const { rows, error } = await b.call((api) =>
        api.listOrders(user.id, { page: { limit, after: after === null ? null : placeOf(after), backward } }),
      );
      expect(error).toBeNull();
      return rows.map((r) => r.code);
    };
    expect(await page(3, null)).toEqual(codes.slice(0, 3));
    expect(await page(3, 2)).toEqual(codes.slice(3, 6));
    expect(await page(3, 5)).toEqual(codes.slice(6));
    expect(await page(3, 6)).toEqual([]);
    // Before a place: the newer orders next to it, still newest first.
    expect(await page(3, 6, true)).toEqual(codes.slice(3, 6));
    expect(await page(3, 1, true)).toEqual(codes.slice(0, 1));
    expect(await page(3, 0, true)).toEqual([]);
    // One more than a page: how the route learns that an older page follows.
    expect(await page(8, null)).toEqual(codes);

    if (ctx.fake) {
      const paged = ctx.fake
        .requestsTo("/rest/v1/rpc/my_orders", "POST")
        .find((r) => (r.body as { p_backward: boolean }).p_backward);
      expect(paged?.body).toEqual({
        p_user_id: user.id,
        p_code: null,
        p_after_at: placeOf(6)!.at,
        p_after_id: placeOf(6)!.id,
        p_backward: true,
        p_limit: 3,
      });
    }
  });

  it("RLS: another user sees none of the orders, and cannot insert in someone else's name", async () => {
    const a = await signedInUser();
    const bUser = await signedInUser();
    const mine = order(a.user.id);
    expect((await a.browser.call((api) => api.insertOrder(mine))).error).toBeNull();

    // B lists its own orders: none; B asks for A's: none either.
    expect((await bUser.browser.call((api) => api.listOrders(bUser.user.id))).rows).toEqual([]);
    expect((await bUser.browser.call((api) => api.listOrders(a.user.id))).rows).toEqual([]);
    expect((await bUser.browser.call((api) => api.listOrders(a.user.id, { code: mine.code }))).rows).toEqual([]);

    // A's session inserting an order with B's user_id: refused by the policy.
    const forged = order(bUser.user.id);
    const { error } = await a.browser.call((api) => api.insertOrder(forged));
    expect(error?.code).toBe("42501");
    expect(await ctx.ordersWithCode(forged.code)).toEqual([]);
    // Signed out: refused too.
    const anon = await browser().call((api) => api.insertOrder(order(a.user.id)));
    expect(anon.error?.code).toBe("42501");
    const anonList = await browser().call((api) => api.listOrders(a.user.id));
    expect(anonList.rows).toEqual([]);
    expect(anonList.error?.code).toBe("42501");

    if (ctx.fake) {
      // PostgREST's statuses for the denials: 403 for a signed-in role, 401 for anon.
      const inserts = ctx.fake.requestsTo("/rest/v1/mixtapes", "POST");
      expect(inserts.map((r) => r.status)).toEqual([201, 403, 401]);
      expect((inserts[1].body as { user_id: string }).user_id).toBe(bUser.user.id);
    }

    // A still sees exactly its own order.
    expect((await a.browser.call((api) => api.listOrders(a.user.id))).rows.map((r) => r.code)).toEqual([mine.code]);
  });

  it("a duplicate code: insertOrder answers 23505; transmitOrder answers a repeat as success with one row", async () => {
    const { browser: b, user } = await signedInUser();
    const dup = order(user.id);
    expect((await b.call((api) => api.insertOrder(dup))).error).toBeNull();
    const again = await b.call((api) => api.insertOrder({ ...dup, note: "second try" }));
    expect(again.error?.code).toBe("23505");
    expect(typeof again.error?.message).toBe("string");
    expect(await ctx.ordersWithCode(dup.code)).toHaveLength(1);
    expect(again.error?.message).toBe('duplicate key value violates unique constraint "mixtapes_code_key"');
    if (ctx.fake) expect(ctx.fake.requestsTo("/rest/v1/mixtapes", "POST")[1].status).toBe(409);

    const code = newCode();
    const deck = deckFor(user.id, code);
    const t1 = await b.call((api) => transmitOrder(api, user.id, deck, code, SEEDED_CATALOGUE));
    expect(t1).toEqual({ ok: true, repeat: false });
    const t2 = await b.call((api) => transmitOrder(api, user.id, deck, code, SEEDED_CATALOGUE));
    expect(t2).toEqual({ ok: true, repeat: true });
    // Concurrent double submit: one insert wins, the other sees the 23505 and the stored row.
    const code2 = newCode();
    const deck2 = deckFor(user.id, code2);
    const both = await Promise.all([
      b.call((api) => transmitOrder(api, user.id, deck2, code2, SEEDED_CATALOGUE)),
      b.call((api) => transmitOrder(api, user.id, deck2, code2, SEEDED_CATALOGUE)),
    ]);
    expect(both.every((o) => o.ok)).toBe(true);
    expect(both.filter((o) => o.ok && !o.repeat)).toHaveLength(1);

    for (const c of [code, code2]) {
      const stored = await ctx.ordersWithCode(c);
      expect(stored).toHaveLength(1);
      const listed = (await b.call((api) => api.listOrders(user.id, { code: c }))).rows;
      expect(listed).toHaveLength(1);
      expect(readOrderRow(listed[0])).toMatchObject({
        code: c,
        tracks: deck.songs.map(track),
        toggles: deck.toggles,
        note: deck.note,
        design_id: deck.design,
      });
    }

    // Someone else's code: the insert collides but B sees no such order of its own.
    const other = await signedInUser();
    const stolen = await other.browser.call((api) =>
      transmitOrder(api, other.user.id, deckFor(other.user.id, code), code, SEEDED_CATALOGUE),
    );
    expect(stolen).toMatchObject({ ok: false, status: 409, message: REVIEW_COPY.codeTaken });
    expect(await ctx.ordersWithCode(code)).toHaveLength(1);
  });

  it("a used code with a deck edited since is not a success, and nothing is stored twice", async () => {
    const { browser: b, user } = await signedInUser();
    const code = newCode();
    const deck = deckFor(user.id, code);
    expect(await b.call((api) => transmitOrder(api, user.id, deck, code, SEEDED_CATALOGUE))).toEqual({ ok: true, repeat: false });
    expect(await b.call((api) => transmitOrder(api, user.id, deck, code, SEEDED_CATALOGUE))).toEqual({ ok: true, repeat: true });
    for (const edited of [
      { ...deck, songs: [...deck.songs, "9"] },
      { ...deck, songs: [...deck.songs].reverse() },
      { ...deck, note: "Changed my mind" },
      { ...deck, toggles: { ...deck.toggles, retronoise: true } },
      { ...deck, design: null },
    ]) {
      expect(await b.call((api) => transmitOrder(api, user.id, edited, code, SEEDED_CATALOGUE))).toEqual({
        ok: false,
        status: 409,
        title: TOAST_COPY.submissionFailed,
        message: REVIEW_COPY.codeUsed,
        codeUsed: true,
      });
    }
    expect(await ctx.ordersWithCode(code)).toHaveLength(1);
  });

  it("constraint failures come back as errors with their SQLSTATE", async () => {
    const { browser: b, user } = await signedInUser();
    const longNote = await b.call((api) => api.insertOrder(order(user.id, { note: "x".repeat(121) })));
    expect(longNote.error?.code).toBe("23514");
    const badCode = await b.call((api) => api.insertOrder(order(user.id, { code: "abc" })));
    expect(badCode.error?.code).toBe("23514");
    const ok = await b.call((api) => api.insertOrder(order(user.id, { note: "y".repeat(120) })));
    expect(ok.error).toBeNull();
    expect((await b.call((api) => api.listOrders(user.id))).rows).toHaveLength(1);
  });

  it("reads malformed stored rows tolerantly", async () => {
    const { browser: b, user } = await signedInUser();
    const good = track("12");
    await ctx.seedOrder({
      user_id: user.id,
      code: "BADJSON1",
      tracksJson: JSON.stringify([
        { id: "1", title: "no thumbnail" },
        42,
        null,
        "track",
        { id: 2, title: "T", thumbnail: "t", previewUrl: "p" },
        good,
        { ...good, extra: "ignored" },
      ]),
      togglesJson: JSON.stringify({ Aikavoice: "true", djIntro: 1, retronoise: true, unknown: true }),
      note: "",
      design_id: "no-such-design",
    });
    await ctx.seedOrder({ user_id: user.id, code: "BADJSON2", tracksJson: "[]", togglesJson: "{}", note: "", design_id: null });

    const { rows, error } = await b.call((api) => api.listOrders(user.id));
    expect(error).toBeNull();
    expect(rows).toHaveLength(2);
    const orders = rows.map(readOrderRow);
    expect(orders.every((o) => o !== null)).toBe(true);
    const bad = orders.find((o) => o!.code === "BADJSON1")!;
    expect(bad.tracks).toEqual([good, good]);
    expect(bad.toggles).toEqual({ Aikavoice: false, djIntro: false, retronoise: true });
    expect(bad.design_id).toBe("no-such-design");
    const empty = orders.find((o) => o!.code === "BADJSON2")!;
    expect(empty).toMatchObject({
      tracks: [],
      toggles: { Aikavoice: false, djIntro: false, retronoise: false },
      note: "",
      design_id: null,
    });
  });
});
