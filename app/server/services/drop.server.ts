// The drop: the mixer's upload becomes the order's tape (its content checked while it streams to
// the store), and the tape reaches only its shopper and the mixers.
import crypto from "node:crypto";
import type { Readable } from "node:stream";
import { DROP_COPY } from "~/domain/copy-orders";
import type { Order } from "~/domain/orders";
import { isOrderCode } from "~/domain/order-code";
import { formatDuration, formatSize, keyExtension, mixerTape, tapeFileName, tapeUpload } from "~/domain/tape";
import type { Backend, BackendRequest } from "../backend/port.server";
import type { Config } from "../platform/config.server";
import { getLog, reason } from "../platform/log.server";
import { bodyErrorIn, type BodyError } from "../platform/upload.server";
import { checkAudio, checkAudioFile, NotAudioError, TooLargeError, type AudioFacts } from "../storage/audio.server";
import { serveObject } from "../storage/download.server";
import type { Root } from "../root.server";
import { dropLimitBytes } from "../storage/index.server";
import type { Storage, StoredObject } from "../storage/port.server";

/** Where a tape goes: the process's store, and its backend (the deletions' queue, as its owner). */
export type TapeParts = Pick<Root, "storage" | "backend">;

export type UploadRefusal = { ok: false; status: number; message: string };
export type UploadOutcome = { ok: true; message: string } | UploadRefusal;

/** Whether the order takes a tape now, asked before any byte is read (saveTape asks again, in its transaction). */
export function tapeRefusal(order: Order): UploadRefusal | null {
  if (tapeUpload(order, order.tape && mixerTape(order.tape)) !== "closed") return null;
  return { ok: false, status: 409, message: order.status === "cancelled" ? DROP_COPY.cancelledOrder : DROP_COPY.closed };
}

/** The name the mixer's file had, as the console shows it (no path, no control characters). */
const cleanName = (name: string) =>
  name
    .split(/[\\/]/)
    .pop()!
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .trim()
    .slice(0, 255) || "tape";

/** Deleted now if the store answers, else queued for the worker: a refused or replaced file never stays. */
async function discard({ storage, backend }: TapeParts, key: string) {
  try {
    await storage.delete(key);
  } catch (error) {
    getLog().warn({ key, err: reason(error) }, "tape file not deleted yet: queued");
    await backend.tapes?.queueDeletion(key).catch(() => {});
    void backend.queued.tapeFiles.wake();
  }
}

/** A body that failed: cut off (the client is gone; the answer is for the log) or unreadable. */
export const bodyRefusal = (error: BodyError): UploadRefusal => ({
  ok: false,
  status: 400,
  message: error.kind === "cut-off" ? DROP_COPY.cutOff : DROP_COPY.unreadable,
});

/** A tape as it arrives (the plain form's file, streamed), or whole on this process's disk (a staged tus upload). */
export type TapeUpload =
  { body: Readable; fileName: string; size?: number; stop?: () => void } | { file: string; fileName: string; size: number };

type Stored = [StoredObject, AudioFacts];

/** Checked while it streams to the store (the store's put ends only once the check has passed). */
async function storeStream(
  storage: Storage,
  upload: { body: Readable; size?: number },
  limit: number,
  keyFor: (ext: string) => string,
): Promise<Stored> {
  const checked = checkAudio(upload.body, { maxBytes: limit });
  const type = await checked.type;
  return Promise.all([storage.put(keyFor(type.ext), checked.body, { size: upload.size }), checked.facts]);
}

/** Checked where it lies, then handed to the store whole: the disk store links it in, the others read it once more. */
async function storeFile(
  storage: Storage,
  upload: { file: string; size: number },
  limit: number,
  keyFor: (ext: string) => string,
): Promise<Stored> {
  const facts = await checkAudioFile(upload.file, { maxBytes: limit });
  return [await storage.putFile(keyFor(facts.ext), upload.file, { size: upload.size }), facts];
}

/**
 * A tape from the mixer: checked by its content (never its name) while it streams to the store,
 * at most DROP_MAX_MB; a refused or oversized upload keeps nothing, and the shopper sees a new
 * tape only once it is whole and saved.
 */
