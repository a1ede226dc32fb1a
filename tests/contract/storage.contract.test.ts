// The Storage port's contract: one list of cases, run against every adapter (disk on a
// temporary directory, S3 against fauxqs, Supabase against the HTTP fake's Storage
// API). None of these servers is AWS or Supabase: docs/testing.md says what each one leaves out.
import crypto from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkAudio } from "~/server/storage/audio.server";
import { planRange, serveObject } from "~/server/storage/download.server";
import { sweepPartials } from "~/server/storage/index.server";
import { MAX_SIGNED_SECONDS, PARTIAL_UPLOAD_TTL_MS, StorageError } from "~/server/storage/port.server";
import { createSupabaseStorage } from "~/server/storage/supabase.server";
import { allStorageHarnesses, type StorageCtx } from "../support/storage-adapters";

const MiB = 1024 * 1024;
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/audio");
let seq = 0;
const newKey = (ext = "mp3") => `orders/T${process.pid}X${++seq}/tape.${ext}`;
const random = (size: number) => crypto.randomBytes(size);
const sha256 = (data: Buffer) => crypto.createHash("sha256").update(data).digest("hex");

/** size bytes in 64 kB chunks, made as they are read (never held whole), and their hash once read. */
function generated(size: number) {
  const hash = crypto.createHash("sha256");
  const seed = crypto.randomBytes(64 * 1024);
  const body = Readable.from(
    (function* () {
      for (let sent = 0; sent < size; sent += seed.length) {
        const chunk = Buffer.from(seed.subarray(0, Math.min(seed.length, size - sent)));
        chunk.writeUInt32BE(sent >>> 0, 0);
        hash.update(chunk);
        yield chunk;
      }
    })(),
  );
  return { body, digest: () => hash.digest("hex") };
}

/** Writes data as an upload arrives, 64 kB at a time, each once the put has taken the one before. */
async function arrive(source: PassThrough, data: Buffer) {
  for (let i = 0; i < data.length; i += 64 * 1024)
    if (!source.write(data.subarray(i, i + 64 * 1024))) await once(source, "drain");
  for (let i = 0; i < 3000 && source.readableLength > 0; i++) await sleep(10);
  expect(source.readableLength, "the put reads the body while it arrives").toBe(0);
}

