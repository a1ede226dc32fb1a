// A list read by cursor, as the console and My Mixtapes page it: the place a URL names (after or
// before a cursor the database wrote; anything else is the first page), written back, and the page
// logic over a list in memory (one row more than a page; a cursor that leads nowhere: the first page).
import { describe, expect, it } from "vitest";
import { cursorPage, pageSearch, readPagePlace, type QueueCursor } from "~/domain/queue";

const cursor = "0_2026-12-11T09:30:00.123456Z_42";

describe("a page's place in a URL", () => {
  it("reads after or before, only as the database writes a cursor; after wins", () => {
    expect(readPagePlace(new URLSearchParams(`after=${cursor}`))).toEqual({ after: cursor, before: null });
    expect(readPagePlace(new URLSearchParams(`before=${cursor}`))).toEqual({ after: null, before: cursor });
    expect(readPagePlace(new URLSearchParams(`after=${cursor}&before=${cursor}`))).toEqual({ after: cursor, before: null });
    // Edited, garbage, or the page numbers of before: the first page.
    for (const search of ["", "page=2", "page=abc", "after=3", "before=nonsense", `after=${cursor}x`, "after=&before="])
      expect(readPagePlace(new URLSearchParams(search)), search).toEqual({ after: null, before: null });
  });

  it("writes it back after the other parameters, and round-trips", () => {
    expect(pageSearch(null)).toBe("");
    expect(pageSearch({ after: null, before: null })).toBe("");
    expect(pageSearch({ after: cursor, before: null })).toBe(`?after=${encodeURIComponent(cursor)}`);
    expect(pageSearch({ after: null, before: cursor }, new URLSearchParams("cancel=AB12CD34"))).toBe(
      `?cancel=AB12CD34&before=${encodeURIComponent(cursor)}`,
    );
    const place = { after: null, before: cursor };
    expect(readPagePlace(new URLSearchParams(pageSearch(place)))).toEqual(place);
  });
});

describe("cursorPage over a list newest first", () => {
  // 7 orders, ids 1…7, all placed at the same instant: the id alone orders them (newest first: 7 first).
  const at = "2026-12-11T09:30:00.000000Z";
  const placeOf = (id: number) => `0_${at}_${id}`;
  const list = [7, 6, 5, 4, 3, 2, 1];
  const reads: { cursor: QueueCursor | null; backward: boolean; limit: number }[] = [];
  const read = async (cursor: QueueCursor | null, backward: boolean, limit: number) => {
    reads.push({ cursor, backward, limit });
    const from = cursor ? list.indexOf(Number(cursor.id)) : -1;
    const ids = !cursor
      ? list.slice(0, limit)
      : backward
        ? list.slice(Math.max(0, from - limit), Math.max(0, from))
        : list.slice(from + 1, from + 1 + limit);
    return ids.map((id) => ({ item: id, cursor: placeOf(id) }));
  };
  const page = (search: string) => cursorPage(readPagePlace(new URLSearchParams(search)), 3, read);

  it("walks forward and back by the links, each order once", async () => {
    const one = await page("");
    expect(one).toEqual({ items: [7, 6, 5], before: null, after: placeOf(5) });
    const two = await page(`after=${one.after}`);
    expect(two).toEqual({ items: [4, 3, 2], before: placeOf(4), after: placeOf(2) });
    const three = await page(`after=${two.after}`);
    expect(three).toEqual({ items: [1], before: placeOf(1), after: null });
    expect(await page(`before=${three.before}`)).toEqual(two);
    expect(await page(`before=${two.before}`)).toEqual(one);
    // One row more than a page, each way.
    expect(reads.every((r) => r.limit === 4)).toBe(true);
    expect(reads.at(-1)).toMatchObject({ backward: false, cursor: null });
  });

  it("a cursor that leads nowhere, or is not one, gets the first page", async () => {
    const first = await page("");
    expect(await page(`after=${placeOf(1)}`)).toEqual(first);
    expect(await page(`before=${placeOf(7)}`)).toEqual(first);
    expect(await page(`before=${placeOf(5)}`)).toEqual(first);
    expect(await page("after=0_2026-02-30T09:30:00.000000Z_4")).toEqual(first);
    expect(await page("page=2")).toEqual(first);
  });

  it("a row without a readable place gives no link past it", async () => {
    const noPlace = async (c: QueueCursor | null, b: boolean, limit: number) =>
      (await read(c, b, limit)).map((r) => ({ ...r, cursor: r.item === 5 ? null : r.cursor }));
    expect(await cursorPage({ after: null, before: null }, 3, noPlace)).toEqual({ items: [7, 6, 5], before: null, after: null });
  });
});
