// A file posted by a plain HTML form (multipart/form-data), read as a stream by busboy: never
// buffered whole; the route hands the stream on and decides when to stop reading. A body that
// fails (the client went away, or the form cannot be read) fails the file's stream with a
// BodyError, never the process: every stream here has its error listener for its whole life.
import { finished } from "node:stream/promises";
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import busboy from "busboy";
import type { Config } from "./config.server";

export const isMultipart = (request: Request) => /^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "");

/** The upload routes' body timeout: the largest tape at 1 Mbit/s, at least 5 minutes (every other body gets 30 s: server/bodies.ts). */
export const uploadBodyTimeoutMs = (config: Pick<Config, "DROP_MAX_MB">) => Math.max(300_000, config.DROP_MAX_MB * 8_400);

/** The request's body failed: cut off (the client went away mid-way) or malformed (not a form busboy can read). */
export class BodyError extends Error {
  constructor(
    readonly kind: "cut-off" | "malformed",
    options: { cause: unknown },
  ) {
    super(`request body ${kind}: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
    this.name = "BodyError";
  }
}

/** The body's failure behind an error of the store (a store's client may wrap what its stream threw). */
export function bodyErrorIn(error: unknown): BodyError | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof BodyError) return e;
  return null;
}

export type UploadedFile = {
  fileName: string;
  /** The file's bytes; ends only once the form ended well, else fails with a BodyError. */
  body: Readable;
  /**
   * Stops reading the request (what is left of a refused upload is never drained): the answer goes out
   * at once, and the connection closes after it (server/bodies.ts).
   */
  stop(): void;
};

/** The first file of the form (fields before it are ignored); null when the form carries none; a BodyError when unreadable. */
export function readUploadedFile(request: Request, field: string): Promise<UploadedFile | null> {
  return new Promise((resolve, reject) => {
    if (!request.body) return resolve(null);
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: Object.fromEntries(request.headers), limits: { files: 1, fields: 10, fieldSize: 1024 } });
    } catch (cause) {
      return reject(new BodyError("malformed", { cause })); // no boundary, or not a form at all
    }
    const raw = Readable.fromWeb(request.body as ReadableStream);
    let failure: BodyError | null = null;
    const stop = () => {
      raw.unpipe(parser);
      raw.pause();
    };
    // The client went away: the form fails with it (and so the file's stream).
    raw.on("error", (cause) => {
      failure ??= new BodyError("cut-off", { cause });
      parser.destroy(failure);
    });
    // A form busboy cannot read: reading stops, the route answers 400.
    parser.on("error", (cause) => {
      failure ??= new BodyError("malformed", { cause });
      stop();
      if (!found) reject(failure);
    });
    // The whole form read well: the file's stream ends only then (a missing closing boundary fails it).
    const formRead = finished(parser);
    formRead.catch(() => {});
    let found = false;
    parser.on("file", (name, stream, info) => {
      if (found || name !== field || !info.filename) {
        stream.resume();
        return;
      }
      found = true;
      const relay = async function* () {
        try {
          for await (const chunk of stream) yield chunk as Buffer;
          await formRead;
        } catch (cause) {
          throw failure ?? new BodyError("malformed", { cause });
        }
      };
      resolve({ fileName: info.filename, body: Readable.from(relay(), { objectMode: false }), stop });
    });
    parser.on("close", () => {
      if (!found) resolve(null);
    });
    raw.pipe(parser);
  });
}
