// PostgREST over a real database, for the Supabase fake: each request of /rest/v1 becomes
// one parameterised SQL statement on the tables and functions of schema `public`, run in
// one transaction as the caller's role, so the database's own RLS policies, grants,
// triggers, constraints and functions decide (nothing here knows a table by name).
//
// Modelled (PostgREST 12's behaviour, as supabase-js uses it):
// - GET (and HEAD) /<table>: select (columns, `alias:column`, `*`, embedding through a
//   foreign key: `profiles(username)` many-to-one gives an object or null, one-to-many
//   an array; `name!hint(...)` picks the key by constraint or column), filters eq neq gt
//   gte lt lte like ilike (`*` as `%`) match imatch cs cd ov is in, each with `not.`,
//   `or=(...)` / `and=(...)` trees, order (col.asc|desc[.nullsfirst|nullslast]), limit,
//   offset, `Prefer: count=exact` (Content-Range), and the single-object Accept header.
// - POST (one object or an array; `columns=`; upsert with `Prefer: resolution=` and
//   `on_conflict=`), PATCH and DELETE with the same filters; `Prefer: return=representation`
//   answers the rows (with `select`), otherwise 201 / 204 with no body. Only the columns
//   in the body are written, so column grants apply as in Postgres.
// - POST /rpc/<fn> (and GET with the arguments in the query): named arguments; a scalar or
//   composite result is its JSON, a set an array, void 204.
// - Computed fields: a function of one argument of the table's row type reads as a column
//   of that table in `select` (with an alias) and in filters (reads only).
// - Errors `{ code, message, details, hint }` with PostgREST's status for the SQLSTATE.
// Not modelled: embedded filters and ordering, casts, JSON paths, `missing=default`,
// range headers, filters on function results, read-only GET transactions.
import type { Sql, SqlDriver } from "~/server/backend/sql/db.server";
import { Refusal, SCHEMA_MISSES, failure } from "./postgrest/errors";
import { splitTop, unquote, RESERVED, filters, ordering, integer, project } from "./postgrest/query";
import { type Table, type Fn, type Schema, q, loadSchema, computedField } from "./postgrest/schema";

export type PostgrestCaller = {
  role: "anon" | "authenticated" | "service_role";
  /** The verified JWT payload, set as request.jwt.claims. */
  claims: Record<string, unknown>;
};
export type PostgrestRequest = {
  method: string;
  /** The path after /rest/v1/, e.g. "mixtapes" or "rpc/username_exists". */
  resource: string;
  search: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
};
export type PostgrestAnswer = { status: number; body?: unknown; headers?: Record<string, string> };

