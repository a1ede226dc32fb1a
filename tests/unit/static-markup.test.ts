// The server's render cache (app/components/static-markup.tsx) must write exactly the
// markup React writes without it, or hydration in the browser would not match.
import { createElement, createContext, useContext, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { CachedList, createHtmlCache, StaticMarkupProvider } from "~/components/static-markup";

type Item = { id: string; title: string; count: number; on: boolean };
const Optional = createContext<string | null>(null);

function Card({ id, title, count, on }: Item) {
  // Absent in the cached render: like DeckForm's submit handler, it must not change the markup.
  const handler = useContext(Optional);
  return createElement(
    "li",
    { id: `card-${id}`, className: on ? "on" : "off", onClick: handler ? () => {} : undefined },
    createElement("h3", null, title, " ", count, " of ", 10),
    createElement("button", { type: "submit", disabled: !on, "aria-label": `Add: ${title}` }, 'Add <&> "quoted"'),
  );
}

const items: Item[] = [
  { id: "1", title: "Static Over Babylon", count: 3, on: true },
  { id: "2", title: "Pirate & <Frequency>", count: 3, on: false },
  { id: "3", title: "Neon Curfew", count: 0, on: true },
];
const cacheKey = (i: Item) => `${i.id}:${i.title}:${i.count}:${i.on}`;
const list = () =>
  createElement(CachedList<Item>, { as: "ul", className: "grid", component: Card, items, itemKey: (i: Item) => i.id, cacheKey });
const page = (children: ReactNode) => createElement("main", null, createElement(Optional.Provider, { value: "x" }, children));

describe("server render cache (static markup)", () => {
  it("writes the same markup as a plain render, so hydration matches", () => {
    const plain = renderToString(page(list()));
    const cached = renderToString(createElement(StaticMarkupProvider, { value: createHtmlCache(renderToString) }, page(list())));
    expect(cached).toBe(plain);
    expect(plain).toContain("Pirate &amp; &lt;Frequency&gt;");
  });

  it("renders each distinct (component, key) once and reuses it", () => {
    const render = vi.fn(renderToString);
    const cache = createHtmlCache(render);
    const at = (item: Item) => cache(Card as never, cacheKey(item), item);
    const first = at(items[0]);
    expect(at({ ...items[0] })).toBe(first);
    expect(render).toHaveBeenCalledTimes(1);
    expect(at({ ...items[0], on: false })).not.toBe(first);
    expect(render).toHaveBeenCalledTimes(2);
  });

  it("stays bounded: a component's entries are dropped past the limit", () => {
    const render = vi.fn(renderToString);
    const cache = createHtmlCache(render, 2);
    const at = (item: Item) => cache(Card as never, cacheKey(item), item);
    at(items[0]);
    at(items[1]);
    at(items[2]); // clears, then stores this one
    at(items[2]);
    at(items[0]);
    expect(render).toHaveBeenCalledTimes(4);
  });
});
