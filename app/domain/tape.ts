// The drop's tape as the pages show it: what it is, how long, how big, and who heard it.
import { conversationOpen } from "./conversation";

export type Tape = {
  /** The file's extension, as the store names it (the type the content check found); never where it is. */
  ext: string;
  /** The name the mixer's file had: in the mixers' reads only (null in the shopper's). */
  fileName: string | null;
  contentType: string;
  size: number;
  durationSeconds: number;
  uploadedAt: string;
  downloads: number;
  lastDownloadedAt: string | null;
  /** The file is gone: kept its days after the order was sent, or the account was erased. */
  deletedAt: string | null;
  /** 1, then one more for each corrected version uploaded after the shopper had it. */
  version: number;
};

const time = (v: unknown) => {
  const d = typeof v === "string" ? new Date(v) : v instanceof Date ? v : null;
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : null;
};

/** Tolerant, as every stored row: anything unreadable is no tape. */
export function readTape(value: unknown): Tape | null {
  const raw = typeof value === "string" ? safeJson(value) : value;
  if (!raw || typeof raw !== "object") return null;
  const r = raw as Record<string, unknown>;
  const size = Number(r.size);
  const duration = Number(r.durationSeconds);
  const uploadedAt = time(r.uploadedAt);
  if (typeof r.contentType !== "string") return null;
  if (!Number.isSafeInteger(size) || size <= 0 || !(duration > 0) || !uploadedAt) return null;
  return {
    ext: typeof r.ext === "string" && /^[a-z0-9]{1,8}$/.test(r.ext) ? r.ext : "mp3",
    fileName: typeof r.fileName === "string" ? r.fileName : null,
    contentType: r.contentType,
    size,
    durationSeconds: duration,
    uploadedAt,
    downloads: Number.isSafeInteger(Number(r.downloads)) ? Number(r.downloads) : 0,
    lastDownloadedAt: time(r.lastDownloadedAt),
    deletedAt: time(r.deletedAt),
    version: Number.isSafeInteger(Number(r.version)) && Number(r.version) >= 1 ? Number(r.version) : 1,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** "4:07", "1:02:03". */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** "820 KB", "12.4 MB", "1.2 GB" (decimal units, as file managers show). */
export function formatSize(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} KB`;
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${(bytes / 1_000_000_000).toFixed(1)} GB`;
}

/** A stored file's extension, from its key (the type the content check found). */
export const keyExtension = (key: string) => /\.([a-z0-9]+)$/.exec(key)?.[1] ?? "mp3";

/** The shopper's file: "{codename} - {CODE}.{ext}", with nothing a file system refuses. */
export function tapeFileName(codename: string | null, code: string, ext: string): string {
  const name = (codename ?? "Mixtape").replace(/[^\p{L}\p{N} _-]+/gu, "").trim() || "Mixtape";
  return `${name} - ${code}.${ext}`;
}

/**
 * What an upload does to the order's tape (save_tape of supabase/migrations/20261210000000_a_corrected_tape.sql
 * says the same): the first tape; a replacement of a draft nobody downloaded; a new version, which the
 * shopper is told about, of a tape they downloaded or were sent (while the conversation is open); or nothing.
 */
export type TapeUpload = "first" | "replace" | "new-version" | "closed";
export function tapeUpload(
  order: Parameters<typeof conversationOpen>[0],
  tape: { downloads: number; deleted: boolean } | null,
): TapeUpload {
  if (order.status === "cancelled") return "closed";
  if (order.status === "sent") return !tape || tape.deleted || !conversationOpen(order) ? "closed" : "new-version";
  if (!tape) return "first";
  return tape.downloads > 0 ? "new-version" : "replace";
}

/** What the mixer's order page shows of the tape: the file's name and who heard it. */
export const mixerTape = (tape: Tape) => ({
  fileName: tape.fileName ?? "",
  size: tape.size,
  durationSeconds: tape.durationSeconds,
  uploadedAt: tape.uploadedAt,
  downloads: tape.downloads,
  lastDownloadedAt: tape.lastDownloadedAt,
  deleted: tape.deletedAt !== null,
  version: tape.version,
});
export type MixerTape = ReturnType<typeof mixerTape>;

/** What the shopper's order page shows of the sent tape: how long, how big, whether it is still kept. */
export const shopperTape = (tape: Tape) => ({
  size: tape.size,
  durationSeconds: tape.durationSeconds,
  deleted: tape.deletedAt !== null,
});
export type ShopperTape = ReturnType<typeof shopperTape>;