describe.each(allStorageHarnesses())("Storage contract: $name", (harness) => {
  let ctx: StorageCtx;
  beforeAll(async () => {
    await harness.boot();
    console.info(`storage contract: ${harness.name} runs against ${harness.server}`);
  });
  afterAll(() => harness.shutdown());
  beforeEach(async () => {
    ctx = await harness.fresh();
  });
  afterEach(async () => {
    await ctx?.close().catch(() => {});
  });

  const readAll = async (key: string) => buffer((await ctx.storage.read(key)).body);
  const put = (key: string, data: Buffer) => ctx.storage.put(key, Readable.from([data]), { size: data.length });

  it("puts a streamed 12 MB body (in 5 MB parts where the store has parts) and reads it back whole", async () => {
    const key = newKey();
    const { body, digest } = generated(12 * MiB);
    const stored = await ctx.storage.put(key, body, { size: 12 * MiB });
    expect(stored).toMatchObject({ key, size: 12 * MiB, contentType: "audio/mpeg" });
    expect(stored.etag).toMatch(/^(W\/)?".+"$/);
    expect(sha256(await readAll(key))).toBe(digest());
    if (ctx.commands) {
      // S3: three parts of one multipart upload, then one HEAD for the answer.
      expect(ctx.commands).toEqual([
        "CreateMultipartUpload",
        "UploadPart",
        "UploadPart",
        "UploadPart",
        "CompleteMultipartUpload",
        "HeadObject",
        "GetObject",
      ]);
    }
  });

  it("puts a body of unknown length too", async () => {
    const key = newKey("flac");
    const data = random(300_000);
    const stored = await ctx.storage.put(key, Readable.from([data.subarray(0, 1000), data.subarray(1000)]));
    expect(stored).toMatchObject({ size: data.length, contentType: "audio/flac" });
    expect((await readAll(key)).equals(data)).toBe(true);
  });

  it("stat: size, type from the key's extension, ETag and time; null when absent", async () => {
    const key = newKey("wav");
    const data = random(1234);
    const stored = await put(key, data);
    const seen = await ctx.storage.stat(key);
    expect(seen).toEqual(stored);
    expect(seen).toMatchObject({ key, size: 1234, contentType: "audio/wav" });
    expect(Math.abs(seen!.modified.getTime() - Date.now())).toBeLessThan(5 * 60 * 1000);
    expect(await ctx.storage.stat(newKey())).toBeNull();
    await expect(ctx.storage.read(newKey())).rejects.toMatchObject({ code: "not_found" });
  });

  it("keeps the catalogue's images: a .webp key is served as image/webp, whole and in ranges", async () => {
    const key = `catalogue/thumbs/${crypto.randomUUID()}.webp`;
    const data = random(5000);
    expect(await put(key, data)).toMatchObject({ key, size: 5000, contentType: "image/webp" });
    expect((await buffer((await ctx.storage.read(key, { start: 10, end: 19 })).body)).equals(data.subarray(10, 20))).toBe(true);
    await expect(ctx.storage.put(`catalogue/thumbs/${crypto.randomUUID()}.svg`, Readable.from([data]))).rejects.toMatchObject({
      code: "key",
    });
  });

  it("refuses keys that could leave the store or name no audio type", async () => {
    for (const key of [
      "../escape.mp3",
      "orders/../../x.mp3",
      "/abs.mp3",
      ".partial/x.mp3",
      "orders/tape",
      "orders/tape.exe",
      "a//b.mp3",
    ])
      await expect(ctx.storage.put(key, Readable.from([Buffer.from("x")])), key).rejects.toMatchObject({ code: "key" });
  });

  it("reads ranges: first bytes, the middle, a suffix (bytes=-100), an end past the last byte; past the end is 416", async () => {
    const key = newKey();
    const data = random(300_000);
    const object = await put(key, data);
    const range = async (start: number, end: number) => buffer((await ctx.storage.read(key, { start, end })).body);

    expect((await range(0, 99)).equals(data.subarray(0, 100))).toBe(true);
    expect((await range(1000, 1999)).equals(data.subarray(1000, 2000))).toBe(true);
    const suffix = planRange(object, "bytes=-100", null);
    expect(suffix).toEqual({ status: 206, range: { start: 299_900, end: 299_999 } });
    expect((await range(299_900, 299_999)).equals(data.subarray(-100))).toBe(true);
    expect((await range(299_990, 400_000)).equals(data.subarray(-10))).toBe(true);
    const read = await ctx.storage.read(key, { start: 5, end: 9 });
    expect(read.object).toMatchObject({ size: 300_000, etag: object.etag });
    await read.body.cancel();

    expect(planRange(object, "bytes=300000-", null)).toEqual({ status: 416 });
    await expect(ctx.storage.read(key, { start: 300_000, end: 300_100 })).rejects.toMatchObject({ code: "range" });
  });

  it("serves a download: 200 whole, 206 one range, 416 past the end, whole again for another version's If-Range, HEAD without body", async () => {
    const key = newKey();
    const data = random(5000);
    const object = await put(key, data);
    const get = (headers: Record<string, string> = {}, method = "GET") =>
      serveObject(ctx.storage, key, new Request("http://shop.test/drop", { method, headers }), { filename: "Side A.mp3" });

    const whole = (await get())!;
    expect(whole.status).toBe(200);
    expect(Object.fromEntries(whole.headers)).toMatchObject({
      "accept-ranges": "bytes",
      etag: object.etag,
      "content-length": "5000",
      "content-type": "audio/mpeg",
      "content-disposition": `attachment; filename="Side A.mp3"; filename*=UTF-8''Side%20A.mp3`,
    });
    expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);

    const part = (await get({ Range: "bytes=100-199" }))!;
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 100-199/5000");
    expect(part.headers.get("content-length")).toBe("100");
    expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(100, 200))).toBe(true);

    const tail = (await get({ Range: "bytes=-100" }))!;
    expect(tail.headers.get("content-range")).toBe("bytes 4900-4999/5000");
    expect(Buffer.from(await tail.arrayBuffer()).equals(data.subarray(4900))).toBe(true);

    const beyond = (await get({ Range: "bytes=5000-" }))!;
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe("bytes */5000");

    const stale = (await get({ Range: "bytes=0-9", "If-Range": '"another-version"' }))!;
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(5000);
    const fresh = (await get({ Range: "bytes=0-9", "If-Range": object.etag }))!;
    expect(fresh.status).toBe(206);
    await fresh.arrayBuffer();

    const head = (await get({ Range: "bytes=0-9" }, "HEAD"))!;
    expect(head.status).toBe(206);
    expect(head.body).toBeNull();
    expect(await serveObject(ctx.storage, newKey(), new Request("http://shop.test/drop"))).toBeNull();
  });

  it("replaces atomically: the old object stays readable while the new one streams in, the new one is there once put resolves", async () => {
    const key = newKey();
    const old = random(200_000);
    const before = await put(key, old);
    const next = random(6 * MiB); // more than one part on S3
    const source = new PassThrough();
    const putting = ctx.storage.put(key, source, { size: next.length });
    await arrive(source, next.subarray(0, 5.5 * MiB));
    expect((await readAll(key)).equals(old)).toBe(true);
    expect((await ctx.storage.stat(key))?.etag).toBe(before.etag);
    source.end(next.subarray(5.5 * MiB));
    const after = await putting;
    expect(after.etag).not.toBe(before.etag);
    expect((await readAll(key)).equals(next)).toBe(true);
  });

  it("a put whose body fails, or is not its declared size, leaves the old object and no partial upload", async () => {
    const key = newKey();
    const old = random(100_000);
    const before = await put(key, old);

    const source = new PassThrough();
    const putting = ctx.storage.put(key, source, { size: 8 * MiB });
    await arrive(source, random(5.5 * MiB)); // on S3, a part is on its way before the connection drops
    source.destroy(new Error("the connection dropped"));
    await expect(putting).rejects.toThrow("the connection dropped");
    if (ctx.commands) expect(ctx.commands).toContain("AbortMultipartUpload");

    const data = random(1000);
    await expect(ctx.storage.put(key, Readable.from([data]), { size: 1001 })).rejects.toMatchObject({ code: "size" });
    await expect(ctx.storage.put(key, Readable.from([data]), { size: 999 })).rejects.toMatchObject({ code: "size" });

    expect((await readAll(key)).equals(old)).toBe(true);
    expect((await ctx.storage.stat(key))?.etag).toBe(before.etag);
    if (!ctx.partialsUnseen) expect(await ctx.storage.partials(new Date(Date.now() + 60_000))).toEqual([]);
    expect((await ctx.leftovers()) ?? 0).toBe(0);
  });

  it("keeps nothing of a tape the content check refuses as it streams, or that passes the size limit", async () => {
    const fixture = fs.readFileSync(path.join(FIXTURES, "id3-then-text.mp3"));
    const refused = checkAudio(Readable.from([fixture.subarray(0, 5000), fixture.subarray(5000)]), { maxBytes: MiB });
    const type = await refused.type; // it looks like MP3 at first
    const key = newKey(type.ext);
    await expect(Promise.all([ctx.storage.put(key, refused.body), refused.facts])).rejects.toThrow(
      "This file is not audio (MP3, M4A, OGG, FLAC or WAV).",
    );
    expect(await ctx.storage.stat(key)).toBeNull();

    const wav = fs.readFileSync(path.join(FIXTURES, "tone.wav"));
    const large = checkAudio(Readable.from([wav.subarray(0, 8000), wav.subarray(8000)]), { maxBytes: 20_000 });
    const wavKey = newKey((await large.type).ext);
    await expect(ctx.storage.put(wavKey, large.body)).rejects.toThrow("larger than");
    expect(await ctx.storage.stat(wavKey)).toBeNull();
    expect((await ctx.leftovers()) ?? 0).toBe(0);

    const accepted = checkAudio(Readable.from([wav]), { maxBytes: MiB });
    const okKey = newKey((await accepted.type).ext);
    const [stored, facts] = await Promise.all([ctx.storage.put(okKey, accepted.body), accepted.facts]);
    expect(stored).toMatchObject({ size: wav.length, contentType: facts.mime });
  });

  it("deletes: gone for stat and read, with its folder on disk; deleting again, or what never was, is fine", async () => {
    const key = newKey();
    await put(key, random(1000));
    expect(ctx.folderOf?.(key) ?? true).toBe(true);
    await ctx.storage.delete(key);
    expect(ctx.folderOf?.(key) ?? false).toBe(false);
    expect(await ctx.storage.stat(key)).toBeNull();
    await expect(ctx.storage.read(key)).rejects.toMatchObject({ code: "not_found" });
    await ctx.storage.delete(key);
    await ctx.storage.delete(newKey());
  });

  it("signs a download for at most 15 minutes, as an attachment named for the shopper", async (test) => {
    const key = newKey();
    const data = random(2048);
    await put(key, data);
    const url = await ctx.storage.signDownload(key, { filename: "Neon Signal – Side A.mp3", expiresInSeconds: 3600 });
    if (ctx.name === "disk") {
      expect(url, "disk has no URLs: the route streams (serveObject)").toBeNull();
      return;
    }
    const signed = new URL(url!);
    if (ctx.name === "s3") {
      // Neither local server checks signatures: what S3 would enforce is read off the URL.
      const q = signed.searchParams;
      expect(Number(q.get("X-Amz-Expires"))).toBe(MAX_SIGNED_SECONDS);
      const date = q.get("X-Amz-Date")!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z");
      expect(Math.abs(Date.parse(date) - Date.now())).toBeLessThan(5 * 60 * 1000);
      expect(q.get("response-content-disposition")).toBe(
        `attachment; filename="Neon Signal _ Side A.mp3"; filename*=UTF-8''Neon%20Signal%20%E2%80%93%20Side%20A.mp3`,
      );
      expect(q.get("response-content-type")).toBe("audio/mpeg");
      expect(q.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
      const shorter = new URL((await ctx.storage.signDownload(key, { filename: "a.mp3", expiresInSeconds: 60 }))!);
      expect(shorter.searchParams.get("X-Amz-Expires")).toBe("60");
    }
    if (ctx.name === "supabase") {
      const token = signed.searchParams.get("token")!;
      const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as { iat: number; exp: number };
      expect(claims.exp - claims.iat).toBe(MAX_SIGNED_SECONDS);
      expect(signed.searchParams.get("download")).toBe("Neon Signal _ Side A.mp3"); // ASCII: see the adapter
    }
    const answer = await fetch(url!);
    expect(answer.status).toBe(200);
    expect(Buffer.from(await answer.arrayBuffer()).equals(data)).toBe(true);
    const ranged = await fetch(url!, { headers: { Range: "bytes=0-9" } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(data.subarray(0, 10))).toBe(true);
    if (ctx.name === "supabase") {
      expect(answer.headers.get("content-disposition")).toBe('attachment; filename="Neon Signal _ Side A.mp3"');
      ctx.fake!.storage.advance(MAX_SIGNED_SECONDS + 1);
      expect((await fetch(url!)).status, "an expired signed URL is refused").toBe(400);
    } else
      test.annotate(
        "s3: the local server does not check the signature or the expiry; the URL's parameters are what AWS enforces",
      );
  });

  it("finds partial uploads last written before the cutoff and drops them (the sweep's 24 hours)", async (test) => {
    if (!ctx.abandonUpload) {
      const why =
        ctx.partialsUnseen ?? "Supabase keeps no partial upload of ours: a put is one request, and an aborted one leaves nothing";
      console.warn(`storage contract, ${ctx.name}: partial uploads not checked here: ${why}`);
      if (ctx.name === "supabase") expect(await ctx.storage.partials(new Date(Date.now() + 60_000))).toEqual([]);
      test.skip(why);
    }
    await ctx.abandonUpload!(PARTIAL_UPLOAD_TTL_MS + 60 * 60 * 1000);
    await ctx.abandonUpload!(60 * 60 * 1000);
    const cutoff = new Date(Date.now() - PARTIAL_UPLOAD_TTL_MS);
    const old = await ctx.storage.partials(cutoff);
    expect(old).toHaveLength(1);
    expect(old[0].since.getTime()).toBeLessThan(cutoff.getTime());
    await ctx.storage.dropPartial(old[0].id);
    await ctx.storage.dropPartial(old[0].id);
    expect(await ctx.storage.partials(cutoff)).toEqual([]);
    expect(await ctx.storage.partials(new Date(Date.now() + 60_000))).toHaveLength(1);
    // The periodic sweep: a day later, the younger one goes too.
    expect(await sweepPartials(ctx.storage, new Date(Date.now() + PARTIAL_UPLOAD_TTL_MS))).toBe(1);
    expect(await ctx.storage.partials(new Date(Date.now() + 60_000))).toEqual([]);
    await expect(ctx.storage.dropPartial("../../etc/passwd")).rejects.toBeInstanceOf(StorageError);
  });

  it("answers health; a missing directory or bucket does not", async () => {
    expect(await ctx.storage.health()).toEqual({ ok: true });
    const broken = await ctx.broken().health();
    expect(broken.ok).toBe(false);
    expect(broken).toHaveProperty("problem");
  });
});

