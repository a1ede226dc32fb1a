// A plain HTML form with its fields and files (multipart/form-data), read as a stream by busboy: each
// file goes to its handler as it arrives (never buffered here), in the form's order; fields are
// collected. The catalogue's forms without JavaScript (upload.server.ts reads the tape's one file).
import { Readable } from "node:stream";
import busboy from "busboy";

/** A file's handler reads the stream to its end (or destroys it) and answers what became of it. */
export type FileHandler<T> = (file: { body: Readable; fileName: string }) => Promise<T>;

export type MultipartForm<T> = {
  fields: Map<string, string>;
  /** Per file field, the handler's answer; absent when no file was chosen. */
  files: Map<string, T>;
};

/** A form's own refusal (malformed body, too many parts): the route answers 400. */
export class MalformedFormError extends Error {
  constructor(options?: { cause?: unknown }) {
    super("malformed multipart form", options);
    this.name = "MalformedFormError";
  }
}

export async function readMultipartForm<T>(
  request: Request,
  handlers: Record<string, FileHandler<T>>,
  limits: { fields?: number; fieldSize?: number } = {},
): Promise<MultipartForm<T>> {
  if (!request.body) throw new MalformedFormError();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: Object.fromEntries(request.headers),
      limits: { files: Object.keys(handlers).length, fields: limits.fields ?? 20, fieldSize: limits.fieldSize ?? 4096 },
    });
  } catch (cause) {
    throw new MalformedFormError({ cause });
  }
  const fields = new Map<string, string>();
  const files = new Map<string, T>();
  const work: Promise<void>[] = [];
  const raw = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  let finish: () => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  /** A handler stopped reading its file (refused, too large): the rest of the form is read and dropped. */
  const stop = () => {
    raw.unpipe(parser);
    raw.resume();
    finish();
  };
  parser.on("field", (name, value) => {
    if (!fields.has(name)) fields.set(name, value);
  });
  parser.on("file", (name, stream, info) => {
    const handle = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
    // No file chosen (an empty part), a field not asked for, or the same field twice: read and dropped.
    if (!handle || !info.filename || files.has(name)) return void stream.resume();
    const handled = handle({ body: stream, fileName: info.filename }).then(
      (answer) => {
        files.set(name, answer);
        if (!stream.readableEnded) stop();
      },
      (error: unknown) => {
        stop();
        throw error;
      },
    );
    work.push(handled);
    handled.catch(() => {}); // settled below
  });
  parser.on("close", () => finish());
  parser.on("error", (cause) => fail(new MalformedFormError({ cause })));
  raw.on("error", (cause) => fail(new MalformedFormError({ cause })));
  raw.pipe(parser);
  const parsed = await done.then(
    () => null,
    (error: unknown) => ({ error }),
  );
  // Every handler settles before the answer (a refused file keeps nothing: its handler saw to it).
  const settled = await Promise.allSettled(work);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  if (parsed) throw parsed.error;
  return { fields, files };
}
