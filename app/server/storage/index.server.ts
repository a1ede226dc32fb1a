// The tape's store, chosen by DROP_STORAGE (disk by default); the composition root (server/root.ts)
// builds the process's one (the AWS SDK and supabase-js are loaded only when chosen).
import path from "node:path";
import { getConfig, type Config, type StorageKind } from "../platform/config.server";
import { PARTIAL_UPLOAD_TTL_MS, type Storage } from "./port.server";

/** Each kind of STORAGE_KINDS (platform/config.server.ts) and how it is built: a kind without an adapter does not compile. */
export const STORAGE_ADAPTERS: Record<StorageKind, (config: Config) => Promise<Storage>> = {
  async disk(config) {
    const { createDiskStorage } = await import("./disk.server");
    return createDiskStorage({ dir: path.join(path.resolve(config.DATA_DIR), "drops") });
  },
  async s3(config) {
    const { createS3Storage } = await import("./s3.server");
    const credentials =
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined;
    return createS3Storage({
      bucket: config.S3_BUCKET!,
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      credentials,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  },
  async supabase(config) {
    const { createSupabaseStorage } = await import("./supabase.server");
    return createSupabaseStorage({ url: config.SUPABASE_URL!, serviceKey: config.SUPABASE_SERVICE_ROLE_KEY! });
  },
};

export const createStorage = (config: Config): Promise<Storage> => STORAGE_ADAPTERS[config.DROP_STORAGE](config);

/** The largest tape accepted, in bytes (DROP_MAX_MB). */
export const dropLimitBytes = (config = getConfig()) => config.DROP_MAX_MB * 1024 * 1024;

/** Removes the partial uploads abandoned for a day (a periodic job calls it); answers how many. */
export async function sweepPartials(storage: Storage, now = new Date()): Promise<number> {
  const abandoned = await storage.partials(new Date(now.getTime() - PARTIAL_UPLOAD_TTL_MS));
  for (const partial of abandoned) await storage.dropPartial(partial.id);
  return abandoned.length;
}

/**
 * Where the browser fetches a tape from when the store signs its URLs (S3, Supabase): the page's
 * CSP lets its player load from there (media-src). Null on disk: the tape comes from this origin.
 */
export function tapeOrigin(config: Config = getConfig()): string | null {
  if (config.DROP_STORAGE === "supabase") return config.SUPABASE_URL ? new URL(config.SUPABASE_URL).origin : null;
  if (config.DROP_STORAGE !== "s3") return null;
  if (config.S3_ENDPOINT) {
    const endpoint = new URL(config.S3_ENDPOINT);
    // Virtual-hosted style names the bucket in the host.
    return config.S3_FORCE_PATH_STYLE ? endpoint.origin : `${endpoint.protocol}//${config.S3_BUCKET}.${endpoint.host}`;
  }
  const region = config.S3_REGION ?? "us-east-1";
  return config.S3_FORCE_PATH_STYLE
    ? `https://s3.${region}.amazonaws.com`
    : `https://${config.S3_BUCKET}.s3.${region}.amazonaws.com`;
}
