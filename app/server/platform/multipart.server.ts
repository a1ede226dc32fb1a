// A plain HTML form with its fields and files (multipart/form-data), read as a stream by busboy: each
// file goes to its handler as it arrives (never buffered here), in the form's order; fields are
// collected. The catalogue's forms (upload.server.ts reads the tape's one file). A body that fails
// (cut off, or a form busboy cannot read) fails the file being read, then the form, with a BodyError,
// never the process: undoing what the handlers did before is the caller's.
import { Readable } from "node:stream";
import busboy from "busboy";
import { BodyError } from "./upload.server";

/** A file's handler reads the stream to its end (or destroys it) and answers what became of it. */
export type FileHandler<T> = (file: { body: Readable; fileName: string }) => Promise<T>;

export type MultipartForm<T> = {
  fields: Map<string, string>;
  /** Per file field, the handler's answer; absent when no file was chosen. */
  files: Map<string, T>;
};

/** The form, once every handler settled; a BodyError when the body failed (each handler settled first). */
export async function readMultipartForm<T>(
  request: Request,
  handlers: Record<string, FileHandler<T>>,
  limits: { fields?: number; fieldSize?: number } = {},
): Promise<MultipartForm<T>> {
  if (!request.body) throw new BodyError("malformed", { cause: "no body" });
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: Object.fromEntries(request.headers),
      limits: { files: Object.keys(handlers).length, fields: limits.fields ?? 20, fieldSize: limits.fieldSize ?? 4096 },
    });
  } catch (cause) {
    throw new BodyError("malformed", { cause }); // no boundary, or not a form at all
  }
  const fields = new Map<string, string>();
  const files = new Map<string, T>();
  const asked = new Set<string>();
  const work: Promise<void>[] = [];
  /** The files whose streams are still open: a body that fails fails them. */
  const open = new Set<Readable>();
  const raw = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  let failure: BodyError | null = null;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  /** Reading stops; what is left is never drained: the answer closes the connection (server/bodies.ts). */
  const stop = () => {
    raw.unpipe(parser);
    raw.pause();
    finish();
  };
  const fail = (error: BodyError) => {
    failure ??= error;
    for (const stream of open) stream.destroy(failure);
    stop();
  };
  parser.on("field", (name, value) => {
    if (!fields.has(name)) fields.set(name, value);
  });
  parser.on("file", (name, stream, info) => {
    const handle = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
    // No file chosen (an empty part), a field not asked for, the same field twice, or a form already failed: dropped.
    if (failure || !handle || !info.filename || asked.has(name)) return void stream.resume();
    asked.add(name);
    open.add(stream);
    stream.once("close", () => open.delete(stream));
    const handled = handle({ body: stream, fileName: info.filename }).then(
      (answer) => {
        files.set(name, answer);
        // A handler that answered before its file ended refused it: the rest of the form is not read.
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
  // Busboy goes on after a malformed part header: the form has failed all the same.
  parser.on("error", (cause) => fail(new BodyError("malformed", { cause })));
  // The client went away mid-way.
  raw.on("error", (cause) => fail(new BodyError("cut-off", { cause })));
  raw.pipe(parser);
  await done;
  // Every handler settles before the answer (a file that failed or was refused keeps nothing: its handler saw to it).
  const settled = await Promise.allSettled(work);
  if (failure) throw failure;
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  return { fields, files };
}
