// The console's queue without JavaScript, on the built server: 25 orders a page, Newer and Older as
// plain links carrying a cursor (an edited or stale one gets the first page, never a 500), the search
// forgiving case and look-alikes, and a card that carries one primary action: its other forms are
// links to the order's page, where that form is open.
import { beforeAll, describe, expect, it } from "vitest";
import { Client, htmlText, signUpOverHttp, suiteServer } from "./setup";
import { placeOrder } from "./webhook-senders";

const cardsOf = (html: string) =>
  [...html.matchAll(/data-testid="order-code" href="\/mixer\/orders\/([A-Z0-9]{8})"/g)].map((m) => m[1]);
/** The page link with this rel: its text and where it goes. */
function pageLink(html: string, rel: "prev" | "next") {
  const tag = new RegExp(`<a[^>]*rel="${rel}"[^>]*>([^<]*)</a>`).exec(html);
  if (!tag) return null;
  const href = /href="([^"]+)"/.exec(tag[0])![1].replace(/&amp;/g, "&");
  return { text: htmlText(tag[1]), href };
}

describe("the console's pages, without JavaScript", () => {
  const server = suiteServer("console-pages", { env: { MIXER_EMAILS: "pages.dj@example.com" } });
  let mixer: Client;
  const codes: string[] = [];

  beforeAll(async () => {
    const shopper = await signUpOverHttp(server.url, server.dataDir, {
      username: "pages_shopper",
      email: "pages.shopper@example.com",
    });
    mixer = await signUpOverHttp(server.url, server.dataDir, { username: "pages_dj", email: "pages.dj@example.com" });
    for (let i = 0; i < 26; i++) codes.push(await placeOrder(shopper, String((i % 30) + 1)));
  }, 300_000);

  it("26 orders: 25 on the first page, the 26th after Newer orders, and Older orders back to the same 25", async () => {
    const first = await mixer.get("/mixer");
    expect(first.status).toBe(200);
    expect(cardsOf(first.body)).toEqual(codes.slice(0, 25));
    expect(pageLink(first.body, "prev")).toBeNull();
    const newer = pageLink(first.body, "next")!;
    expect(newer.text).toBe("Newer orders");
    expect(newer.href).toMatch(/^\/mixer\?after=/);

    const second = await mixer.get(newer.href);
    expect(cardsOf(second.body)).toEqual(codes.slice(25));
    expect(pageLink(second.body, "next")).toBeNull();
    const older = pageLink(second.body, "prev")!;
    expect(older.text).toBe("Older orders");
    expect(cardsOf((await mixer.get(older.href)).body)).toEqual(codes.slice(0, 25));

    // An edited or stale cursor: the first page.
    for (const search of [
      "?after=nonsense",
      "?before=0_2026-02-30T10:00:00.000000Z_1",
      "?after=1_9999-12-31T23:59:59.999999Z_1",
    ]) {
      const page = await mixer.get(`/mixer${search}`);
      expect(page.status, search).toBe(200);
      expect(cardsOf(page.body), search).toEqual(codes.slice(0, 25));
    }
  });

  it("the search forgives case and the look-alikes O/0 and I/L/1", async () => {
    const code = codes.find((c) => /[01]/.test(c)) ?? codes[0];
    const typed = code.toLowerCase().replace(/0/g, "o").replace(/1/g, "l");
    const found = await mixer.get(`/mixer?q=${typed}`);
    expect(cardsOf(found.body)).toContain(code);
    // The box shows what was searched.
    expect(found.body).toContain(`value="${code}"`);
  });

  it("a card carries one primary action; each other form is a link to the order's page, where it is open", async () => {
    const code = codes[0];
    const page = await mixer.get(`/mixer?q=${code}`);
    // From the card's start to its answer's place, its last element.
    const card = new RegExp(`<li id="order-${code}"[\\s\\S]*?data-testid="order-answer"`).exec(page.body)![0];
    expect([...card.matchAll(/<form /g)]).toHaveLength(1);
    expect(card).toContain(">Start Mixing<");
    for (const field of ["amount", "reason", "deliveryUrl", "message"]) expect(card).not.toContain(`name="${field}"`);
    for (const intent of ["mark-paid", "cancel"]) expect(card).toContain(`href="/mixer/orders/${code}?open=${intent}"`);

    const order = await mixer.get(`/mixer/orders/${code}?open=cancel`);
    expect(order.status).toBe(200);
    expect(order.body).toMatch(/<details[^>]*open=""[^>]*><summary[^>]*>Cancel Order<\/summary>[\s\S]*?name="reason"/);
    expect((await mixer.get(`/mixer/orders/${code}`)).body).not.toMatch(/<details[^>]*open=""[^>]*><summary[^>]*>Cancel Order</);
  });
});
