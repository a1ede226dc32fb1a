// Configuration: every environment variable, parsed once with zod.
// .env.example documents each one.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { z } from "zod";

const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional());
const optionalString = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());

const envSchema = z.object({
  NODE_ENV: z.string().default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default(".data"),
  DATABASE_URL: optionalString,
  SUPABASE_URL: optionalUrl,
  SUPABASE_ANON_KEY: optionalString,
  SESSION_SECRET: optionalString,
  SITE_URL: optionalUrl,
  TRUST_PROXY: z.preprocess((v) => v === "1" || v === "true", z.boolean()).default(false),
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default("Mixtape <no-reply@mixtape.local>"),
  MIXER_NAME: z.string().min(1).default("DJ Aika"),
  PRODUCT_LABEL: z.string().min(1).default("VIRTUAL MIXTAPE"),
  SHOP_TITLE: z.string().min(1).default("Underground Mixtape Shop"),
  SHOP_TAGLINE: z.string().min(1).default("Pirate radio for one. Hand-blended tapes from the underground."),
  CREATOR_URL: z.string().url().default("https://example.com"),
  CHECKOUT_URL: z.string().url().default("https://example.com/checkout"),
  RATE_LIMIT_FACTOR: z.coerce.number().positive().default(1),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(16 * 1024),
});

export type Env = z.infer<typeof envSchema>;

let cached: Config | undefined;

export type Config = Env & {
  sessionSecrets: string[];
  backendKind: "supabase" | "postgres" | "embedded";
};

export type ShopCopy = {
  mixerName: string;
  productLabel: string;
  title: string;
  tagline: string;
  creatorUrl: string;
  checkoutUrl: string;
};

export function shopCopy(config = getConfig()): ShopCopy {
  return {
    mixerName: config.MIXER_NAME,
    productLabel: config.PRODUCT_LABEL,
    title: config.SHOP_TITLE,
    tagline: config.SHOP_TAGLINE,
    creatorUrl: config.CREATOR_URL,
    checkoutUrl: config.CHECKOUT_URL,
  };
}

/** Reads SESSION_SECRET, or in embedded mode keeps a generated one in DATA_DIR. */
function resolveSecrets(env: Env, kind: Config["backendKind"]): string[] {
  if (env.SESSION_SECRET) {
    const secrets = env.SESSION_SECRET.split(",").map((s) => s.trim()).filter(Boolean);
    if (secrets.some((s) => s.length < 16)) throw new Error("SESSION_SECRET: each secret needs at least 16 characters.");
    return secrets;
  }
  if (kind !== "embedded" && env.NODE_ENV === "production") {
    throw new Error("SESSION_SECRET is required in production with a remote database.");
  }
  const file = path.resolve(env.DATA_DIR, "session-secret");
  try {
    return [fs.readFileSync(file, "utf8").trim()];
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const secret = crypto.randomBytes(32).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return [secret];
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env = envSchema.parse(source);
  const backendKind = env.SUPABASE_URL && env.SUPABASE_ANON_KEY ? "supabase" : env.DATABASE_URL ? "postgres" : "embedded";
  return { ...env, backendKind, sessionSecrets: resolveSecrets(env, backendKind) };
}

export function getConfig(): Config {
  cached ??= loadConfig();
  return cached;
}
