// The drop's tapes: which file is which order's tape (under RLS), and the store's chores (the owner).
import type { SaveTapeOutcome, TapeCalls, TapeFile, TapeJobs } from "../port.server";
import { attempt, ownerQuery, type SqlDriver } from "./db.server";
import type { SqlContext } from "./context.server";

export function tapes({ asSession }: SqlContext): TapeCalls {
  return {
    saveTape: (code, tape) =>
      attempt<{ outcome: SaveTapeOutcome | null; replacedKey: string | null }>({ outcome: null, replacedKey: null }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ outcome: SaveTapeOutcome; replaced_key: string | null }>(
            `select * from public.save_tape($1, $2, $3, $4, $5, $6, $7)`,
            [code, tape.key, tape.fileName, tape.contentType, tape.size, tape.durationSeconds, tape.notice],
          ),
        );
        return { outcome: rows[0]?.outcome ?? null, replacedKey: rows[0]?.replaced_key ?? null };
      }),

    tapeFile: (code, as) =>
      attempt<{ file: TapeFile | null }>({ file: null }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ storage_key: string; codename: string | null; deleted: boolean }>(`select * from public.tape_file($1, $2)`, [
            code,
            as,
          ]),
        );
        const row = rows[0];
        return { file: row ? { key: row.storage_key, codename: row.codename, deleted: row.deleted } : null };
      }),

    countTapeDownload: (code, from) =>
      attempt({ counted: false }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ counted: boolean }>(`select public.count_tape_download($1, $2) as counted`, [code, from]),
        );
        return { counted: rows[0]?.counted === true };
      }),
  };
}

export function tapeJobs(db: SqlDriver): TapeJobs {
  return {
    async expire(keepDays) {
      const rows = await ownerQuery<{ n: number }>(db, `select public.expire_tapes($1) as n`, [keepDays]);
      return Number(rows[0]?.n ?? 0);
    },
    async queueDeletion(key) {
      await ownerQuery(db, `select public.queue_storage_deletion($1)`, [key]);
    },
    async claimDeletions(batch) {
      const rows = await ownerQuery<{ storage_key: string; attempts: number }>(
        db,
        `select * from public.claim_storage_deletions($1)`,
        [batch],
      );
      return rows.map((r) => ({ key: r.storage_key, attempts: Number(r.attempts) }));
    },
    async finishDeletion(key, error) {
      await ownerQuery(db, `select public.finish_storage_deletion($1, $2)`, [key, error]);
    },
  };
}
