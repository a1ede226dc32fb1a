// The price's minimum has one home, MINIMUM_USD_CENTS of app/domain/price.ts: every word and default
// about it is derived from it. A partial change fails here: a place edited by hand no longer equals
// the derivation, and a place that still spells the amount itself is named by the scan.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, useFetcher } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { PRICE_WORDS, priceWords } from "~/domain/copy";
import { CONSOLE_COPY, MIXER_MONEY_WORDS, MIXER_ONLY_MONEY_WORDS } from "~/domain/copy-console";
import { REVIEW_COPY } from "~/domain/copy-review";
import { formatMoney, majorUnits, moneyBadges } from "~/domain/money";
import { MINIMUM_USD_CENTS, minimumPrice } from "~/domain/price";
import { readOrderRow, type QueuedOrder } from "~/domain/orders";
import { MarkPaidPlace } from "~/routes/mixer/money-actions";
import { loadConfig } from "~/server/platform/config.server";
import { line } from "../support/money-line";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-price-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const words = priceWords(MINIMUM_USD_CENTS);

describe("the price's minimum", () => {
  it("is worded as the spec writes it", () => {
    expect(PRICE_WORDS).toEqual({
      total: "$10+",
      below: "Paid below $10",
      note: "from $10: you choose the amount at checkout",
    });
    expect(minimumPrice()).toEqual({ shown: "$10", typed: "10.00" });
  });

  it("every word follows the amount it is given", () => {
    expect(priceWords(1250)).toEqual({
      total: "$12.50+",
      below: "Paid below $12.50",
      note: "from $12.50: you choose the amount at checkout",
    });
    expect(priceWords(2000).total).toBe("$20+");
    expect(minimumPrice(1250)).toEqual({ shown: "$12.50", typed: "12.50" });
  });

  it("is written as the currency table writes US dollars (without cents when it has none)", () => {
    for (const cents of [MINIMUM_USD_CENTS, 1, 99, 1250, 2000, 123_456]) {
      const { shown, typed } = minimumPrice(cents);
      expect(shown, String(cents)).toBe(formatMoney(cents, "USD")!.replace(/\.00$/, ""));
      expect(typed, String(cents)).toBe(majorUnits(cents, "USD"));
    }
  });

  it("the review's total, the console's flag, PRICE_NOTE's default and .env.example say the derived words", () => {
    expect(REVIEW_COPY.totalValue).toBe(words.total);
    expect(CONSOLE_COPY.paidBelow).toBe(words.below);
    expect(loadConfig({ DATA_DIR: dir }).PRICE_NOTE).toBe(words.note);
    const example = fs.readFileSync(path.join(ROOT, ".env.example"), "utf8");
    expect(/^PRICE_NOTE=(.*)$/m.exec(example)?.[1]).toBe(words.note);
  });

  it("Mark Paid offers the minimum", async () => {
    const order: QueuedOrder = {
      ...readOrderRow({
        id: "1",
        code: "AB12CD34",
        tracks: [],
        toggles: {},
        note: "",
        created_at: "2026-11-23T10:05:00.000Z",
        status: "received",
      })!,
      shopper: { name: "rebel_one", email: null },
      late: false,
      markToken: "token-1234",
    };
    function Card() {
      const fetcher = useFetcher();
      return createElement(MarkPaidPlace, {
        order,
        typed: null,
        action: { fetcher, code: order.code, next: null, to: "/mixer", busy: undefined },
        // The order's page: the form is there (on the queue's card it is rendered once opened).
        place: { on: "page", opened: null },
      });
    }
    const handler = createStaticHandler([{ id: "card", path: "/mixer", Component: Card }]);
    const context = await handler.query(new Request("http://localhost/mixer"));
    if (context instanceof Response) throw new Error("unexpected redirect");
    const html = renderToString(
      createElement(StaticRouterProvider, { router: createStaticRouter(handler.dataRoutes, context), context }),
    );
    expect(html).toMatch(new RegExp(`name="amount"[^>]*value="${minimumPrice().typed.replace(".", "\\.")}"`));
  });

  it("a US dollar payment below it is flagged, and one of it is not", () => {
    const badges = (paid: number) =>
      moneyBadges({ lines: [line({ paid, net: paid })], movements: [] }, MIXER_MONEY_WORDS, MIXER_ONLY_MONEY_WORDS).map(
        (b) => b.text,
      );
    expect(badges(MINIMUM_USD_CENTS - 1)).toContain(words.below);
    expect(badges(MINIMUM_USD_CENTS)).not.toContain(words.below);
  });

  it("no source file spells the amount by hand, outside its comments", () => {
    const { shown, typed } = minimumPrice();
    const spelled = new RegExp(`${shown.replace(/[$.]/g, "\\$&")}(?![\\d.,])|(?<![\\d.])${typed.replace(".", "\\.")}(?!\\d)`);
    const files = [...sources("app"), ...sources("server")];
    expect(files.length).toBeGreaterThan(50);
    // Comments may give an example amount; code and copy may not spell this one.
    const code = (file: string) =>
      fs
        .readFileSync(path.join(ROOT, file), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/(^|[^:])\/\/.*$/gm, "$1");
    const found = files.filter((file) => spelled.test(code(file)));
    const example = fs
      .readFileSync(path.join(ROOT, ".env.example"), "utf8")
      .split("\n")
      .filter((l) => !l.startsWith("PRICE_NOTE=") && spelled.test(l));
    expect([...found, ...example]).toEqual([]);
  });
});

function sources(folder: string): string[] {
  return fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith("+") || entry.name === ".react-router" ? [] : sources(rel);
    return /\.(tsx?|js)$/.test(entry.name) ? [rel] : [];
  });
}
