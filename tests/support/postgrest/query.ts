// The query string of a PostgREST request as SQL: select lists and embeddings, filters and
// their trees, ordering, limits (tests/support/postgrest.ts).
import { Refusal, parseError } from "./errors";
import { type Table, type Schema, q, computedField, relation } from "./schema";

/** Splits on the commas outside parentheses and double quotes. */
export function splitTop(text: string): string[] {
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
export const unquote = (v: string) => (/^".*"$/s.test(v) ? v.slice(1, -1).replace(/\\(.)/g, "$1") : v);

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
export const RESERVED = new Set(["select", "order", "limit", "offset", "columns", "on_conflict"]);

/** The WHERE clause of the filters in the query (values bound, columns checked). */
export function filters(search: URLSearchParams, column: (name: string) => string, bind: (v: unknown) => string): string {
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

export function ordering(order: string | null, column: (name: string) => string): string {
  if (!order) return "";
  const terms = splitTop(order).map((term) => {
    const m = /^(\w+)(?:\.(asc|desc))?(?:\.(nullsfirst|nullslast))?$/.exec(term);
    if (!m) throw parseError(`order (${term})`);
    const [, name, dir, nulls] = m;
    return `${column(name)}${dir ? ` ${dir}` : ""}${nulls ? ` nulls ${nulls.slice(5)}` : ""}`;
  });
  return ` order by ${terms.join(", ")}`;
}

export function integer(value: string | null, what: string): number | null {
  if (value === null) return null;
  if (!/^\d+$/.test(value)) throw parseError(`${what} (${value})`);
  return Number(value);
}

/** The select list: columns, `*`, and embedded resources through foreign keys (as JSON). */
export function project(schema: Schema, table: Table, select: string, alias: string, counter: { n: number }): string {
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
