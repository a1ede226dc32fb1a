// The order lifecycle's pure rules: forward-only status, the pay link, the console's
// query string and forms, and the CSV export's cells.
import { describe, expect, it } from "vitest";
import { COPY } from "~/domain/copy";
import { CONSOLE_FORM_COPY } from "~/domain/copy-console";
import { parseMixerIntent } from "~/domain/order-intents";
import type { MoneyLine } from "~/domain/money";
import { nextStatus } from "~/domain/order-status";
import { payLink, readOrderRow, type QueuedOrder } from "~/domain/orders";
import { filterScope, queueSearch, readQueueCounts, readQueueCursor, readQueueQuery } from "~/domain/queue";
import { csvRows } from "~/server/services/mixer.server";
import { line } from "../support/money-line";

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe("nextStatus: received → mixing → sent, never back", () => {
  it("moves forward one step at a time", () => {
    expect(nextStatus("received")).toBe("mixing");
    expect(nextStatus("mixing")).toBe("sent");
    expect(nextStatus("sent")).toBeNull();
  });
});

describe("payLink", () => {
  it("puts the code in place of {code}, every time it appears, encoded", () => {
    expect(payLink("https://pay.example/{code}?ref={code}", "AB12CD34")).toBe("https://pay.example/AB12CD34?ref=AB12CD34");
  });
  it("adds ?code= when there is no {code}, keeping the query it has", () => {
    expect(payLink("https://pay.example/checkout", "AB12CD34")).toBe("https://pay.example/checkout?code=AB12CD34");
    expect(payLink("https://pay.example/checkout?shop=7", "AB12CD34")).toBe("https://pay.example/checkout?shop=7&code=AB12CD34");
  });
});

describe("the console's query string", () => {
  const cursor = "0_2026-12-11T09:30:00.123456Z_42";
  it("reads filter, code and cursor tolerantly; the search forgives case and look-alikes", () => {
    expect(readQueueQuery(new URLSearchParams(`filter=mixing&q= ab1o &after=${cursor}`))).toEqual({
      filter: "mixing",
      code: "AB10",
      after: cursor,
      before: null,
      invalidCode: false,
    });
    expect(readQueueQuery(new URLSearchParams("filter=nope&q=AB-12&after=3"))).toEqual({
      filter: "all",
      code: null,
      after: null,
      before: null,
      invalidCode: true,
    });
    expect(readQueueQuery(new URLSearchParams(`before=${cursor}`))).toMatchObject({ after: null, before: cursor });
    // One direction: after wins.
    expect(readQueueQuery(new URLSearchParams(`after=${cursor}&before=${cursor}`))).toMatchObject({
      after: cursor,
      before: null,
    });
    expect(readQueueQuery(new URLSearchParams("q=ABCDEFGHJ")).invalidCode).toBe(true);
  });
  it("writes it back without the defaults, and round-trips", () => {
    expect(queueSearch({ filter: "all", code: null })).toBe("");
    const query = { filter: "unpaid", code: "AB", after: null, before: cursor } as const;
    expect(queueSearch(query)).toBe("?filter=unpaid&q=AB");
    expect(queueSearch(query, query)).toBe(`?filter=unpaid&q=AB&before=${encodeURIComponent(cursor)}`);
    expect(readQueueQuery(new URLSearchParams(queueSearch(query, query)))).toMatchObject(query);
  });
  it("reads a cursor as the database writes it, and nothing else", () => {
    expect(readQueueCursor(cursor)).toEqual({ finished: false, at: "2026-12-11T09:30:00.123456Z", id: "42" });
    expect(readQueueCursor("1_2026-12-11T09:30:00.000000Z_9")).toEqual({
      finished: true,
      at: "2026-12-11T09:30:00.000000Z",
      id: "9",
    });
    for (const tampered of [
      null,
      "",
      "2_2026-12-11T09:30:00.123456Z_42",
      "0_2026-12-11T09:30:00.123Z_42",
      "0_2026-02-30T09:30:00.123456Z_42",
      "0_2026-12-11T25:30:00.123456Z_42",
      "0_0000-12-11T09:30:00.123456Z_42",
      "0_2026-12-11T09:30:00.123456Z_0",
      "0_2026-12-11T09:30:00.123456Z_-1",
      "0_2026-12-11T09:30:00.123456Z_1234567890123456789",
      "0_2026-12-11T09:30:00.123456Z_42 ",
      "0_2026-12-11T09:30:00.123456+01:00_42",
      "'; drop table mixtapes; --",
    ])
      expect(readQueueCursor(tampered), String(tampered)).toBeNull();
  });
  it("scopes each filter", () => {
    const scope = (status: string | null, over = {}) => ({ status, unpaid: false, late: false, newestFirst: false, ...over });
    expect(filterScope("all")).toEqual(scope(null));
    expect(filterScope("sent")).toEqual(scope("sent", { newestFirst: true }));
    expect(filterScope("cancelled")).toEqual(scope("cancelled", { newestFirst: true }));
    expect(filterScope("unpaid")).toEqual(scope(null, { unpaid: true }));
    // Late: open orders past due, oldest first.
    expect(filterScope("late")).toEqual(scope(null, { late: true }));
  });
});