/** The handler of /rest/v1/* over this database. */
export function createPostgrest(db: SqlDriver) {
  let cached: Schema | null = null;

  /** Runs fn in one transaction as the caller: anon and authenticated under RLS, service_role as the owner. */
  const asCaller = <T>(caller: PostgrestCaller, fn: (tx: Sql) => Promise<T>) =>
    db.transaction(async (tx) => {
      const claims = JSON.stringify(caller.claims);
      if (caller.role === "service_role") await tx.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
      else
        await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('role', $2, true)`, [claims, caller.role]);
      return fn(tx);
    });

  async function handle(req: PostgrestRequest, caller: PostgrestCaller): Promise<PostgrestAnswer> {
    // The schema cache is loaded once and reloaded once when a name is not in it (a table
    // or function created since, as PostgREST reloads on NOTIFY pgrst).
    let fresh = !cached;
    for (;;) {
      const schema = (cached ??= await loadSchema(db));
      try {
        return await dispatch(req, caller, schema);
      } catch (e) {
        if (e instanceof Refusal && SCHEMA_MISSES.has(e.code) && !fresh) {
          cached = null;
          fresh = true;
          continue;
        }
        return failure(e, caller);
      }
    }
  }

  async function dispatch(req: PostgrestRequest, caller: PostgrestCaller, schema: Schema): Promise<PostgrestAnswer> {
    if (req.resource.startsWith("rpc/")) return rpc(req, caller, schema);
    const table = schema.tables.get(req.resource);
    if (!table) throw new Refusal(404, "PGRST205", `Could not find the table 'public.${req.resource}' in the schema cache`);
    return tableRequest(req, caller, table, schema);
  }

  // ---- Tables -----------------------------------------------------------------------

  async function tableRequest(
    req: PostgrestRequest,
    caller: PostgrestCaller,
    table: Table,
    schema: Schema,
  ): Promise<PostgrestAnswer> {
    const params: unknown[] = [];
    const bind = (v: unknown) => `$${params.push(v)}`;
    const prefer = req.headers.prefer ?? "";
    const single = (req.headers.accept ?? "").includes("application/vnd.pgrst.object+json");
    const column = (name: string) => {
      if (table.columns.has(name)) return `_t0.${q(name)}`;
      if (req.method === "GET" && computedField(schema, table, name)) return `public.${q(name)}(_t0)`;
      throw new Refusal(400, "42703", `column ${table.name}.${name} does not exist`);
    };
    const where = () => filters(req.search, column, bind);
    const projection = () => project(schema, table, req.search.get("select") ?? "*", "_t0", { n: 0 });
    const rowsAsJson = (from: string) => `select coalesce(json_agg(_r), '[]') as body from (${from}) _r`;
    /** The rows (checked when one object was asked for; a write is then rolled back). */
    const answer = (rows: unknown[], status: number, headers: Record<string, string> = {}): PostgrestAnswer => {
      if (!single) return { status, body: rows, headers };
      if (rows.length !== 1)
        throw new Refusal(
          406,
          "PGRST116",
          "JSON object requested, multiple (or no) rows returned",
          `The result contains ${rows.length} rows`,
        );
      return { status, body: rows[0], headers };
    };

    if (req.method === "GET" || req.method === "HEAD") {
      const conditions = where();
      const order = ordering(req.search.get("order"), column);
      const limit = integer(req.search.get("limit"), "limit");
      const offset = integer(req.search.get("offset"), "offset");
      const tail = `${order}${limit === null ? "" : ` limit ${bind(limit)}`}${offset === null ? "" : ` offset ${bind(offset)}`}`;
      const sql = rowsAsJson(`select ${projection()} from public.${q(table.name)} _t0${conditions}${tail}`);
      return asCaller(caller, async (tx) => {
        const rows = (await tx.query<{ body: unknown[] }>(sql, params)).rows[0].body;
        let total = "*";
        if (/count=exact/.test(prefer)) {
          const counted = params.slice(0, params.length - (limit === null ? 0 : 1) - (offset === null ? 0 : 1));
          const { rows: c } = await tx.query<{ n: number }>(
            `select count(*)::int as n from public.${q(table.name)} _t0${conditions}`,
            counted,
          );
          total = String(c[0].n);
        }
        const first = offset ?? 0;
        const range = rows.length ? `${first}-${first + rows.length - 1}/${total}` : `*/${total}`;
        const out = answer(rows, 200, { "Content-Range": range });
        return req.method === "HEAD" ? { ...out, body: undefined } : out;
      });
    }

    const representation = /return=representation/.test(prefer);
    const returning = (dml: string) =>
      representation ? `with _w as (${dml} returning _t0.*) ${rowsAsJson(`select ${projection()} from _w _t0`)}` : dml;
    const run = (sql: string, status: number) =>
      asCaller(caller, async (tx) => {
        const { rows } = await tx.query<{ body: unknown[] }>(sql, params);
        return representation ? answer(rows[0].body, status) : { status: status === 200 ? 204 : status };
      });
    const payloadColumns = (keys: string[]) => {
      for (const k of keys)
        if (!table.columns.has(k))
          throw new Refusal(400, "PGRST204", `Could not find the '${k}' column of '${table.name}' in the schema cache`);
      return keys;
    };
    const record = `null::public.${q(table.name)}`;

    if (req.method === "POST") {
      const rows = Array.isArray(req.body) ? req.body : [req.body];
      if (!rows.every((r) => r !== null && typeof r === "object" && !Array.isArray(r)))
        throw new Refusal(400, "PGRST102", "Empty or invalid json");
      const listed = req.search.get("columns");
      let keys: string[];
      if (listed !== null) keys = splitTop(listed).map(unquote);
      else {
        keys = Object.keys(rows[0] ?? {});
        const same = (r: object) => Object.keys(r).length === keys.length && keys.every((k) => k in r);
        if (!rows.every(same)) throw new Refusal(400, "PGRST102", "All object keys must match");
      }
      const cols = payloadColumns(keys).map(q).join(", ");
      const target = keys.length ? ` (${cols})` : "";
      let conflict = "";
      const resolution = /resolution=(merge|ignore)-duplicates/.exec(prefer)?.[1];
      if (resolution) {
        const on =
          req.search
            .get("on_conflict")
            ?.split(",")
            .map((c) => c.trim()) ?? table.pk;
        for (const c of on) column(c);
        const sets = keys.map((k) => `${q(k)} = excluded.${q(k)}`).join(", ");
        conflict = ` on conflict (${on.map(q).join(", ")}) ${resolution === "merge" && sets ? `do update set ${sets}` : "do nothing"}`;
      }
      const dml = `insert into public.${q(table.name)} as _t0${target} select ${cols} from json_populate_recordset(${record}, ${bind(JSON.stringify(rows))}::json)${conflict}`;
      return run(returning(dml), 201);
    }

    if (req.method === "PATCH") {
      const patch = req.body;
      if (patch === null || typeof patch !== "object" || Array.isArray(patch))
        throw new Refusal(400, "PGRST102", "Empty or invalid json");
      const keys = payloadColumns(Object.keys(patch));
      if (!keys.length) return representation ? answer([], 200) : { status: 204 };
      const sets = keys.map((k) => `${q(k)} = _p.${q(k)}`).join(", ");
      const payload = bind(JSON.stringify(patch));
      return run(
        returning(
          `update public.${q(table.name)} _t0 set ${sets} from json_populate_record(${record}, ${payload}::json) _p${where()}`,
        ),
        200,
      );
    }

    if (req.method === "DELETE") return run(returning(`delete from public.${q(table.name)} _t0${where()}`), 200);

    throw new Refusal(405, "PGRST117", `Unsupported HTTP method: ${req.method}`);
  }

  // ---- Functions --------------------------------------------------------------------

  async function rpc(req: PostgrestRequest, caller: PostgrestCaller, schema: Schema): Promise<PostgrestAnswer> {
    const name = req.resource.slice("rpc/".length);
    if (req.method !== "POST" && req.method !== "GET")
      throw new Refusal(405, "PGRST101", "Only GET and POST verbs are allowed for functions");
    let args: Record<string, unknown>;
    if (req.method === "GET") {
      args = Object.fromEntries([...req.search].filter(([k]) => !RESERVED.has(k)));
    } else {
      const body = req.body ?? {};
      if (typeof body !== "object" || Array.isArray(body)) throw new Refusal(400, "PGRST102", "Empty or invalid json");
      args = body as Record<string, unknown>;
    }
    const keys = Object.keys(args);
    const fits = (f: Fn) =>
      keys.every((k) => f.args.some((a) => a.name === k)) && f.args.every((a) => a.optional || keys.includes(a.name));
    const matches = (schema.fns.get(name) ?? []).filter(fits);
    if (matches.length === 0) {
      const signature = keys.length ? `(${[...keys].sort().join(", ")})` : " without parameters";
      throw new Refusal(
        404,
        "PGRST202",
        `Could not find the function public.${name}${signature} in the schema cache`,
        `Searched for the function public.${name}${keys.length ? ` with parameters ${[...keys].sort().join(", ")}` : " without parameters"}, but no matches were found in the schema cache.`,
      );
    }
    if (matches.length > 1)
      throw new Refusal(300, "PGRST203", `Could not choose the best candidate function between: public.${name}`);
    const fn = matches[0];
    const params = keys.length ? [JSON.stringify(args)] : [];
    const call = `public.${q(name)}(${keys.map((k) => `${q(k)} => _a.${q(k)}`).join(", ")})`;
    // json_to_record turns the JSON arguments into the parameters' types, as PostgREST does.
    const typed = keys.map((k) => `${q(k)} ${fn.args.find((a) => a.name === k)!.type}`).join(", ");
    const source = keys.length ? `json_to_record($1::json) as _a(${typed})` : null;
    return asCaller(caller, async (tx) => {
      if (fn.void) {
        await tx.query(`select ${call}${source ? ` from ${source}` : ""}`, params);
        return { status: 204 };
      }
      const sql = fn.set
        ? `select coalesce(json_agg(_r), '[]') as body from ${source ? `${source}, ` : ""}${call} _r`
        : `select to_json(${call}) as body${source ? ` from ${source}` : ""}`;
      const { rows } = await tx.query<{ body: unknown }>(sql, params);
      return { status: 200, body: rows[0]?.body ?? null };
    });
  }

  return { handle };
}
