// The process's backend, opened by the composition root (server/root.ts) before the server listens, so
// a locked data dir or an unreachable database stops start-up with a clear message.
import path from "node:path";
import type { Config } from "../platform/config.server";
import type { Mailer } from "../platform/mailer.server";
import { acquireDataDirLock } from "./lock.server";
import type { Backend } from "./port.server";
import { migrate, openPglite, openPostgres } from "./sql/db.server";
import { createSqlBackend } from "./sql/index.server";

/** Connected, migrated (the SQL modes), its mixers in step with MIXER_EMAILS. */
export async function openBackend(config: Config, mailer: Mailer): Promise<Backend> {
  const backend = await connect(config, mailer);
  try {
    await backend.syncMixers(config.mixerEmails);
  } catch (error) {
    await backend.close().catch(() => {});
    throw error;
  }
  return backend;
}

async function connect(config: Config, mailer: Mailer): Promise<Backend> {
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
    try {
      await migrate(db);
    } catch (error) {
      await db.close().catch(() => {});
      throw error;
    }
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