describe("the console's forms", () => {
  it("reads each intent with a well-formed code only", () => {
    expect(parseMixerIntent(form({ intent: "start-mixing", code: "AB12CD34" }))).toEqual({
      ok: true,
      intent: { intent: "start-mixing", code: "AB12CD34" },
    });
    expect(parseMixerIntent(form({ intent: "mark-paid", code: "ab12cd34" })).ok).toBe(false);
    expect(parseMixerIntent(form({ intent: "delete", code: "AB12CD34" }))).toEqual({
      ok: false,
      error: COPY.errors.unknownIntent,
      unknownIntent: true,
    });
  });
  it("mark-sent: an https link or none, a trimmed message of at most 500 characters", () => {
    const sent = (deliveryUrl: string, message: string) =>
      parseMixerIntent(form({ intent: "mark-sent", code: "AB12CD34", deliveryUrl, message }));
    expect(sent(" https://files.example/tape.mp3 ", " Enjoy\r\nit ")).toEqual({
      ok: true,
      intent: { intent: "mark-sent", code: "AB12CD34", deliveryUrl: "https://files.example/tape.mp3", message: "Enjoy\nit" },
    });
    expect(sent("", "")).toEqual({
      ok: true,
      intent: { intent: "mark-sent", code: "AB12CD34", deliveryUrl: null, message: null },
    });
    expect(sent("http://files.example/tape.mp3", "")).toEqual({ ok: false, error: CONSOLE_FORM_COPY.deliveryLinkInvalid });
    expect(sent("javascript:alert(1)", "")).toEqual({ ok: false, error: CONSOLE_FORM_COPY.deliveryLinkInvalid });
    expect(sent("", "x".repeat(500)).ok).toBe(true);
    expect(sent("", "x".repeat(501))).toEqual({ ok: false, error: CONSOLE_FORM_COPY.messageTooLong(500) });
    expect(sent("", "bell\u0007")).toEqual({ ok: false, error: CONSOLE_FORM_COPY.controlCharacters });
  });
});

describe("a refund by hand names its amount; a mark by hand can be undone", () => {
  const money = { code: "AB12CD34", currency: "USD", token: "token-1234" };
  const refund = (amount: string, named?: string) =>
    parseMixerIntent(form({ intent: "mark-refunded", ...money, amount, ...(named === undefined ? {} : { named }) }));
  it("the refund recorded is the one its button named", () => {
    expect(refund("10.00", "1000")).toEqual({
      ok: true,
      intent: { intent: "mark-refunded", ...money, amount: 1000 },
    });
  });
  it("a typed amount the button did not name asks first, naming it; so does a form that named none", () => {
    expect(refund("2", "1000")).toEqual({ ok: false, error: CONSOLE_FORM_COPY.refundConfirm("$2.00") });
    expect(refund("10.00")).toEqual({ ok: false, error: CONSOLE_FORM_COPY.refundConfirm("$10.00") });
    expect(refund("ten", "1000")).toEqual({ ok: false, error: CONSOLE_FORM_COPY.amountInvalid("USD", "12.00") });
  });
  it("Mark Paid records what was typed, as before", () => {
    expect(parseMixerIntent(form({ intent: "mark-paid", ...money, amount: "12" }))).toEqual({
      ok: true,
      intent: { intent: "mark-paid", ...money, amount: 1200 },
    });
  });
  it("undo names a mark by hand of the order", () => {
    expect(parseMixerIntent(form({ intent: "undo-mark", code: "AB12CD34", event: "manual:token-1234" }))).toEqual({
      ok: true,
      intent: { intent: "undo-mark", code: "AB12CD34", event: "manual:token-1234" },
    });
    for (const event of ["evt_1", "manual:", "manual:x", ""])
      expect(parseMixerIntent(form({ intent: "undo-mark", code: "AB12CD34", event })).ok, event).toBe(false);
  });
});

