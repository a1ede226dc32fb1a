// The Storage port's putFile, against every adapter as tests/contract/storage.contract.test.ts runs
// them: a whole file on this process's disk (a staged tus upload) becomes an object as a put's body
// does, and the file stays the caller's. On disk no byte is copied: the object is the same file.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { allStorageHarnesses, type StorageCtx } from "../support/storage-adapters";

let seq = 0;
const newKey = (ext = "wav") => `orders/F${process.pid}X${++seq}/tape.${ext}`;

describe.each(allStorageHarnesses())("Storage putFile: $name", (harness) => {
  let ctx: StorageCtx;
  let work: string;
  beforeAll(() => harness.boot());
  afterAll(() => harness.shutdown());
  beforeEach(async () => {
    ctx = await harness.fresh();
    work = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-putfile-"));
  });
  afterEach(async () => {
    await ctx?.close().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** A file of random bytes in the work dir. */
  const fileOf = (size: number) => {
    const data = crypto.randomBytes(size);
    const file = path.join(work, crypto.randomUUID());
    fs.writeFileSync(file, data);
    return { file, data };
  };
  const readAll = async (key: string) => buffer((await ctx.storage.read(key)).body);

  it("stores a whole file as the object, replacing the one there; the file stays the caller's, and goes without the object", async () => {
    const key = newKey();
    await ctx.storage.put(key, Readable.from([Buffer.from("the old tape")]));
    const { file, data } = fileOf(3 * 1024 * 1024 + 17);
    const stored = await ctx.storage.putFile(key, file, { size: data.length });
    expect(stored).toMatchObject({ key, size: data.length, contentType: "audio/wav" });
    expect((await readAll(key)).equals(data)).toBe(true);
    expect(fs.existsSync(file), "the caller's file is still there").toBe(true);
    fs.rmSync(file);
    expect((await readAll(key)).equals(data), "the object outlives the caller's file").toBe(true);
    expect(await ctx.leftovers()).toBeOneOf([0, null]);
  });

  it("refuses a file that is not its declared size, and leaves the old object and no partial upload", async () => {
    const key = newKey();
    const old = crypto.randomBytes(1000);
    await ctx.storage.put(key, Readable.from([old]), { size: old.length });
    const { file, data } = fileOf(5000);
    await expect(ctx.storage.putFile(key, file, { size: data.length + 1 })).rejects.toMatchObject({ code: "size" });
    expect((await readAll(key)).equals(old)).toBe(true);
    expect(await ctx.leftovers()).toBeOneOf([0, null]);
  });

  it("refuses a key without an accepted extension before anything is stored", async () => {
    const { file } = fileOf(100);
    await expect(ctx.storage.putFile("orders/x/tape.exe", file)).rejects.toMatchObject({ code: "key" });
    expect(await ctx.leftovers()).toBeOneOf([0, null]);
  });

  it("on disk, copies no byte: the object is the caller's file under a second name, readable by its owner only", async (test) => {
    if (!ctx.fileOf) return test.skip("a bucket always receives the bytes");
    const key = newKey();
    const { file, data } = fileOf(2 * 1024 * 1024);
    await ctx.storage.putFile(key, file, { size: data.length });
    const [source, stored] = [fs.statSync(file), fs.statSync(ctx.fileOf(key))];
    expect(stored.ino).toBe(source.ino);
    expect(stored.nlink).toBe(2);
    expect(stored.mode & 0o777).toBe(0o600);
  });
});