export async function receiveTape(
  parts: TapeParts,
  api: BackendRequest,
  code: string,
  upload: TapeUpload,
): Promise<UploadOutcome> {
  const { storage } = parts;
  const limit = dropLimitBytes();
  if (upload.size !== undefined && upload.size > limit) {
    if ("stop" in upload) upload.stop?.();
    return { ok: false, status: 413, message: DROP_COPY.tooLarge(limit) };
  }
  // The key, once the check has named the type: a refusal after it discards what was stored there.
  let chosen: string | null = null;
  const keyFor = (ext: string) => (chosen = `${code}/${crypto.randomUUID()}.${ext}`);
  try {
    const [stored, facts] =
      "file" in upload ? await storeFile(storage, upload, limit, keyFor) : await storeStream(storage, upload, limit, keyFor);
    const key = stored.key;
    const [length, size] = [formatDuration(facts.durationSeconds), formatSize(stored.size)];
    const { outcome, replacedKey, error } = await api.saveTape(code, {
      key,
      fileName: cleanName(upload.fileName),
      contentType: facts.mime,
      size: stored.size,
      durationSeconds: Math.round(facts.durationSeconds * 1000) / 1000,
      notice: DROP_COPY.newVersionNotice(length, size),
    });
    if (outcome === "saved" || outcome === "replaced" || outcome === "new_version") {
      if (replacedKey) await discard(parts, replacedKey);
      return {
        ok: true,
        message: outcome === "new_version" ? DROP_COPY.newVersionUploaded(length, size) : DROP_COPY.uploaded(length, size),
      };
    }
    if (error) getLog().error({ code: error.code, err: error.message }, "tape: save failed");
    await discard(parts, key);
    if (outcome === "closed") return { ok: false, status: 409, message: DROP_COPY.closed };
    return { ok: false, status: outcome === "no_order" ? 404 : 400, message: DROP_COPY.notSaved };
  } catch (error) {
    if ("stop" in upload) upload.stop?.(); // what is left of the upload is not read: the answer closes the connection
    if (chosen) await discard(parts, chosen);
    const failed = bodyErrorIn(error);
    if (failed) {
      getLog().info({ code, why: failed.message }, "tape: upload body failed");
      return bodyRefusal(failed);
    }
    if (error instanceof NotAudioError) return { ok: false, status: 415, message: error.message };
    if (error instanceof TooLargeError) return { ok: false, status: 413, message: DROP_COPY.tooLarge(limit) };
    getLog().error({ err: reason(error) }, "tape: upload failed");
    return { ok: false, status: 503, message: DROP_COPY.storeDown };
  }
}

/** Where an answer's bytes start: its Content-Range, else the asked range (a redirect's), else the first byte. */
function firstByte(request: Request, answer: Response): number {
  const served = /^bytes (\d+)-/.exec(answer.headers.get("content-range") ?? "");
  if (served) return Number(served[1]);
  if (answer.status !== 302) return 0;
  const asked = request.headers.get("range");
  if (!asked) return 0;
  const start = /^bytes=(\d+)-/.exec(asked);
  return start ? Number(start[1]) : 1; // a suffix range ("the last N bytes") starts past the first
}

/**
 * The tape itself, for the file route of `as`: its shopper (once the order is sent: the draft
 * rule, in SQL) or a mixer. Streamed with ranges from disk, or a redirect to a URL of the store
 * valid for 15 minutes; `download` names the file "{codename} - {CODE}.{ext}" as an attachment.
 * Every answer that serves the shopper bytes (or the URL to them) is counted: any byte makes the
 * tape downloaded, each read from the first byte one more download.
 */
export async function tapeAnswer(
  storage: Storage,
  api: BackendRequest,
  code: string | undefined,
  request: Request,
  { download, as }: { download: boolean; as: "shopper" | "mixer" },
): Promise<Response | null> {
  if (!isOrderCode(code)) return null;
  const { file, error } = await api.tapeFile(code, as);
  if (error) {
    getLog().error({ code: error.code, err: error.message }, "tape: lookup failed");
    throw new Response(null, { status: 500 });
  }
  if (!file || file.deleted) return null;
  const filename = tapeFileName(file.codename, code, keyExtension(file.key));
  const signed = await storage.signDownload(file.key, { filename });
  const answer = signed
    ? new Response(null, { status: 302, headers: { Location: signed } })
    : await serveObject(storage, file.key, request, download ? { filename } : {});
  if (answer && as === "shopper" && request.method === "GET" && [200, 206, 302].includes(answer.status)) {
    const counted = await api.countTapeDownload(code, firstByte(request, answer));
    if (counted.error) getLog().warn({ code: counted.error.code, err: counted.error.message }, "tape: download not counted");
  }
  return answer;
}

/** Start-up: a store on this machine's disk serves one process; several on one database need a shared store. */
export async function checkTapeStore(config: Config, backend: Backend): Promise<void> {
  if (config.DROP_STORAGE !== "disk") return;
  if ((await backend.claimSoleProcess()) === false)
    throw new Error(
      "DROP_STORAGE=disk keeps the tapes on this machine's disk, and another process already serves this database. " +
        "To run several processes, set DROP_STORAGE=s3 (any S3-compatible store: docs/drop.md).",
    );
}
