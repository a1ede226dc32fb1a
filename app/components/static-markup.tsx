import { createContext, createElement, useContext, type ComponentType, type HTMLAttributes } from "react";

/**
 * Server-side render cache for list items many shoppers see alike (song cards, designs,
 * deck rows, order cards) and the static part of the console's cards: each variant is
 * rendered to HTML once; the browser renders the same components, so hydration attaches
 * as usual (docs/architecture.md).
 *
 * Safe only when a cached component's output depends on its props alone and `cacheKey`
 * names every prop that changes it. A missed prop shows as a hydration error, which
 * fails the end-to-end tests.
 */
export type RenderToHtml = (component: ComponentType<never>, key: string, props: object) => string;

const StaticMarkupContext = createContext<RenderToHtml | null>(null);
/** Given only by the server entry (app/entry.server.tsx). */
export const StaticMarkupProvider = StaticMarkupContext.Provider;

type Attrs = Omit<HTMLAttributes<HTMLElement>, "children" | "dangerouslySetInnerHTML">;

type ListProps<P extends object> = {
  as: "ul" | "ol";
  component: ComponentType<P>;
  items: P[];
  /** The React key of an item. */
  itemKey: (item: P) => string;
  /** Distinct for every distinct markup of an item: all the props that matter. */
  cacheKey: (item: P) => string;
} & Attrs;

/** A list whose items render through the server's cache (see above). */
export function CachedList<P extends object>({ as, component, items, itemKey, cacheKey, ...attrs }: ListProps<P>) {
  const renderToHtml = useContext(StaticMarkupContext);
  if (renderToHtml) {
    let html = "";
    for (const props of items) html += renderToHtml(component as ComponentType<never>, cacheKey(props), props);
    return createElement(as, { ...attrs, dangerouslySetInnerHTML: { __html: html } });
  }
  return createElement(
    as,
    attrs,
    items.map((props) => createElement(component, { key: itemKey(props), ...props })),
  );
}

type BlockProps<P extends object> = {
  as: "div";
  component: ComponentType<P>;
  props: P;
  /** Distinct for every distinct markup: all the props that matter. */
  cacheKey: string;
} & Attrs;

/** One element whose content renders through the server's cache: the static part of an interactive card. */
export function Cached<P extends object>({ as, component, props, cacheKey, ...attrs }: BlockProps<P>) {
  const renderToHtml = useContext(StaticMarkupContext);
  if (renderToHtml) {
    const html = renderToHtml(component as ComponentType<never>, cacheKey, props);
    return createElement(as, { ...attrs, dangerouslySetInnerHTML: { __html: html } });
  }
  return createElement(as, attrs, createElement(component, props));
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
