// Opened before listening, so a locked data dir or an unreachable database stops start-up with a clear message.
import path from "node:path";
import { getConfig } from "../platform/config.server";
import { getLog } from "../platform/log.server";
import { createMailer, type Mailer } from "../platform/mailer.server";
// The one exception to the layers: this composition root starts the order emails worker.
// eslint-disable-next-line no-restricted-imports
import { startOrderEmails } from "../services/order-emails.server";
import { acquireDataDirLock } from "./lock.server";
import type { Backend } from "./port.server";
import { migrate, openPglite, openPostgres } from "./sql/db.server";
import { createSqlBackend } from "./sql/index.server";

async function open(): Promise<Backend> {
  const config = getConfig();
  const log = getLog();
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    dataDir: config.DATA_DIR,
    log: (line) => log.info(line),
    logLinks: config.NODE_ENV === "development",
  });
  const backend = await connect(mailer);
  await backend.syncMixers(config.mixerEmails);
  const worker = startOrderEmails(backend, mailer);
  return {
    ...backend,
    close: async () => {
      await worker.stop();
      await backend.close();
    },
  };
}

async function connect(mailer: Mailer): Promise<Backend> {
  const config = getConfig();
  if (config.backendKind === "supabase") {
    const { createSupabaseBackend } = await import("./supabase/index.server");
    return createSupabaseBackend({
      url: config.SUPABASE_URL!,
      anonKey: config.SUPABASE_ANON_KEY!,
      serviceKey: config.SUPABASE_SERVICE_ROLE_KEY,
      mailer,
      shopTitle: config.SHOP_TITLE,
    });
  }
  if (config.backendKind === "postgres") {
    const db = await openPostgres(config.DATABASE_URL!);
    await migrate(db);
    return createSqlBackend({ db, mailer, shopTitle: config.SHOP_TITLE, batchCalls: config.BATCH_DB_CALLS });
  }
  const dataDir = path.resolve(config.DATA_DIR);
  const release = await acquireDataDirLock(dataDir);
  try {
    // The build's empty cluster (scripts/db-template.js); the server runs from the project's root.
    const db = await openPglite(dataDir, { template: path.resolve("build/server/pgdata-template") });
    await migrate(db);
    const backend = createSqlBackend({ db, mailer, shopTitle: config.SHOP_TITLE, batchCalls: config.BATCH_DB_CALLS });
    // The lock goes once the database is closed (checkpointed), not before.
    return { ...backend, close: () => backend.close().finally(release) };
  } catch (error) {
    release();
    throw error;
  }
}

// On globalThis: Vite's dev server re-evaluates server modules, and only one instance may hold the data-dir lock.
const g = globalThis as typeof globalThis & { __mixtapeBackend?: Promise<Backend> };

export function getBackend(): Promise<Backend> {
  if (!g.__mixtapeBackend) {
    g.__mixtapeBackend = open();
    g.__mixtapeBackend.catch(() => {
      g.__mixtapeBackend = undefined;
    });
  }
  return g.__mixtapeBackend;
}
