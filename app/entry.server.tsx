import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { createHtmlCache, StaticMarkupProvider } from "./components/static-markup";
import { getConfig } from "./server/config.server";
import { limitPost } from "./server/rate-limit.server";

export const streamTimeout = 5_000;

/** Markup of song cards, designs and deck rows, rendered once per variant (static-markup.tsx). */
const htmlCache = createHtmlCache(renderToString);

/**
 * Renders the whole document, then answers with it in one piece. No route defers
 * data, so streaming the shell first would gain nothing: waiting for all of it keeps
 * React Router's data inline (no fallback-and-patch scripts), lets compression work on
 * the whole page, and skips the stream plumbing that a profile showed on every request.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext?.nonce ?? "";
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
          if (shellRendered) console.error(error);
        },
      },
    );
    const timer = setTimeout(abort, streamTimeout + 1000);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error("[server]", error instanceof Error ? error.stack : error);
}

/** Opens the database (lock file, migrations) before the server listens. */
export { boot } from "./server/runtime.server";

/** The HTTP settings of the parsed configuration, for server/start.js. */
export function serverSettings() {
  const c = getConfig();
  return {
    port: c.PORT,
    host: c.HOST,
    bodyLimit: c.BODY_LIMIT_BYTES,
    trustProxy: c.TRUST_PROXY,
    siteUrl: c.SITE_URL,
    // The global POST limit (shared through PostgreSQL when that is the backend).
    limitPost,
  };
}

declare module "react-router" {
  interface AppLoadContext {
    nonce: string;
  }
}
