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

type Table = { name: string; columns: Map<string, string>; pk: string[] };
type ForeignKey = { name: string; from: string; fromCols: string[]; to: string; toCols: string[] };
type Fn = { name: string; args: { name: string; type: string; optional: boolean }[]; set: boolean; void: boolean };
type Schema = { tables: Map<string, Table>; fks: ForeignKey[]; fns: Map<string, Fn[]> };

class Refusal extends Error {
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
const parseError = (what: string) => new Refusal(400, "PGRST100", `"failed to parse ${what}"`);
/** Refusals that a reload of the schema cache may cure. */
const SCHEMA_MISSES = new Set(["PGRST200", "PGRST202", "PGRST204", "PGRST205", "42703"]);

/** An error as PostgREST answers it: its own refusals, or the database's SQLSTATE. */
function failure(e: unknown, caller: PostgrestCaller): PostgrestAnswer {
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

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Splits on the commas outside parentheses and double quotes. */
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === "(") depth++;
    else if (!quoted && c === ")") depth--;
    else if (!quoted && depth === 0 && c === ",") {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}
const unquote = (v: string) => (/^".*"$/s.test(v) ? v.slice(1, -1).replace(/\\(.)/g, "$1") : v);

async function loadSchema(db: SqlDriver): Promise<Schema> {
  const columns = await db.query<{ table: string; column: string; type: string }>(
    `select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'f', 'p')
      order by c.relname, a.attnum`,
  );
  const keys = await db.query<{
    name: string;
    type: string;
    from: string;
    to: string | null;
    from_cols: string[];
    to_cols: string[] | null;
  }>(
    `select con.conname as name, con.contype::text as type, src.relname as from, dst.relname as to,
            (select json_agg(a.attname order by k.i) from unnest(con.conkey) with ordinality k(n, i)
               join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n) as from_cols,
            (select json_agg(a.attname order by k.i) from unnest(con.confkey) with ordinality k(n, i)
               join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n) as to_cols
       from pg_constraint con
       join pg_class src on src.oid = con.conrelid join pg_namespace sn on sn.oid = src.relnamespace
       left join pg_class dst on dst.oid = con.confrelid left join pg_namespace dn on dn.oid = dst.relnamespace
      where sn.nspname = 'public' and (con.contype = 'p' or (con.contype = 'f' and dn.nspname = 'public'))`,
  );
  const fns = await db.query<{
    name: string;
    set: boolean;
    void: boolean;
    defaults: number;
    names: string[] | null;
    modes: string[] | null;
    types: string[] | null;
  }>(
    `select p.proname as name, p.proretset as set, p.prorettype = 'void'::regtype as void, p.pronargdefaults as defaults,
            to_json(p.proargnames) as names, to_json(p.proargmodes::text[]) as modes,
            (select json_agg(format_type(t, null) order by i) from unnest(p.proargtypes::oid[]) with ordinality u(t, i)) as types
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype`,
  );
  const schema: Schema = { tables: new Map(), fks: [], fns: new Map() };
  for (const r of columns.rows) {
    const table = schema.tables.get(r.table) ?? { name: r.table, columns: new Map(), pk: [] };
    table.columns.set(r.column, r.type);
    schema.tables.set(r.table, table);
  }
  for (const k of keys.rows) {
    if (k.type === "p") schema.tables.get(k.from)!.pk = k.from_cols;
    else schema.fks.push({ name: k.name, from: k.from, fromCols: k.from_cols, to: k.to!, toCols: k.to_cols! });
  }
  for (const f of fns.rows) {
    const names = f.names ?? [];
    const types = f.types ?? [];
    // proargtypes holds the input arguments only; proargmodes (when set) says which names they are.
    const inputNames = f.modes ? names.filter((_, i) => ["i", "b", "v"].includes(f.modes![i])) : names;
    const args = types.map((type, i) => ({ name: inputNames[i] ?? "", type, optional: i >= types.length - f.defaults }));
    schema.fns.set(f.name, [...(schema.fns.get(f.name) ?? []), { name: f.name, args, set: f.set, void: f.void }]);
  }
  return schema;
}

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

// ---- Query parts ----------------------------------------------------------------------

const COMPARE: Record<string, string> = {
  eq: "=",
  neq: "<>",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  like: "like",
  ilike: "ilike",
  match: "~",
  imatch: "~*",
  cs: "@>",
  cd: "<@",
  ov: "&&",
};
const RESERVED = new Set(["select", "order", "limit", "offset", "columns", "on_conflict"]);

/** The WHERE clause of the filters in the query (values bound, columns checked). */
function filters(search: URLSearchParams, column: (name: string) => string, bind: (v: unknown) => string): string {
  const conditions: string[] = [];
  for (const [key, value] of search) {
    if (RESERVED.has(key)) continue;
    const logic = /^(not\.)?(or|and)$/.exec(key);
    if (logic) conditions.push(tree(`${logic[1] ?? ""}${logic[2]}${value}`, column, bind));
    else conditions.push(condition(key, value, column, bind));
  }
  return conditions.length ? ` where ${conditions.join(" and ")}` : "";
}

/** One `col=[not.]op.value` filter. */
function condition(key: string, expr: string, column: (name: string) => string, bind: (v: unknown) => string): string {
  const m = /^(not\.)?(\w+)\.(.*)$/s.exec(expr);
  if (!m || !/^\w+$/.test(key)) throw parseError(`filter (${expr})`);
  const [, not, op, operand] = m;
  const col = column(key);
  let sql: string;
  if (op === "is") {
    const literal = { null: "null", true: "true", false: "false", unknown: "unknown" }[operand.toLowerCase()];
    if (!literal) throw parseError(`filter (${expr})`);
    sql = `${col} is ${literal}`;
  } else if (op === "in") {
    const list = /^\((.*)\)$/s.exec(operand);
    if (!list) throw parseError(`filter (${expr})`);
    const items = list[1].trim() ? splitTop(list[1]).map(unquote) : [];
    sql = items.length ? `${col} in (${items.map(bind).join(", ")})` : "false";
  } else if (COMPARE[op]) {
    const value = op === "like" || op === "ilike" ? operand.replace(/\*/g, "%") : operand;
    sql = `${col} ${COMPARE[op]} ${bind(value)}`;
  } else throw parseError(`filter (${expr})`);
  return not ? `not (${sql})` : sql;
}

/** An `or=(a.eq.1,and(b.gt.2,c.is.null))` tree; its values may be double-quoted. */
function tree(expr: string, column: (name: string) => string, bind: (v: unknown) => string): string {
  const m = /^(not\.)?(or|and)\((.*)\)$/s.exec(expr);
  if (!m) throw parseError(`logic tree (${expr})`);
  const parts = splitTop(m[3]).map((item) => {
    if (/^(not\.)?(or|and)\(/.test(item)) return tree(item, column, bind);
    const f = /^(\w+)\.((?:not\.)?(\w+)\.)(.*)$/s.exec(item);
    if (!f) throw parseError(`logic tree (${expr})`);
    return condition(f[1], f[2] + (f[3] === "in" ? f[4] : unquote(f[4])), column, bind);
  });
  const joined = `(${parts.join(` ${m[2]} `)})`;
  return m[1] ? `not ${joined}` : joined;
}

function ordering(order: string | null, column: (name: string) => string): string {
  if (!order) return "";
  const terms = splitTop(order).map((term) => {
    const m = /^(\w+)(?:\.(asc|desc))?(?:\.(nullsfirst|nullslast))?$/.exec(term);
    if (!m) throw parseError(`order (${term})`);
    const [, name, dir, nulls] = m;
    return `${column(name)}${dir ? ` ${dir}` : ""}${nulls ? ` nulls ${nulls.slice(5)}` : ""}`;
  });
  return ` order by ${terms.join(", ")}`;
}

function integer(value: string | null, what: string): number | null {
  if (value === null) return null;
  if (!/^\d+$/.test(value)) throw parseError(`${what} (${value})`);
  return Number(value);
}

/** The select list: columns, `*`, and embedded resources through foreign keys (as JSON). */
function project(schema: Schema, table: Table, select: string, alias: string, counter: { n: number }): string {
  return splitTop(select)
    .map((item) => {
      if (item === "*") return `${alias}.*`;
      const m = /^(?:(\w+)\s*:\s*)?(\w+)(?:!(\w+))?(?:\s*\((.*)\))?$/s.exec(item);
      if (!m) throw parseError(`select (${item})`);
      const [, label, name, hint, inner] = m;
      if (inner === undefined) {
        if (hint) throw parseError(`select (${item})`);
        if (!table.columns.has(name) && computedField(schema, table, name))
          return `public.${q(name)}(${alias}) as ${q(label ?? name)}`;
        if (!table.columns.has(name)) throw new Refusal(400, "42703", `column ${table.name}.${name} does not exist`);
        return `${alias}.${q(name)}${label ? ` as ${q(label)}` : ""}`;
      }
      const rel = relation(schema, table.name, name, hint);
      const sub = `_t${++counter.n}`;
      const on = rel.pairs.map(([mine, theirs]) => `${sub}.${q(theirs)} = ${alias}.${q(mine)}`).join(" and ");
      const rows = `select ${project(schema, rel.table, inner.trim() || "*", sub, counter)} from public.${q(name)} ${sub} where ${on}`;
      const e = `_e${counter.n}`;
      const json = rel.many
        ? `(select coalesce(json_agg(${e}), '[]') from (${rows}) ${e})`
        : `(select to_json(${e}) from (${rows}) ${e})`;
      return `${json} as ${q(label ?? name)}`;
    })
    .join(", ");
}

/** PostgREST's computed field: a function whose one argument is the table's row. */
function computedField(schema: Schema, table: Table, name: string): boolean {
  return (schema.fns.get(name) ?? []).some(
    (f) => f.args.length === 1 && (f.args[0].type === table.name || f.args[0].type === `public.${table.name}`),
  );
}

/** The foreign key between two tables, either way: many-to-one (an object) or one-to-many (an array). */
function relation(schema: Schema, from: string, to: string, hint: string | undefined) {
  const target = schema.tables.get(to);
  const fits = (fk: ForeignKey, cols: string[]) => !hint || fk.name === hint || cols.includes(hint);
  const found = [
    ...schema.fks
      .filter((fk) => fk.from === from && fk.to === to && fits(fk, fk.fromCols))
      .map((fk) => ({ many: false, pairs: fk.fromCols.map((c, i) => [c, fk.toCols[i]] as const) })),
    ...schema.fks
      .filter((fk) => fk.from === to && fk.to === from && fits(fk, fk.fromCols))
      .map((fk) => ({ many: true, pairs: fk.toCols.map((c, i) => [c, fk.fromCols[i]] as const) })),
  ];
  if (!target || found.length === 0)
    throw new Refusal(400, "PGRST200", `Could not find a relationship between '${from}' and '${to}' in the schema cache`);
  if (found.length > 1)
    throw new Refusal(300, "PGRST201", `Could not embed because more than one relationship was found for '${from}' and '${to}'`);
  return { ...found[0], table: target };
}
