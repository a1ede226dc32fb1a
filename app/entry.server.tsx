import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { getConfig } from "./server/config.server";
import { limitPost } from "./server/rate-limit.server";

export const streamTimeout = 5_000;

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
    const userAgent = request.headers.get("user-agent");
    // Wait for all content for bots and for SPA-mode style renders; stream for people.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
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
