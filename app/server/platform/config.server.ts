// Configuration: every environment variable, parsed once with zod. .env.example
// documents each one. An empty variable counts as unset.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const unsetIfEmpty = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const url = z.url({ error: "a URL such as https://shop.example.com" });
const flag = z.enum(["1", "true", "0", "false"], { error: "1 or 0" }).transform((v) => v === "1" || v === "true");

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
  TRUST_PROXY: flag.default(false),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Mixtape <no-reply@mixtape.local>"),
  MIXER_NAME: z.string().default("DJ Aika"),
  PRODUCT_LABEL: z.string().default("VIRTUAL MIXTAPE"),
  SHOP_TITLE: z.string().default("Underground Mixtape Shop"),
  SHOP_TAGLINE: z.string().default("Pirate radio for one. Hand-blended tapes from the underground."),
  CREATOR_URL: url.default("https://example.com"),
  CHECKOUT_URL: url.default("https://example.com/checkout"),
  RATE_LIMIT_FACTOR: z.coerce.number({ error: "a positive number" }).positive("a positive number").default(1),
  BODY_LIMIT_BYTES: z.coerce
    .number({ error: "a number of bytes" })
    .int()
    .positive("a number of bytes")
    .default(16 * 1024),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "silent"], { error: "one of fatal, error, warn, info, debug, silent" })
    .default("info"),
});

export type Env = z.infer<typeof envSchema>;

export type Config = Env & {
  sessionSecrets: string[];
  backendKind: "supabase" | "postgres" | "embedded";
  /** MIXER_EMAILS, lower case. */
  mixerEmails: string[];
  /** The public origin for links in emails: SITE_URL, else this server on localhost. */
  siteUrl: string;
};

/** A configuration that cannot start the app: one line per bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

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
    const secrets = env.SESSION_SECRET.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (secrets.some((s) => s.length < 16)) throw new ConfigError(["SESSION_SECRET: each secret needs at least 16 characters."]);
    return secrets;
  }
  if (kind !== "embedded" && env.NODE_ENV === "production") {
    throw new ConfigError(["SESSION_SECRET: required in production with DATABASE_URL or Supabase."]);
  }
  const file = path.resolve(env.DATA_DIR, "session-secret");
  try {
    return [fs.readFileSync(file, "utf8").trim()];
  } catch {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const secret = crypto.randomBytes(32).toString("base64url");
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return [secret];
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ConfigError([`DATA_DIR: cannot write ${file} (${reason}); make the directory writable or set SESSION_SECRET.`]);
    }
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.keys(envSchema.shape).map((key) => [key, unsetIfEmpty(source[key])]));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: must be ${issue.message}`));
  }
  const env = parsed.data;
  const backendKind = env.SUPABASE_URL && env.SUPABASE_ANON_KEY ? "supabase" : env.DATABASE_URL ? "postgres" : "embedded";
  const mixerEmails = [
    ...new Set(
      (env.MIXER_EMAILS ?? "")
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const siteUrl = env.SITE_URL ? new URL(env.SITE_URL).origin : `http://localhost:${env.PORT}`;
  return { ...env, backendKind, mixerEmails, siteUrl, sessionSecrets: resolveSecrets(env, backendKind) };
}

let cached: Config | undefined;
export function getConfig(): Config {
  cached ??= loadConfig();
  return cached;
}
