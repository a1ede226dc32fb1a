// An error in the console or on My Mixtapes renders inside the page (the root's chrome stays):
// each route exports its own boundary, rendered by React Router's own server handler.
// The boundary answers by status (GeneralErrorBoundary's statusHandlers, as Epic Stack's), and
// /auth shows the specification's own words for an unexpected state.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, data, Outlet, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { COPY } from "~/domain/copy";
import { AUTH_COPY } from "~/domain/copy-auth";
import * as auth from "~/routes/auth";
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

const withoutScripts = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, "");

describe("status handlers", () => {
  const page = myMixtapes;
  it.each([
    [404, data({ message: "Not found" }, { status: 404 }), [COPY.errors.notFound, "That frequency is dead air."]],
    [403, data(null, { status: 403 }), [COPY.errors.notYours]],
    [403, data({ message: "Cross-site requests are not allowed." }, { status: 403 }), ["Cross-site requests are not allowed."]],
    [409, data(null, { status: 409 }), ["This order was already updated."]],
    [409, data({ message: "The conversation is closed." }, { status: 409 }), ["The conversation is closed."]],
    [503, data({ message: "down" }, { status: 503 }), [COPY.errors.unavailable]],
    [400, data(null, { status: 400 }), [COPY.errors.badRequest]],
    [500, data({ message: "secret detail" }, { status: 500 }), [COPY.errors.unexpected]],
  ] as const)("%i shows its words, with the heading the e2e specs read and the link home", async (_status, thrown, words) => {
    const html = await render("/my-mixtapes", page, thrown);
    const heading = /data-testid="error-heading"[^>]*>([^<]*)</.exec(html)?.[1];
    expect(heading).toBe(words[0].replace(/'/g, "&#x27;"));
    for (const word of words) expect(html).toContain(word.replace(/'/g, "&#x27;"));
    expect(html).toContain('href="/"');
    // (The hydration data is the router's own; the production server sanitizes it.)
    expect(withoutScripts(html)).not.toContain("secret detail");
  });

  it("a route's own handlers win over the app's; the others stay", async () => {
    const custom = {
      default: page.default,
      ErrorBoundary: () =>
        createElement(GeneralErrorBoundary, {
          statusHandlers: { 409: () => createElement("p", null, "the route's own 409") },
          defaultStatusHandler: ({ error }) => createElement("p", null, `the route's default ${error.status}`),
          unexpectedErrorHandler: () => createElement("p", null, "the route's unexpected"),
        }),
    };
    expect(await render("/my-mixtapes", custom, data(null, { status: 409 }))).toContain("the route&#x27;s own 409");
    expect(await render("/my-mixtapes", custom, data(null, { status: 404 }))).toContain(COPY.errors.notFound);
    expect(await render("/my-mixtapes", custom, data(null, { status: 418 }))).toContain("the route&#x27;s default 418");
    expect(await render("/my-mixtapes", custom, new Error("x"))).toContain("the route&#x27;s unexpected");
  });
});

describe("/auth's boundary", () => {
  it("shows the specification's words for an unexpected state, inside the chrome", async () => {
    const html = await render("/auth", auth, new Error("boom"));
    expect(html).toContain('data-testid="chrome"');
    expect(/data-testid="error-heading"[^>]*>([^<]*)</.exec(html)?.[1]).toBe(AUTH_COPY.unexpected);
    expect(html).not.toContain(COPY.errors.unexpected);
    expect(withoutScripts(html)).not.toContain("boom");
  });

  it("answers a status as every page does", async () => {
    const html = await render("/auth", auth, data({ message: "Bad request." }, { status: 400 }));
    expect(html).toContain("Bad request.");
    expect(html).not.toContain(AUTH_COPY.unexpected);
  });
});
