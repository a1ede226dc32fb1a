// The drop's tape as pages show it, and where the browser may fetch a signed tape from.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  formatDuration,
  formatSize,
  keyExtension,
  mixerTape,
  readTape,
  shopperTape,
  tapeFileName,
  tapeUpload,
} from "~/domain/tape";
import { loadConfig } from "~/server/platform/config.server";
import { tapeOrigin } from "~/server/storage/index.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-tape-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const row = {
  ext: "flac",
  fileName: "final mix v3.flac",
  contentType: "audio/flac",
  size: 41_943_040,
  durationSeconds: 3725.4,
  uploadedAt: "2026-11-26T10:00:00Z",
  downloads: 2,
  lastDownloadedAt: "2026-11-27T08:30:00Z",
  deletedAt: null,
};

describe("a tape", () => {
  it("is read from the row, tolerantly", () => {
    expect(readTape(row)).toMatchObject({ size: 41_943_040, durationSeconds: 3725.4, downloads: 2, deletedAt: null });
    expect(readTape(JSON.stringify(row))?.uploadedAt).toBe("2026-11-26T10:00:00.000Z");
    for (const bad of [null, "{", { ...row, size: 0 }, { ...row, durationSeconds: "long" }, { ...row, contentType: 7 }])
      expect(readTape(bad)).toBeNull();
  });
  it("says its length and size as a person reads them", () => {
    expect(formatDuration(3725.4)).toBe("1:02:05");
    expect(formatDuration(187)).toBe("3:07");
    expect(formatSize(41_943_040)).toBe("41.9 MB");
    expect(formatSize(820_000)).toBe("820 KB");
  });
  it("is downloaded as '{codename} - {CODE}.{ext}', with nothing a file system refuses", () => {
    expect(tapeFileName("NEON SIGNAL", "AB2CD3EF", readTape(row)!.ext)).toBe("NEON SIGNAL - AB2CD3EF.flac");
    expect(tapeFileName("NEON SIGNAL", "AB2CD3EF", keyExtension("AB2CD3EF/7c1e.opus"))).toBe("NEON SIGNAL - AB2CD3EF.opus");
    expect(tapeFileName('ACID/COMET:"X"', "AB2CD3EF", "mp3")).toBe("ACIDCOMETX - AB2CD3EF.mp3");
    expect(tapeFileName(null, "AB2CD3EF", "mp3")).toBe("Mixtape - AB2CD3EF.mp3");
  });
  it("shows the mixer's page the file's name; the shopper's page neither the name nor who heard it", () => {
    expect(mixerTape(readTape(row)!)).toMatchObject({ fileName: "final mix v3.flac", downloads: 2, deleted: false });
    expect(shopperTape(readTape(row)!)).toEqual({ size: 41_943_040, durationSeconds: 3725.4, deleted: false });
    // The shopper's read has no file name at all (the SQL gives it to the mixers only).
    expect(readTape({ ...row, fileName: null })?.fileName).toBeNull();
  });
  it("an upload is the first tape, a draft's replacement, or a new version once the shopper has it (sent or downloaded); never on a cancelled order or a closed conversation", () => {
    const now = new Date().toISOString();
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString();
    const at = { created_at: old, sent_at: null, cancelled_at: null };
    const heard = { downloads: 1, deleted: false };
    const unheard = { downloads: 0, deleted: false };
    expect(tapeUpload({ ...at, status: "received" }, null)).toBe("first");
    expect(tapeUpload({ ...at, status: "mixing" }, unheard)).toBe("replace");
    expect(tapeUpload({ ...at, status: "mixing" }, heard)).toBe("new-version");
    expect(tapeUpload({ ...at, status: "sent", sent_at: now }, unheard)).toBe("new-version");
    expect(tapeUpload({ ...at, status: "sent", sent_at: now }, heard)).toBe("new-version");
    expect(tapeUpload({ ...at, status: "sent", sent_at: now }, null)).toBe("closed");
    expect(tapeUpload({ ...at, status: "sent", sent_at: now }, { downloads: 1, deleted: true })).toBe("closed");
    expect(tapeUpload({ ...at, status: "sent", sent_at: old }, heard)).toBe("closed");
    expect(tapeUpload({ ...at, status: "cancelled", cancelled_at: now }, unheard)).toBe("closed");
    expect(readTape(row)?.version).toBe(1);
    expect(readTape({ ...row, version: 3 })?.version).toBe(3);
  });
});

describe("where a signed tape plays from (the CSP's media-src)", () => {
  const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...env });
  it("this origin on disk; the store's origin for S3 and Supabase", () => {
    expect(tapeOrigin(config({}))).toBeNull();
    expect(tapeOrigin(config({ DROP_STORAGE: "s3", S3_BUCKET: "tapes", S3_REGION: "eu-west-1" }))).toBe(
      "https://tapes.s3.eu-west-1.amazonaws.com",
    );
    const r2 = {
      DROP_STORAGE: "s3",
      S3_BUCKET: "tapes",
      S3_ENDPOINT: "https://acc.r2.cloudflarestorage.com",
      S3_FORCE_PATH_STYLE: "1",
    };
    expect(tapeOrigin(config(r2))).toBe("https://acc.r2.cloudflarestorage.com");
    const supabase = {
      DROP_STORAGE: "supabase",
      SUPABASE_URL: "https://ref.supabase.co",
      SUPABASE_ANON_KEY: "anon",
      SUPABASE_SERVICE_ROLE_KEY: "service",
      SESSION_SECRET: "a-session-secret-of-enough-length",
      SITE_URL: "https://shop.example",
    };
    expect(tapeOrigin(config(supabase))).toBe("https://ref.supabase.co");
  });
});
