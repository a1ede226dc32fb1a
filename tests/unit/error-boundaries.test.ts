// An error in the console or on My Mixtapes renders inside the page (the root's chrome stays):
// each route exports its own boundary, rendered by React Router's own server handler.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, data, Outlet, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import * as myMixtapes from "~/routes/my-mixtapes";
import * as mixer from "~/routes/mixer/route";
import * as shopperOrder from "~/routes/my-mixtapes.order";
import * as mixerOrder from "~/routes/mixer/order";
import * as insights from "~/routes/mixer/insights";

const Chrome = () =>
  createElement("div", { "data-testid": "chrome" }, createElement("header", null, "Shop"), createElement(Outlet));

async function render(path: string, page: { default: unknown; ErrorBoundary?: unknown }, thrown: unknown) {
  const routes = [
    {
      id: "root",
      path: "/",
      Component: Chrome,
      ErrorBoundary: () => createElement("p", null, "root boundary: the whole document"),
      children: [
        {
          id: "page",
          path: path.slice(1),
          loader: () => {
            throw thrown;
          },
          Component: page.default as () => null,
          ErrorBoundary: page.ErrorBoundary as () => null,
        },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error("unexpected redirect");
  return renderToString(
    createElement(StaticRouterProvider, { router: createStaticRouter(handler.dataRoutes, context), context }),
  );
}

describe("route error boundaries", () => {
  for (const [path, page] of [
    ["/my-mixtapes", myMixtapes],
    ["/mixer", mixer],
    ["/my-mixtapes/AB12CD34", shopperOrder],
    ["/mixer/orders/AB12CD34", mixerOrder],
    ["/mixer/insights", insights],
  ] as const) {
    it(`${path}: a thrown error shows inside the page chrome`, async () => {
      const html = await render(path, page, new Error("boom"));
      expect(html).toContain('data-testid="chrome"');
      expect(html).toContain("Unexpected Application Error!");
      expect(html).not.toContain("root boundary");
    });
    it(`${path}: a 4xx with a message shows the message inside the chrome`, async () => {
      const html = await render(path, page, data({ message: "Bad request." }, { status: 400 }));
      expect(html).toContain('data-testid="chrome"');
      expect(html).toContain("Bad request.");
    });
  }
});
