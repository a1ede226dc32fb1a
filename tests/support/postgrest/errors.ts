// PostgREST's refusals and its HTTP status for a database error (tests/support/postgrest.ts).
import type { PostgrestCaller, PostgrestAnswer } from "../postgrest";

export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
  ) {
    super(message);
  }
}
export const parseError = (what: string) => new Refusal(400, "PGRST100", `"failed to parse ${what}"`);
/** Refusals that a reload of the schema cache may cure. */
export const SCHEMA_MISSES = new Set(["PGRST200", "PGRST202", "PGRST204", "PGRST205", "42703"]);

/** An error as PostgREST answers it: its own refusals, or the database's SQLSTATE. */
export function failure(e: unknown, caller: PostgrestCaller): PostgrestAnswer {
  if (e instanceof Refusal)
    return { status: e.status, body: { code: e.code, message: e.message, details: e.details, hint: e.hint } };
  const pg = e as { code?: unknown; message?: string; detail?: string; hint?: string };
  if (typeof pg.code !== "string" || !/^[0-9A-Z]{5}$/.test(pg.code)) throw e;
  return {
    status: statusFor(pg.code, caller.role),
    body: { code: pg.code, message: pg.message ?? "", details: pg.detail ?? null, hint: pg.hint ?? null },
  };
}

/** PostgREST's HTTP status for a SQLSTATE (docs: Errors, HTTP Status Codes). */
export function statusFor(code: string, role: PostgrestCaller["role"]): number {
  if (code === "42501") return role === "anon" ? 401 : 403;
  if (code === "23503" || code === "23505") return 409;
  if (code === "25006") return 405;
  if (code === "42883" || code === "42P01") return 404;
  if (code === "P0001") return 400;
  if (code === "53400") return 500;
  if (/^(08|53)/.test(code)) return 503;
  if (/^(0L|0P|28)/.test(code)) return 403;
  if (/^(09|25|2D|38|39|3B|40|54|55|57|58|F0|HV|P0|XX)/.test(code) || code === "42P17") return 500;
  return 400;
}
