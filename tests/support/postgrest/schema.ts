// The schema cache of the PostgREST fake: tables, foreign keys and functions of schema `public`,
// and the relation an embedding follows (tests/support/postgrest.ts).
import type { SqlDriver } from "~/server/backend/sql/db.server";
import { Refusal } from "./errors";

export type Table = { name: string; columns: Map<string, string>; pk: string[] };
type ForeignKey = { name: string; from: string; fromCols: string[]; to: string; toCols: string[] };
export type Fn = { name: string; args: { name: string; type: string; optional: boolean }[]; set: boolean; void: boolean };
export type Schema = { tables: Map<string, Table>; fks: ForeignKey[]; fns: Map<string, Fn[]> };

export const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function loadSchema(db: SqlDriver): Promise<Schema> {
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

/** PostgREST's computed field: a function whose one argument is the table's row. */
export function computedField(schema: Schema, table: Table, name: string): boolean {
  return (schema.fns.get(name) ?? []).some(
    (f) => f.args.length === 1 && (f.args[0].type === table.name || f.args[0].type === `public.${table.name}`),
  );
}

/** The foreign key between two tables, either way: many-to-one (an object) or one-to-many (an array). */
export function relation(schema: Schema, from: string, to: string, hint: string | undefined) {
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
