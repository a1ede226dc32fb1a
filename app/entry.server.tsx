import { Writable } from "node:stream";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { createHtmlCache, StaticMarkupProvider } from "./components/static-markup";
import { requestContext } from "./server/context.server";
import { getLog } from "./server/platform/log.server";

export const streamTimeout = 5_000;

/** Markup of song cards, designs and deck rows, rendered once per variant (static-markup.tsx). */
const htmlCache = createHtmlCache(renderToString);

/**
 * Renders the whole document, then answers with it in one piece: no route defers data,
 * so streaming would gain nothing, and the page is compressed whole (docs/performance.md).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(requestContext).nonce;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timer);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StaticMarkupProvider value={htmlCache}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </StaticMarkupProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reach handleError through onShellError.
          if (shellRendered) getLog().error({ err: error instanceof Error ? error.stack : String(error) }, "render failed");
        },
      },
    );
    const timer = setTimeout(abort, streamTimeout + 1000);
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // A refusal (405, React Router's 400s) is the client's doing: the request line logs it.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  getLog().error(
    { err: error instanceof Error ? error.stack : String(error), path: new URL(request.url).pathname },
    "request failed",
  );
};
