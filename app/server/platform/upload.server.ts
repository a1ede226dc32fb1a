// A file posted by a plain HTML form (multipart/form-data), read as a stream by busboy: never
// buffered whole; the route hands the stream on and decides when to stop reading.
import { Readable } from "node:stream";
import busboy from "busboy";

export const isMultipart = (request: Request) => /^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "");

export type UploadedFile = {
  fileName: string;
  body: Readable;
  /** Reads what is left of the request and drops it, so an early answer (413, 415) reaches the browser. */
  discard(): void;
};

/** The first file of the form (fields before it are ignored); null when the form carries none. */
export function readUploadedFile(request: Request, field: string): Promise<UploadedFile | null> {
  return new Promise((resolve, reject) => {
    if (!request.body) return resolve(null);
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: Object.fromEntries(request.headers), limits: { files: 1, fields: 10, fieldSize: 1024 } });
    } catch (error) {
      return reject(error);
    }
    let found = false;
    const raw = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
    const discard = () => {
      raw.unpipe(parser);
      raw.resume();
    };
    parser.on("file", (name, stream, info) => {
      if (found || name !== field || !info.filename) {
        stream.resume();
        return;
      }
      found = true;
      resolve({ fileName: info.filename, body: stream, discard });
    });
    parser.on("close", () => {
      if (!found) resolve(null);
    });
    parser.on("error", (error) => (found ? undefined : reject(error)));
    raw.pipe(parser);
  });
}
