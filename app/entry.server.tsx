import { PassThrough } from "node:stream";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { requestContext } from "./server/context.server";
import { getConfig } from "./server/platform/config.server";
import { getLog } from "./server/platform/log.server";

export const streamTimeout = 5_000;

// React Router's own template (no route defers data, so the shell is the whole page), with the CSP nonce.
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD")
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  const nonce = loadContext.get(requestContext).nonce;
  const buffered = getConfig().BUFFER_HTML;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const respond = (body: BodyInit) => {
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        // The whole page, compressed once (docs/decisions/006-whole-page-render.md); BUFFER_HTML=0 streams as the template does.
        onShellReady() {
          shellRendered = true;
          if (buffered) return;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timer);
              callback();
            },
          });
          pipe(body);
          respond(createReadableStreamFromReadable(body));
        },
        onAllReady() {
          if (!buffered) return;
          const body = new PassThrough();
          const chunks: Buffer[] = [];
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.on("end", () => {
            clearTimeout(timer);
            respond(Buffer.concat(chunks));
          });
          pipe(body);
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
