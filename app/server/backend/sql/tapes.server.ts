// The drop's tapes: which file is which order's tape (under RLS), and the store's chores (the owner).
import type { SaveTapeOutcome, TapeCalls, TapeJobs } from "../port.server";
import { attempt, ownerQuery, type SqlDriver } from "./db.server";
import type { SqlContext } from "./index.server";

export function tapes({ asSession }: SqlContext): TapeCalls {
  return {
    saveTape: (code, tape) =>
      attempt<{ outcome: SaveTapeOutcome | null; replacedKey: string | null }>({ outcome: null, replacedKey: null }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ outcome: SaveTapeOutcome; replaced_key: string | null }>(
            `select * from public.save_tape($1, $2, $3, $4, $5, $6)`,
            [code, tape.key, tape.fileName, tape.contentType, tape.size, tape.durationSeconds],
          ),
        );
        return { outcome: rows[0]?.outcome ?? null, replacedKey: rows[0]?.replaced_key ?? null };
      }),

    countTapeDownload: (code) =>
      attempt({ counted: false }, async () => {
        const { rows } = await asSession((tx) =>
          tx.query<{ counted: boolean }>(`select public.count_tape_download($1) as counted`, [code]),
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
