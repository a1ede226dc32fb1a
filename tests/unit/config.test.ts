import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, ensureWritableDir, loadConfig } from "~/server/platform/config.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-config-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("configuration", () => {
  it("treats every empty variable as unset (their defaults apply)", () => {
    const config = loadConfig({
      DATA_DIR: dir,
      PORT: "",
      HOST: " ",
      SITE_URL: "",
      CHECKOUT_URL: "",
      MIXER_EMAILS: "",
      LOG_LEVEL: "",
    });
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      SITE_URL: undefined,
      CHECKOUT_URL: "https://example.com/checkout",
      mixerEmails: [],
      LOG_LEVEL: "info",
    });
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      expect(loadConfig({ DATA_DIR: "" }).DATA_DIR).toBe(".data"); // never the working directory itself
    } finally {
      process.chdir(cwd);
    }
  });

  it("lists every bad variable with what it needs", () => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dir, PORT: "99999", CREATOR_URL: "not a url", TRUST_PROXY: "yes" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.sort()).toEqual([
      "CREATOR_URL: must be a URL such as https://shop.example.com",
      "PORT: must be a port number",
      "TRUST_PROXY: must be 1 or 0",
    ]);
  });

  it("SHUTDOWN_GRACE_MS: 10 s unless set, a whole number of milliseconds", () => {
    expect(loadConfig({ DATA_DIR: dir }).SHUTDOWN_GRACE_MS).toBe(10_000);
    expect(loadConfig({ DATA_DIR: dir, SHUTDOWN_GRACE_MS: "25000" }).SHUTDOWN_GRACE_MS).toBe(25_000);
    expect(loadConfig({ DATA_DIR: dir, SHUTDOWN_GRACE_MS: "0" }).SHUTDOWN_GRACE_MS).toBe(0);
    for (const bad of ["ten", "-1", "1.5"]) {
      expect(() => loadConfig({ DATA_DIR: dir, SHUTDOWN_GRACE_MS: bad }), bad).toThrow(
        /SHUTDOWN_GRACE_MS: must be a number of milliseconds/,
      );
    }
  });

  it("reads MIXER_EMAILS in any case and spacing, once each", () => {
    expect(loadConfig({ DATA_DIR: dir, MIXER_EMAILS: " DJ@Example.com, dj@example.com ,b@x.co" }).mixerEmails).toEqual([
      "dj@example.com",
      "b@x.co",
    ]);
  });

  it("ensureWritableDir creates missing parents and refuses what cannot be written, in one line, without hanging", () => {
    expect(ensureWritableDir(path.join(dir, "a", "b", "c"))).toBeNull();
    expect(fs.statSync(path.join(dir, "a", "b", "c")).isDirectory()).toBe(true);
    expect(ensureWritableDir("/proc/nope")).toBe("/proc/nope cannot be created (ENOENT)");
    fs.writeFileSync(path.join(dir, "file"), "");
    expect(ensureWritableDir(path.join(dir, "file", "sub"))).toBe(`${path.join(dir, "file", "sub")} cannot be created (ENOTDIR)`);
  });

  it("SITE_URL: the origin of email links; required in production with a remote database", () => {
    expect(loadConfig({ DATA_DIR: dir, PORT: "4100" }).siteUrl).toBe("http://localhost:4100");
    expect(loadConfig({ DATA_DIR: dir, SITE_URL: "https://shop.example.com/x" }).siteUrl).toBe("https://shop.example.com");
    const remote = { DATA_DIR: dir, NODE_ENV: "production", DATABASE_URL: "postgres://x/y", SESSION_SECRET: "s".repeat(20) };
    expect(() => loadConfig(remote)).toThrow(/SITE_URL: required in production/);
    expect(loadConfig({ ...remote, SITE_URL: "https://shop.example.com" }).siteUrl).toBe("https://shop.example.com");
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: "production" }).siteUrl).toBe("http://localhost:3000"); // embedded: a warning only
  });

  it("the drop's storage: disk by default, each other store with what it needs", () => {
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({
      DROP_STORAGE: "disk",
      DROP_MAX_MB: 300,
      DROP_KEEP_DAYS: 90,
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: false,
    });
    const problems = (source: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: dir, ...source });
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problems({ DROP_STORAGE: "ftp", DROP_MAX_MB: "lots" }).sort()).toEqual([
      "DROP_MAX_MB: must be a number of megabytes",
      "DROP_STORAGE: must be one of disk, s3, supabase",
    ]);
    expect(problems({ DROP_STORAGE: "s3", S3_ACCESS_KEY_ID: "key" })).toEqual([
      "S3_BUCKET: required with DROP_STORAGE=s3.",
      "S3_ACCESS_KEY_ID: set together with S3_SECRET_ACCESS_KEY (or neither, for the SDK's own credentials).",
    ]);
    expect(
      problems({ DROP_STORAGE: "s3", S3_BUCKET: "drops", S3_ENDPOINT: "http://127.0.0.1:9000", S3_FORCE_PATH_STYLE: "1" }),
    ).toEqual([]);
    expect(problems({ DROP_STORAGE: "supabase", SUPABASE_URL: "https://x.supabase.co" })).toEqual([
      "DROP_STORAGE: supabase needs SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (the private bucket is read server-side).",
    ]);
  });
});
