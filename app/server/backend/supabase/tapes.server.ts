// The drop's tapes: which file is which order's tape (under RLS), and the store's chores (service role).
import type { SupabaseClient } from "@supabase/supabase-js";
import type { SaveTapeOutcome, TapeCalls, TapeJobs } from "../port.server";
import { check, must, rowsOf } from "./client.server";
import type { SupabaseContext } from "./context.server";

export function tapes({ supabase }: SupabaseContext): TapeCalls {
  return {
    async saveTape(code, tape) {
      const { data, error } = await supabase.rpc("save_tape", {
        p_code: code,
        p_key: tape.key,
        p_file_name: tape.fileName,
        p_content_type: tape.contentType,
        p_size: tape.size,
        p_duration: tape.durationSeconds,
        p_notice: tape.notice,
      });
      const row = rowsOf(data)[0] as { outcome?: SaveTapeOutcome; replaced_key?: string | null } | undefined;
      return { outcome: row?.outcome ?? null, replacedKey: row?.replaced_key ?? null, error: check(error) };
    },
    async tapeFile(code, as) {
      const { data, error } = await supabase.rpc("tape_file", { p_code: code, p_as: as });
      const row = rowsOf(data)[0] as { storage_key?: string; codename?: string | null; deleted?: boolean } | undefined;
      const file = row?.storage_key
        ? { key: row.storage_key, codename: row.codename ?? null, deleted: row.deleted === true }
        : null;
      return { file, error: check(error) };
    },
    async countTapeDownload(code, from) {
      const { data, error } = await supabase.rpc("count_tape_download", { p_code: code, p_from: from });
      return { counted: data === true, error: check(error) };
    },
  };
}

export function tapeJobs(service: SupabaseClient): TapeJobs {
  return {
    async expire(keepDays) {
      const { data, error } = await service.rpc("expire_tapes", { p_keep_days: keepDays });
      must(error);
      return Number(data ?? 0);
    },
    async queueDeletion(key) {
      must((await service.rpc("queue_storage_deletion", { p_key: key })).error);
    },
    async claimDeletions(batch) {
      const { data, error } = await service.rpc("claim_storage_deletions", { batch });
      must(error);
      return rowsOf(data).map((r) => ({ key: String(r.storage_key), attempts: Number(r.attempts) }));
    },
    async finishDeletion(key, error) {
      must((await service.rpc("finish_storage_deletion", { p_key: key, p_error: error })).error);
    },
  };
}
