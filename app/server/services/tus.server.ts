// The drop's resumable upload (with JavaScript): the tus protocol (@tus/server) at
// /mixer/uploads, for mixers only. An upload in progress is staged by the tus store (DATA_DIR/tus on
// this process's disk; docs/decisions/015-tus-and-the-storage-port.md says why not in the bucket);
// when its last byte arrives, the staged file goes through the same path as the plain form
// (receiveTape: the content check, the store, the tape row), and is deleted whatever the verdict.
// A resource route answers it (app/routes/mixer/uploads.ts: the session and the mixer as on every
// page, then @tus/server's handleWeb with the framework's own Request); server/app.ts keeps its
// method, Host, Origin and rate checks, and the body's deadline (server/bodies.ts).
// The staged file goes once the tape is checked (after the answer to a creation that carried the whole
// file, which tus reads it once more for); an upload whose creating request never got its answer goes
// too (its client cannot know where it is).
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { ERRORS, EVENTS, Server, type DataStore, type Upload } from "@tus/server";
import type { Logger } from "pino";
import type { RouterContextProvider } from "react-router";
import { DROP_COPY } from "~/domain/copy-orders";
import { isOrderCode } from "~/domain/order-code";
import type { BackendRequest, User } from "../backend/port.server";
import { requestContext, userContext } from "../context.server";
import type { Config } from "../platform/config.server";
import { reason } from "../platform/log.server";
import { rootOf, type TusUploads } from "../root.server";
import { dropLimitBytes } from "../storage/index.server";
import { PARTIAL_UPLOAD_TTL_MS } from "../storage/port.server";
import { mixerOrder } from "./conversation.server";
import { receiveTape, tapeRefusal, type TapeParts } from "./drop.server";
import { requireMixer } from "./mixer.server";

/** Where tus-js-client creates uploads; an upload's own URL is this path and its id. */
export const TUS_PATH = "/mixer/uploads";
/** The methods of the tus protocol (GET is not one: a staged upload is never read back). */
export const TUS_METHODS: ReadonlySet<string> = new Set(["POST", "HEAD", "PATCH", "DELETE", "OPTIONS"]);

/** A tus refusal: @tus/server answers a thrown { status_code, body } with that status and text. */
type TusRefusal = { status_code: number; body: string };
const refusal = (status_code: number, body: string): TusRefusal => ({ status_code, body });

/** One tus request: who sent it, the upload it created, and the one a creation finished (its staged file goes after the answer). */
type Exchange = { user: User; api: BackendRequest; created?: string; finished?: string };

