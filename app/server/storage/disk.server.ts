// Disk storage (the default): each tape is a plain file under DATA_DIR/drops at its key, so a
// proxy in front (nginx's X-Accel-Redirect) could serve the same file. A put streams into
// .partial/<uuid> and is renamed over the key only once whole: rename is atomic within one file
// system, so a reader sees the old file or the new one, never half of it.
import crypto from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import {
  contentTypeOf,
  StorageError,
  withLength,
  type ByteRange,
  type PartialUpload,
  type Storage,
  type StoredObject,
} from "./port.server";

const PARTIAL_DIR = ".partial";
const PARTIAL_ID = /^[0-9a-f-]{36}$/;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** Files are never changed in place (every put is a new inode), so inode, size and time name a version. */
function described(key: string, stats: fs.Stats): StoredObject {
  const etag = `"${stats.ino.toString(36)}-${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}"`;
  return { key, size: stats.size, etag, contentType: contentTypeOf(key), modified: stats.mtime };
}

async function fsyncDir(dir: string) {
  const handle = await fsp.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function createDiskStorage(options: { dir: string }): Storage {
  const root = path.resolve(options.dir);
  const partials = path.join(root, PARTIAL_DIR);
  /** contentTypeOf refuses "..", hidden and absolute names, so the path stays under root. */
  const fileOf = (key: string) => {
    contentTypeOf(key);
    return path.join(root, ...key.split("/"));
  };

  async function stat(key: string): Promise<StoredObject | null> {
    try {
      return described(key, await fsp.stat(fileOf(key)));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    kind: "disk",

    async put(key, body, options = {}) {
      const file = fileOf(key);
      await fsp.mkdir(partials, { recursive: true });
      const temp = path.join(partials, crypto.randomUUID());
      try {
        // flush: the bytes are on disk (fsync) before the rename makes them the object.
        const out = fs.createWriteStream(temp, { flags: "wx", mode: 0o600, flush: true });
        await once(out, "open"); // else a body failing at once would leave the file, created after the rm below
        await pipeline(withLength(body, options.size), out);
        // Once more if a delete took the folder away between the two (it goes with its last file).
        const place = async () => {
          await fsp.mkdir(path.dirname(file), { recursive: true });
          await fsp.rename(temp, file);
        };
        await place().catch((error: unknown) => (isMissing(error) ? place() : Promise.reject(error)));
        await fsyncDir(path.dirname(file));
      } catch (error) {
        await fsp.rm(temp, { force: true });
        throw error;
      }
      return (await stat(key))!;
    },

    stat,

    async read(key: string, range?: ByteRange) {
      // One open file: the metadata and the bytes are of the same version, even if a put replaces it meanwhile.
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(fileOf(key), "r");
      } catch (error) {
        if (isMissing(error)) throw new StorageError("not_found", `no object at ${key}`);
        throw error;
      }
      const object = described(key, await handle.stat());
      if (range && (range.start < 0 || range.start >= object.size || range.start > range.end)) {
        await handle.close();
        throw new StorageError("range", `bytes ${range.start}-${range.end} are not within ${object.size}`);
      }
      const end = range ? Math.min(range.end, object.size - 1) : undefined;
      // 256 KiB reads: a quarter of the chunks through the response's web stream (decision 016).
      const body: Readable = handle.createReadStream({
        start: range?.start ?? 0,
        end,
        autoClose: true,
        highWaterMark: 256 * 1024,
      });
      return { object, body };
    },

    async delete(key) {
      const file = fileOf(key);
      await fsp.rm(file, { force: true });
      // The order's folder goes with its last file (rmdir takes only an empty one).
      if (path.dirname(file) !== root) await fsp.rmdir(path.dirname(file)).catch(() => {});
    },

    async signDownload() {
      return null;
    },

    async partials(olderThan) {
      let names: string[];
      try {
        names = await fsp.readdir(partials);
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      const found: PartialUpload[] = [];
      for (const id of names.filter((n) => PARTIAL_ID.test(n))) {
        const stats = await fsp.stat(path.join(partials, id)).catch(() => null);
        if (stats && stats.mtime < olderThan) found.push({ id, key: null, since: stats.mtime });
      }
      return found;
    },

    async dropPartial(id) {
      if (!PARTIAL_ID.test(id)) throw new StorageError("key", `not a partial upload: ${JSON.stringify(id)}`);
      await fsp.rm(path.join(partials, id), { force: true });
    },

    async health() {
      try {
        await fsp.mkdir(root, { recursive: true });
        await fsp.access(root, fs.constants.R_OK | fs.constants.W_OK);
        return { ok: true };
      } catch (error) {
        return { ok: false, problem: `${root} is not a writable directory (${(error as NodeJS.ErrnoException).code})` };
      }
    },

    async close() {},
  };
}