describe("csvRows", () => {
  const order = (over: Partial<QueuedOrder>): QueuedOrder => ({
    ...readOrderRow({
      id: "1",
      code: "AB12CD34",
      tracks: [
        { id: "1", title: "Static Over Babylon", thumbnail: "", previewUrl: "" },
        { id: "2", title: "Pirate Frequency", thumbnail: "", previewUrl: "" },
      ],
      toggles: { Aikavoice: false, djIntro: true, retronoise: false },
      note: "",
      created_at: "2026-11-23T10:05:00.000Z",
      status: "received",
    })!,
    shopper: { name: "rebel_one", email: "rebel@example.com" },
    late: false,
    markToken: "token-1234",
    ...over,
  });
  const money = (...lines: Partial<MoneyLine>[]) => ({
    lines: lines.map(line),
    movements: [],
  });
  it("one header, then a line per order with its tracks numbered; its times in ISO 8601, as payments.csv", () => {
    const lines = csvRows([order({})], "DJ Aika", true)
      .trimEnd()
      .split("\n");
    expect(lines[0]).toBe(
      "code,placed at,shopper,email,status,currency,paid,refunded,disputed,net,refund due,payments,cancelled,due,tracks,design,options,note",
    );
    expect(lines[1]).toBe(
      "AB12CD34,2026-11-23T10:05:00.000Z,rebel_one,rebel@example.com,received,,,,,,,0,,2026-11-28T10:05:00.000Z,1. Static Over Babylon; 2. Pirate Frequency,,Include Custom Intro,",
    );
    expect(csvRows([order({})], "DJ Aika", false).split("\n")[0]).toMatch(/^AB12CD34,/);
  });
  it("keeps a cell that starts like a formula as text, and quotes commas, quotes and newlines", () => {
    const csv = csvRows([order({ note: '=HYPERLINK("x"), then\nmore' })], "DJ Aika", false);
    expect(csv).toContain(`"'=HYPERLINK(""x""), then\nmore"`);
    expect(csvRows([order({ shopper: { name: "@sum", email: null } })], "DJ Aika", false)).toContain(",'@sum,,");
  });
  it("the ledger's sums: paid, refunded, disputed, net and due in each currency's digits, one value per currency", () => {
    const cancelled = order({
      status: "cancelled",
      cancelled_at: "2026-11-24T09:00:00.000Z",
      money: money({ payments: 2, paid: 2500, refunded: 250, net: 2250, due: 2250 }, { currency: "JPY", paid: 1200, net: 1200 }),
    });
    const [, line] = csvRows([cancelled], "DJ Aika", true).split("\n");
    expect(line).toContain(",cancelled,USD; JPY,25.00; 1200,2.50; 0,0.00; 0,22.50; 1200,22.50; 0,3,2026-11-24T09:00:00.000Z,");
  });
  it("live money only, in the currency's own units; one currency's sums are numbers, a minus no formula", () => {
    const paid = order({
      money: money({ currency: "HUF", paid: 500_000, refunded: 600_000, net: -100_000 }, { test: true, paid: 1200, net: 1200 }),
    });
    const [, line] = csvRows([paid], "DJ Aika", true).split("\n");
    expect(line).toContain(",received,HUF,5000,6000,0,-1000,0,1,");
  });
});

describe("readQueueCounts: the filters' counts", () => {
  it("reads one count per filter, or none at all", () => {
    const raw = { all: 9, received: 3, mixing: 2, sent: 3, cancelled: 1, unpaid: "4", late: 0 };
    expect(readQueueCounts(raw)).toEqual({ all: 9, received: 3, mixing: 2, sent: 3, cancelled: 1, unpaid: 4, late: 0 });
    expect(readQueueCounts(null)).toBeNull();
    expect(readQueueCounts({ ...raw, late: undefined })).toBeNull();
    expect(readQueueCounts({ ...raw, all: -1 })).toBeNull();
  });
});