/** The tus answer to a request of the uploads route: a signed-out sender is told to sign in as the mixer; anyone else but the mixer, 404. */
export async function answerTus(request: Request, context: Readonly<RouterContextProvider>): Promise<Response> {
  if (!context.get(userContext))
    return new Response(DROP_COPY.uploadsForMixers, {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  const sender = requireMixer(context);
  const info = context.get(requestContext);
  info.allowUploadBody?.();
  return rootOf(context).tus.answer(request, sender, info.afterResponse ?? ((task) => void setImmediate(task)));
}

/** The staging store: tus's own files on this process's disk (its data file named by the upload's id), expiring a day after they were created. */
function stagingStore(dir: string): DataStore {
  return new FileStore({ directory: dir, expirationPeriodInMilliseconds: PARTIAL_UPLOAD_TTL_MS });
}

/** The process's one tus server (the composition root builds it: the staged uploads' locks are in its memory). */
export function createTusUploads(config: Config, log: Logger, tapes: TapeParts): TusUploads {
  const stagingDir = path.join(path.resolve(config.DATA_DIR), "tus");
  const datastore = stagingStore(stagingDir);
  const limit = dropLimitBytes(config);
  /** Keyed by the route's Request, which @tus/server's handleWeb hands to its hooks and events as it is. */
  const exchanges = new WeakMap<Request, Exchange>();
  const exchangeOf = (req: Request): Exchange => {
    const exchange = exchanges.get(req);
    if (!exchange) throw refusal(403, DROP_COPY.uploadsForMixers);
    return exchange;
  };
  const removeStaged = (id: string) =>
    datastore.remove(id).catch((error) => log.warn({ id, err: reason(error) }, "tus: staged upload not removed"));

  const server = new Server({
    path: TUS_PATH,
    datastore,
    // Bytes past DROP_MAX_MB are never accepted: a larger Upload-Length is refused at creation (413).
    maxSize: limit,
    // The Location names no host: the Host header is the browser's word.
    relativeLocation: true,
    respectForwardedHeaders: false,
    // Same origin only: no Access-Control-Allow-Origin for anyone (server/app.ts refuses cross-site requests).
    allowedOrigins: () => false,
    // The order and the file's name come from the mixer's browser; the owner is this session's user.
    async onUploadCreate(req, upload) {
      const { user, api } = exchangeOf(req);
      const code = upload.metadata?.code;
      const filename = upload.metadata?.filename ?? "tape";
      if (!isOrderCode(code)) throw refusal(400, DROP_COPY.noOrder);
      if (upload.sizeIsDeferred) throw refusal(411, DROP_COPY.lengthRequired);
      const order = await mixerOrder(api, code);
      if (!order) throw refusal(404, DROP_COPY.noOrder);
      const refused = tapeRefusal(order);
      if (refused) throw refusal(refused.status, refused.message);
      return { metadata: { code, filename, owner: user.id } };
    },
    // An upload is resumed, read or cancelled only by the mixer who started it.
    async onIncomingRequest(req, id) {
      const { user } = exchangeOf(req);
      if (req.method === "POST") return;
      const upload = await datastore.getUpload(id);
      if (upload.metadata?.owner !== user.id) throw ERRORS.FILE_NOT_FOUND;
      // Whole and being checked (onUploadFinish runs after the lock is released): "locked, ask again"
      // (tus-js-client retries a 423), never "complete", which it would take for success.
      if (req.method !== "DELETE" && upload.size !== undefined && upload.offset === upload.size)
        throw refusal(423, DROP_COPY.finishing);
    },
    // The last byte is in: the same path as the plain form, then the staged file goes (after the answer
    // to a creation, which tus reads it once more for: answer).
    async onUploadFinish(req, upload) {
      const exchange = exchangeOf(req);
      const creation = req.method === "POST";
      if (creation) exchange.finished = upload.id;
      const outcome = await finish(exchange.api, upload).finally(() => creation || removeStaged(upload.id));
      if (!outcome.ok) throw refusal(outcome.status, outcome.message);
      // tus's own answer is 204 (201 with its Location to a creation that carried the whole file); a
      // body is allowed by its clients, and tus-js-client hands it to onSuccess.
      return {
        status_code: creation ? 201 : 200,
        body: outcome.message,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      };
    },
    onResponseError(req, error) {
      // A creation declaring more than DROP_MAX_MB; a PATCH can only pass its upload's own length.
      if ("status_code" in error && error.status_code === ERRORS.ERR_MAX_SIZE_EXCEEDED.status_code)
        return refusal(413, req.method === "PATCH" ? DROP_COPY.beyondLength : DROP_COPY.tooLarge(limit));
      if (!("status_code" in error)) log.error({ err: reason(error) }, "tus: request failed");
      return undefined;
    },
  });

  async function finish(api: BackendRequest, upload: Upload) {
    const code = upload.metadata?.code ?? "";
    // The staged file itself: checked where it lies, then taken by the store (the disk store links it: no copy).
    return receiveTape(tapes, api, code, {
      file: path.join(stagingDir, upload.id),
      fileName: upload.metadata?.filename ?? "tape",
      size: upload.size ?? 0,
    });
  }

  server.on(EVENTS.POST_CREATE, (req: Request, upload: Upload) => {
    const exchange = exchanges.get(req);
    if (exchange) exchange.created = upload.id;
  });

  return {
    async answer(request, sender, afterResponse) {
      const exchange: Exchange = { ...sender };
      exchanges.set(request, exchange);
      const response = await server.handleWeb(request);
      const { created, finished } = exchange;
      if (created || finished)
        afterResponse(() => {
          if (finished) void removeStaged(finished);
          // Created, but no answer named it to its client (refused, or the client went away first): nobody can resume it.
          if (created && created !== finished && (response.status !== 201 || request.signal.aborted)) void removeStaged(created);
        });
      return response;
    },
    // Abandoned a day after it was created (tus's expiration): the tape chores' hourly sweep removes it.
    sweep: () => server.cleanUpExpiredUploads(),
  };
}
