// What a server left behind, for tests/system/faults.test.ts: the rows of every table, the files
// under a folder, and its log lines.
import fs from "node:fs";
import path from "node:path";
import type { SqlDriver } from "~/server/backend/sql/db.server";
import type { Server } from "../setup";

/** Rows of every table of the app's schemas (public, auth). */
export async function rowCounts(db: SqlDriver): Promise<Record<string, number>> {
  const { rows } = await db.query<{ name: string }>(
    `select table_schema || '.' || table_name as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema in ('public', 'auth') order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of rows)
    counts[name] = Number((await db.query<{ n: number }>(`select count(*) as n from ${name}`)).rows[0].n);
  return counts;
}

/** Every file under dir (relative paths), and every folder that holds nothing. */
export function leftovers(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((entry) => {
    const full = path.join(dir, entry);
    const stats = fs.statSync(full, { throwIfNoEntry: false }); // gone meanwhile: not left over
    return !!stats && (stats.isFile() || fs.readdirSync(full).length === 0);
  });
}

/** The server's log lines (JSON) from offset on. */
export const logLines = (server: Server, from: number) =>
  server
    .output()
    .slice(from)
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map(
      (line) => JSON.parse(line) as { level: number; msg: string; requestId?: string; res?: { status: number; db?: unknown } },
    );
