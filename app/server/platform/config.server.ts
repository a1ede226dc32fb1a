// .env.example documents each variable; an empty one counts as unset.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { PRICE_WORDS } from "~/domain/copy";
import type { ShopWords } from "~/domain/shop-words";

const unsetIfEmpty = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const url = z.url({ error: "a URL such as https://shop.example.com" });
const flag = z.enum(["1", "true", "0", "false"], { error: "1 or 0" }).transform((v) => v === "1" || v === "true");

/**
 * Where a drop's tape may live (DROP_STORAGE): the one list. Each kind is an adapter in
 * app/server/storage/ (STORAGE_ADAPTERS) and a harness of the storage contract.
 */
export const STORAGE_KINDS = ["disk", "s3", "supabase"] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

const envSchema = z.object({
  NODE_ENV: z.string().default("development"),
  PORT: z.coerce.number({ error: "a port number" }).int().min(0).max(65535, "a port number").default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default(".data"),
  DATABASE_URL: z.string().optional(),
  SUPABASE_URL: url.optional(),
  SUPABASE_ANON_KEY: z.string().optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().optional(),
  MIXER_EMAILS: z.string().optional(),
  SESSION_SECRET: z.string().optional(),
  SITE_URL: url.optional(),
  ALLOWED_HOSTS: z.string().optional(),
  TRUST_PROXY: flag.default(false),
  DEFER_SCRIPTS: flag.default(true),
  BUFFER_HTML: flag.default(true),
  BATCH_DB_CALLS: flag.default(true),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Mixtape <no-reply@mixtape.local>"),
  MIXER_NAME: z.string().default("DJ Aika"),
  PRODUCT_LABEL: z.string().default("VIRTUAL MIXTAPE"),
  SHOP_TITLE: z.string().default("Underground Mixtape Shop"),
  SHOP_TAGLINE: z.string().default("Pirate radio for one. Hand-blended tapes from the underground."),
  PRICE_NOTE: z.string().default(PRICE_WORDS.note),
  CREATOR_URL: url.default("https://example.com"),
  CHECKOUT_URL: url.default("https://example.com/checkout"),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith("whsec_", "Stripe's signing secret, whsec_…").optional(),
  LEMONSQUEEZY_WEBHOOK_SECRET: z.string().min(6, "the signing secret set on the webhook (6 to 40 characters)").optional(),
  PAYMENT_WEBHOOK_SECRET: z.string().startsWith("whsec_", "a Standard Webhooks secret, whsec_ and base64").optional(),
  RATE_LIMIT_FACTOR: z.coerce.number({ error: "a positive number" }).positive("a positive number").default(1),
  BODY_LIMIT_BYTES: z.coerce
    .number({ error: "a number of bytes" })
    .int()
    .positive("a number of bytes")
    .default(16 * 1024),
  SHUTDOWN_GRACE_MS: z.coerce
    .number({ error: "a number of milliseconds" })
    .int("a number of milliseconds")
    .min(0, "a number of milliseconds")
    .default(10_000),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "silent"], { error: "one of fatal, error, warn, info, debug, silent" })
    .default("info"),
  DROP_STORAGE: z.enum(STORAGE_KINDS, { error: `one of ${STORAGE_KINDS.join(", ")}` }).default("disk"),
  DROP_MAX_MB: z.coerce.number({ error: "a number of megabytes" }).int().positive("a number of megabytes").default(300),
  DROP_KEEP_DAYS: z.coerce.number({ error: "a number of days" }).int().positive("a number of days").default(90),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: url.optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),
});

export type Env = z.infer<typeof envSchema>;

