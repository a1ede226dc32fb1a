import { createContext, createElement, useContext, type ComponentType, type HTMLAttributes } from "react";

/**
 * Server-side render cache for the parts of a page that many shoppers see alike: the
 * 30 song cards, the cover designs, the deck rows, order cards. The server renders
 * each distinct variant (component and cache key) to HTML once and then writes it as one string, instead of
 * walking ~20 elements per card on every request (a profile of GET / showed React's
 * per-element work as the largest cost). The browser renders the same components as
 * usual, so hydration meets the same DOM and attaches the handlers.
 *
 * The rules that make this safe: a cached component's output depends on its props
 * alone, and `cacheKey` names every prop value that changes it (a cheap string: a
 * profile showed JSON keys costing more than the rendering they saved). It may read
 * context only where a missing provider renders the same markup (the server render of
 * a card is identical with or without its providers). A key that misses a prop would
 * send markup the browser does not render: the end-to-end tests fail on any hydration
 * error, so such a mistake cannot pass unnoticed.
 */
export type RenderToHtml = (component: ComponentType<never>, key: string, props: object) => string;

const StaticMarkupContext = createContext<RenderToHtml | null>(null);
/** Given only by the server entry (app/entry.server.tsx). */
export const StaticMarkupProvider = StaticMarkupContext.Provider;

type ListProps<P extends object> = {
  as: "ul" | "ol";
  component: ComponentType<P>;
  items: P[];
  /** The React key of an item. */
  itemKey: (item: P) => string;
  /** Distinct for every distinct markup of an item: all the props that matter. */
  cacheKey: (item: P) => string;
} & Omit<HTMLAttributes<HTMLElement>, "children" | "dangerouslySetInnerHTML">;

/** A list whose items render through the server's cache (see above). */
export function CachedList<P extends object>({ as, component, items, itemKey, cacheKey, ...attrs }: ListProps<P>) {
  const renderToHtml = useContext(StaticMarkupContext);
  if (renderToHtml) {
    let html = "";
    for (const props of items) html += renderToHtml(component as ComponentType<never>, cacheKey(props), props);
    return createElement(as, {
      ...attrs,
      dangerouslySetInnerHTML: { __html: html },
    });
  }
  return createElement(
    as,
    attrs,
    items.map((props) => createElement(component, { key: itemKey(props), ...props })),
  );
}

/**
 * The cache behind StaticMarkupProvider: one map per component, by cache key.
 * Bounded: a component's map is cleared when it passes `limit` entries (the catalogue
 * has a few hundred variants at most; the bound guards against keys without end).
 */
export function createHtmlCache(render: (element: React.ReactElement) => string, limit = 5_000): RenderToHtml {
  const maps = new Map<ComponentType<never>, Map<string, string>>();
  return (component, key, props) => {
    let map = maps.get(component);
    if (!map) maps.set(component, (map = new Map()));
    let html = map.get(key);
    if (html === undefined) {
      html = render(createElement(component, props as never));
      if (map.size >= limit) map.clear();
      map.set(key, html);
    }
    return html;
  };
}
