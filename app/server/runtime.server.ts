// The process-wide backend: chosen from the configuration, opened once, migrated
// once. The server entry calls boot() before listening, so a locked data dir or an
// unreachable database stops start-up with a clear message.
import path from "node:path";
import type { Backend } from "./backend.server";
import { getConfig } from "./config.server";
import { acquireDataDirLock, migrate, openPglite, openPostgres } from "./db.server";
import { createEmbeddedBackend } from "./embedded.server";
import { createMailer } from "./mailer.server";

const g = globalThis as typeof globalThis & { __mixtapeBackend?: Promise<Backend> };

async function open(): Promise<Backend> {
  const config = getConfig();
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR });
  if (config.backendKind === "supabase") {
    const { createSupabaseBackend } = await import("./supabase.server");
    return createSupabaseBackend({ url: config.SUPABASE_URL!, anonKey: config.SUPABASE_ANON_KEY! });
  }
  if (config.backendKind === "postgres") {
    const db = await openPostgres(config.DATABASE_URL!);
    await migrate(db);
    return createEmbeddedBackend({ db, mailer, shopTitle: config.SHOP_TITLE, kind: "postgres" });
  }
  const dataDir = path.resolve(config.DATA_DIR);
  const release = acquireDataDirLock(dataDir);
  try {
    const db = await openPglite(dataDir);
    await migrate(db);
    return createEmbeddedBackend({ db, mailer, shopTitle: config.SHOP_TITLE });
  } catch (error) {
    release();
    throw error;
  }
}

export function getBackend(): Promise<Backend> {
  if (!g.__mixtapeBackend) {
    g.__mixtapeBackend = open();
    g.__mixtapeBackend.catch(() => {
      g.__mixtapeBackend = undefined;
    });
  }
  return g.__mixtapeBackend;
}

export const boot = getBackend;
