// Disk storage (the default): each tape is a plain file under DATA_DIR/drops at its key, so a
// proxy in front (nginx's X-Accel-Redirect) could serve the same file. A put streams into
// .partial/<uuid> and is renamed over the key only once whole: rename is atomic within one file
// system, so a reader sees the old file or the new one, never half of it. putFile links the
// caller's file there instead (a staged tus upload: no byte copied); a read is a Web stream of
// the open file (docs/decisions/027-the-drop-at-the-disks-speed.md).
import crypto from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import {
  contentTypeOf,
  putFileByStream,
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

/** Where a hard link cannot be made (another file system, or one without links): putFile copies instead. */
const LINK_REFUSED = new Set(["EXDEV", "EPERM", "ENOTSUP", "EOPNOTSUPP", "EMLINK", "ENOSYS"]);
/** A download's reads: large enough that the stream's cost per chunk is small, small enough for 20 readers at once. */
const READ_CHUNK_BYTES = 256 * 1024;

/**
 * Bytes start..end (inclusive) of the open file, as the Web stream a Response carries: each read
 * lands in a buffer of its own that is handed on as it is (no Node stream in between, no copy); one
 * read ahead while the answer is written. The handle closes at the end, on cancel and on error.
 */
function fileBody(handle: fsp.FileHandle, start: number, end: number): ReadableStream<Uint8Array> {
  let position = start;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const want = Math.min(READ_CHUNK_BYTES, end + 1 - position);
        if (want <= 0) {
          await close();
          return controller.close();
        }
        try {
          const buffer = Buffer.allocUnsafeSlow(want);
          const { bytesRead } = await handle.read(buffer, 0, want, position);
          if (bytesRead === 0) throw new StorageError("range", `the file ended at ${position}, before ${end + 1}`);
          position += bytesRead;
          controller.enqueue(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
        } catch (error) {
          await close().catch(() => {});
          controller.error(error);
        }
      },
      cancel: close,
    },
    { highWaterMark: 1 },
  );
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

  /** Makes temp (whole, on disk) the object at key: one rename, so a reader sees the old file or the new one. */
  async function place(temp: string, key: string): Promise<StoredObject> {
    const file = fileOf(key);
    // Once more if a delete took the folder away between the two (it goes with its last file).
    const rename = async () => {
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await fsp.rename(temp, file);
    };
    await rename().catch((error: unknown) => (isMissing(error) ? rename() : Promise.reject(error)));
    await fsyncDir(path.dirname(file));
    return (await stat(key))!;
  }

  /** A new name under .partial, removed again if what follows fails. */
  async function staged(key: string, write: (temp: string) => Promise<void>): Promise<StoredObject> {
    fileOf(key); // a bad key is refused before anything is written
    await fsp.mkdir(partials, { recursive: true });
    const temp = path.join(partials, crypto.randomUUID());
    try {
      await write(temp);
      return await place(temp, key);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
  }

  const put: Storage["put"] = (key, body, options = {}) =>
    staged(key, async (temp) => {
      // flush: the bytes are on disk (fsync) before the rename makes them the object.
      const out = fs.createWriteStream(temp, { flags: "wx", mode: 0o600, flush: true });
      await once(out, "open"); // else a body failing at once would leave the file, created after the rm below
      await pipeline(withLength(body, options.size), out);
    });

  return {
    kind: "disk",

    put,

    async putFile(key, source, options = {}) {
      // The file's bytes are on disk (fsync) before the store names them, as put's are.
      const handle = await fsp.open(source, "r");
      try {
        const { size } = await handle.stat();
        if (options.size !== undefined && size !== options.size)
          throw new StorageError("size", `the file holds ${size} of its declared ${options.size} bytes`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        // A second name for the same bytes: nothing is copied, and the caller's name stays theirs to remove.
        return await staged(key, async (temp) => {
          await fsp.link(source, temp);
          await fsp.chmod(temp, 0o600);
        });
      } catch (error) {
        if (!LINK_REFUSED.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
        return putFileByStream(put, key, source, options);
      }
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
      const start = range?.start ?? 0;
      const end = range ? Math.min(range.end, object.size - 1) : object.size - 1;
      return { object, body: fileBody(handle, start, end) };
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
