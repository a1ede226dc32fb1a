// How long a request may take to send its body, and what happens to a body nobody reads
// (docs/decisions/020-request-bodies.md).
// - Headers: Node's headersTimeout (30 s, server/main.ts).
// - Bodies: 30 s from the request's arrival, on every route; Node's requestTimeout is server-wide, so
//   the deadline is a timer per request here. An upload route lengthens it to the upload's time
//   (uploadBodyTimeoutMs) once it knows the sender may upload: the tape's plain form, tus and the
//   catalogue's multipart forms, through RequestInfo.allowUploadBody. A body still arriving at its
//   deadline is answered 408.
// - An answer sent before its request's body arrived whole (a refusal, a redirect to sign in, that
//   408) ends the connection after it: the rest is never drained (Node would read a 300 MB upload to
//   its end to keep the connection). The server half-closes first and reads what still comes for
//   LINGER_MS, so the client reads the answer before the connection is gone (nginx's lingering close).
import type { NextFunction, Request, Response } from "express";

export const HEADERS_TIMEOUT_MS = 30_000;
export const BODY_TIMEOUT_MS = 30_000;
/** How long a connection closed after an early answer still takes the client's bytes (and drops them). */
export const LINGER_MS = 2_000;

type Options = {
  /** The upload routes' deadline, from when the sender is known to be allowed. */
  uploadMs: number;
  /** Answers a body that missed its deadline. */
  timedOut(req: Request, res: Response): void;
};

/** The body deadline of every request, and the close after an early answer. */
export function requestBodies({ uploadMs, timedOut }: Options) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.once("finish", () => {
      if (!req.complete) closeAfterAnswer(req);
    });
    if (req.complete) return next(); // no body, or all of it here already
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (req.complete || res.writableEnded) return;
        req.log.warn({ ms }, "request body too slow");
        if (!res.headersSent) timedOut(req, res);
        else req.socket.destroy(); // an answer already under way: nothing to tell the client
      }, ms);
    };
    const done = () => clearTimeout(timer);
    req.once("end", done);
    res.once("close", done);
    res.locals.allowUploadBody = () => arm(uploadMs);
    arm(BODY_TIMEOUT_MS);
    next();
  };
}

/** The upload's long body deadline for this request (RequestInfo.allowUploadBody: an upload route that knows its sender may upload). */
export const allowUploadBody = (res: Response) => (res.locals.allowUploadBody as (() => void) | undefined)?.();

/** Half-closes after the answer, drops what the client still sends, and closes after LINGER_MS (or when the client does). */
function closeAfterAnswer(req: Request) {
  const socket = req.socket;
  if (socket.destroyed) return;
  req.resume(); // read and dropped (Node does the same when nobody reads a body)
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once("close", () => clearTimeout(timer));
}