export type Config = Env & {
  sessionSecrets: string[];
  backendKind: "supabase" | "postgres" | "embedded";
  mixerEmails: string[];
  siteUrl: string;
  /** Empty: any well-formed Host. */
  allowedHosts: string[];
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration, one line per variable:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** The shop's words as the environment gives them: the defaults of a shop whose mixer saved none (shop-words.ts). */
export type ShopCopy = ShopWords;

export function shopCopy(config = getConfig()): ShopCopy {
  return {
    mixerName: config.MIXER_NAME,
    productLabel: config.PRODUCT_LABEL,
    title: config.SHOP_TITLE,
    tagline: config.SHOP_TAGLINE,
    priceNote: config.PRICE_NOTE,
    creatorUrl: config.CREATOR_URL,
    checkoutUrl: config.CHECKOUT_URL,
  };
}

/** One component at a time: Node's recursive mkdir spins forever where mkdir answers ENOENT (/proc). */
export function ensureWritableDir(dir: string): string | null {
  const full = path.resolve(dir);
  const missing: string[] = [];
  for (let p = full; !fs.existsSync(p); p = path.dirname(p)) {
    if (p === path.dirname(p)) break;
    missing.unshift(p);
  }
  try {
    for (const p of missing) fs.mkdirSync(p);
    if (!fs.statSync(full).isDirectory()) return `${full} is not a directory`;
    const probe = path.join(full, `.write-test-${process.pid}`);
    fs.writeFileSync(probe, "");
    fs.rmSync(probe);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return `${full} cannot be ${missing.length ? "created" : "written"} (${code})`;
  }
}

const dataDirProblem = (dir: string) => {
  const problem = ensureWritableDir(dir);
  return problem && `DATA_DIR: must be a writable directory; ${problem}.`;
};

function resolveSecrets(env: Env, kind: Config["backendKind"]): string[] {
  if (env.SESSION_SECRET) {
    const secrets = env.SESSION_SECRET.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (secrets.some((s) => s.length < 16)) throw new ConfigError(["SESSION_SECRET: each secret needs at least 16 characters."]);
    return secrets;
  }
  if (kind !== "embedded" && env.NODE_ENV === "production") {
    throw new ConfigError(["SESSION_SECRET: required in production with DATABASE_URL or Supabase."]);
  }
  const problem = dataDirProblem(env.DATA_DIR);
  if (problem) throw new ConfigError([problem]);
  const file = path.resolve(env.DATA_DIR, "session-secret");
  try {
    return [fs.readFileSync(file, "utf8").trim()];
  } catch {
    const secret = crypto.randomBytes(32).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return [secret];
  }
}

/** What the chosen DROP_STORAGE needs, one line per missing variable. */
function dropStorageProblems(env: Env): string[] {
  if (env.DROP_STORAGE === "s3") {
    const problems = env.S3_BUCKET ? [] : ["S3_BUCKET: required with DROP_STORAGE=s3."];
    if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY)
      problems.push("S3_ACCESS_KEY_ID: set together with S3_SECRET_ACCESS_KEY (or neither, for the SDK's own credentials).");
    return problems;
  }
  if (env.DROP_STORAGE === "supabase" && !(env.SUPABASE_URL && env.SUPABASE_SERVICE_ROLE_KEY))
    return ["DROP_STORAGE: supabase needs SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (the private bucket is read server-side)."];
  return [];
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.keys(envSchema.shape).map((key) => [key, unsetIfEmpty(source[key])]));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: must be ${issue.message}`));
  }
  const env = parsed.data;
  const backendKind = env.SUPABASE_URL && env.SUPABASE_ANON_KEY ? "supabase" : env.DATABASE_URL ? "postgres" : "embedded";
  const dirProblem = backendKind === "embedded" ? dataDirProblem(env.DATA_DIR) : null;
  if (dirProblem) throw new ConfigError([dirProblem]);
  const mixerEmails = [
    ...new Set(
      (env.MIXER_EMAILS ?? "")
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (!env.SITE_URL && backendKind !== "embedded" && env.NODE_ENV === "production") {
    throw new ConfigError(["SITE_URL: required in production with DATABASE_URL or Supabase (the origin of email links)."]);
  }
  const siteUrl = env.SITE_URL ? new URL(env.SITE_URL).origin : `http://localhost:${env.PORT}`;
  const allowedHosts = (env.ALLOWED_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const storageProblems = dropStorageProblems(env);
  if (storageProblems.length) throw new ConfigError(storageProblems);
  return { ...env, backendKind, mixerEmails, siteUrl, allowedHosts, sessionSecrets: resolveSecrets(env, backendKind) };
}

let cached: Config | undefined;
export function getConfig(): Config {
  cached ??= loadConfig();
  return cached;
}