describe("the Supabase fake's Storage: a private bucket", () => {
  it("answers the service role only; anon is refused or sees nothing; a public bucket is unhealthy; the size limit refuses and keeps the old", async () => {
    const harness = allStorageHarnesses().find((h) => h.name === "supabase")!;
    const ctx = await harness.fresh();
    try {
      const fake = ctx.fake!;
      const key = newKey();
      const data = random(1000);
      await ctx.storage.put(key, Readable.from([data]));
      const as = (apiKey: string, init: RequestInit = {}, url = `${fake.url}/storage/v1/object/drops/${key}`) =>
        fetch(url, { ...init, headers: { apikey: apiKey, Authorization: `Bearer ${apiKey}`, ...init.headers } });

      expect((await as(fake.anonKey)).status).toBe(404);
      expect((await as(fake.anonKey, { method: "POST", body: "x", headers: { "x-upsert": "true" } })).status).toBe(404);
      expect(
        (
          await as(
            fake.anonKey,
            { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } },
            `${fake.url}/storage/v1/object/sign/drops/${key}`,
          )
        ).status,
      ).toBe(404);
      expect((await as(fake.serviceKey)).status).toBe(200);
      expect((await as(fake.serviceKey, { method: "POST", body: "x" })).status).toBe(409); // no x-upsert: a duplicate
      expect((await fetch(`${fake.url}/storage/v1/object/drops/${key}`)).status).toBe(400); // no key at all

      fake.storage.createBucket("open", { public: true });
      const open = createSupabaseStorage({ url: fake.url, serviceKey: fake.serviceKey, bucket: "open" });
      expect(await open.health()).toMatchObject({ ok: false, problem: expect.stringContaining("public") });

      fake.storage.buckets.get("drops")!.fileSizeLimit = 2000;
      await expect(ctx.storage.put(key, Readable.from([random(3000)]))).rejects.toThrow("maximum allowed size");
      expect((await buffer((await ctx.storage.read(key)).body)).equals(data)).toBe(true);

      const listed = (await (
        await as(
          fake.serviceKey,
          {
            method: "POST",
            body: JSON.stringify({ prefix: key.slice(0, key.lastIndexOf("/")) }),
            headers: { "Content-Type": "application/json" },
          },
          `${fake.url}/storage/v1/object/list/drops`,
        )
      ).json()) as { name: string; metadata: { size: number } }[];
      expect(listed).toEqual([expect.objectContaining({ name: "tape.mp3", metadata: expect.objectContaining({ size: 1000 }) })]);
    } finally {
      await ctx.close();
    }
  });
});
