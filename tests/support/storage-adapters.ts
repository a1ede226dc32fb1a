// The three Storage adapters under one harness, so that the contract cases are written once:
// disk (a fresh temporary directory), s3 (fauxqs, a local S3 server, in this process: not AWS,
// and it checks no signature), and supabase (the Storage part of the Supabase HTTP fake).
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFauxqs } from "fauxqs";
import type { SqlDriver } from "~/server/backend/sql/db.server";
import { STORAGE_KINDS, type StorageKind } from "~/server/platform/config.server";
import { createDiskStorage } from "~/server/storage/disk.server";
import type { Storage } from "~/server/storage/port.server";
import { createS3Storage, s3Client, type S3Options } from "~/server/storage/s3.server";
import { createSupabaseStorage } from "~/server/storage/supabase.server";
import { startSupabaseFake, type SupabaseFake } from "./supabase-fake";

export type StorageAdapterName = StorageKind;

export type StorageCtx = {
  name: StorageAdapterName;
  storage: Storage;
  /** The S3 commands the adapter sent, in order (s3 only): multipart shows there. */
  commands: string[] | null;
  /**
   * Leaves a partial upload the way a crashed process does, last written ageMs ago; null where
   * the case cannot run here, with the reason in partialsUnseen.
   */
  abandonUpload: ((ageMs: number) => Promise<void>) | null;
  /** Why partials() cannot be checked against this server (s3), or null. */
  partialsUnseen: string | null;
  /** Partial uploads in the store right now, counted behind the adapter's back (disk only, else null). */
  leftovers(): Promise<number | null>;
  /** Whether the folder a key is in exists (disk only; a bucket has no folders: null). */
  folderOf?(key: string): boolean;
  /** The file a key is stored in (disk only). */
  fileOf?(key: string): string;
  /** An adapter of the same kind whose directory or bucket is missing. */
  broken(): Storage;
  /** The Supabase fake (supabase only). */
  fake: SupabaseFake | null;
  close(): Promise<void>;
};

export type StorageHarness = {
  name: StorageAdapterName;
  /** What the adapter talks to here, said in the suite's name. */
  server: string;
  boot(): Promise<void>;
  fresh(): Promise<StorageCtx>;
  shutdown(): Promise<void>;
};

const MiB = 1024 * 1024;
let seq = 0;
const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `mixtape-${name}-`));

export function diskHarness(): StorageHarness {
  return {
    name: "disk",
    server: "a temporary directory",
    async boot() {},
    async fresh() {
      const dir = tempDir("drops");
      const storage = createDiskStorage({ dir });
      const partialDir = path.join(dir, ".partial");
      return {
        name: "disk",
        storage,
        commands: null,
        async abandonUpload(ageMs) {
          fs.mkdirSync(partialDir, { recursive: true });
          const file = path.join(partialDir, crypto.randomUUID());
          fs.writeFileSync(file, Buffer.alloc(4096, 1));
          const when = new Date(Date.now() - ageMs);
          fs.utimesSync(file, when, when);
        },
        partialsUnseen: null,
        async leftovers() {
          return fs.existsSync(partialDir) ? fs.readdirSync(partialDir).length : 0;
        },
        folderOf: (key) => fs.existsSync(path.dirname(path.join(dir, key))),
        fileOf: (key) => path.join(dir, key),
        broken() {
          const file = path.join(dir, "not-a-dir");
          fs.writeFileSync(file, "");
          return createDiskStorage({ dir: path.join(file, "drops") });
        },
        fake: null,
        async close() {
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
    async shutdown() {},
  };
}

const FAUXQS_VERSION = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, "../../node_modules/fauxqs/package.json"), "utf8"),
).version as string;

/** fauxqs in this process, on a free port of 127.0.0.1 (not AWS: it checks no signature). */
export async function startS3Server(): Promise<{ endpoint: string; version: string; stop(): Promise<void> }> {
  const server = await startFauxqs({ port: 0, host: "127.0.0.1", logger: false });
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    version: `fauxqs ${FAUXQS_VERSION}`,
    stop: () => server.stop(),
  };
}

/** The server's environment for DROP_STORAGE=s3 on that endpoint, with its bucket made. */
export async function s3Env(endpoint: string, bucket: string): Promise<Record<string, string>> {
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    DROP_STORAGE: "s3",
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "local",
    S3_SECRET_ACCESS_KEY: "local",
    S3_FORCE_PATH_STYLE: "1",
  };
}

export function s3Harness(): StorageHarness {
  let server: Awaited<ReturnType<typeof startS3Server>> | undefined;
  const harness: StorageHarness = {
    name: "s3",
    server: `fauxqs ${FAUXQS_VERSION}`,
    async boot() {
      server = await startS3Server();
    },
    async fresh() {
      const bucket = `tapes-${process.pid}-${++seq}`;
      const options: S3Options = {
        bucket,
        endpoint: server!.endpoint,
        region: "us-east-1",
        credentials: { accessKeyId: "local", secretAccessKey: "local" },
        forcePathStyle: true,
        partSize: 5 * MiB,
      };
      const client: S3Client = s3Client(options);
      const commands: string[] = [];
      client.middlewareStack.add(
        (next, context) => (args) => {
          commands.push(String(context.commandName).replace(/Command$/, ""));
          return next(args);
        },
        { step: "initialize" },
      );
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      commands.length = 0;
      return {
        name: "s3",
        storage: createS3Storage({ ...options, client }),
        commands,
        // fauxqs takes a multipart upload, but does not list it back.
        abandonUpload: null,
        partialsUnseen: `fauxqs ${FAUXQS_VERSION} answers ListMultipartUploads with an empty list`,
        async leftovers() {
          return null;
        },
        broken: () => createS3Storage({ ...options, bucket: `missing-${bucket}` }),
        fake: null,
        async close() {
          client.destroy();
        },
      };
    },
    async shutdown() {
      await server?.stop();
    },
  };
  return harness;
}

/** The fake's Auth and Data API are not used here: no database behind them. */
const noDatabase = new Proxy({} as SqlDriver, {
  get(_, prop) {
    if (prop === "then") return undefined;
    return () => {
      throw new Error("the storage contract starts the Supabase fake without a database");
    };
  },
});

export function supabaseHarness(): StorageHarness {
  return {
    name: "supabase",
    server: "the Supabase fake's Storage API",
    async boot() {},
    async fresh() {
      const fake = await startSupabaseFake({ db: noDatabase });
      const storage = createSupabaseStorage({ url: fake.url, serviceKey: fake.serviceKey });
      return {
        name: "supabase",
        storage,
        commands: null,
        abandonUpload: null,
        partialsUnseen: null,
        async leftovers() {
          return null;
        },
        broken: () => createSupabaseStorage({ url: fake.url, serviceKey: fake.serviceKey, bucket: "missing" }),
        fake,
        async close() {
          await storage.close();
          await fake.close();
        },
      };
    },
    async shutdown() {},
  };
}

/** A harness for each kind of STORAGE_KINDS: a kind without one does not compile. */
const HARNESSES: Record<StorageKind, () => StorageHarness> = { disk: diskHarness, s3: s3Harness, supabase: supabaseHarness };

/** The adapters of the contract, in the order of STORAGE_KINDS. */
export function allStorageHarnesses(): StorageHarness[] {
  return STORAGE_KINDS.map((kind) => HARNESSES[kind]());
}
