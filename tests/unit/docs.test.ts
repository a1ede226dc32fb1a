// docs/architecture.md cannot drift: every path it names exists, and every identifier it names
// in backticks is exported by a file on the same line (or, on a line that names no file, by some
// module of the app, a SQL definition of the schema, or a variable of .env.example). Each
// decision record names the test that guards it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrationList } from "~/server/backend/sql/db.server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const FILES = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
  .split("\n")
  .filter(Boolean);
const DIRS = new Set(
  FILES.flatMap((f) =>
    f
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);

const SOURCE = /\.(ts|tsx|js|mjs)$/;
const SQL = FILES.filter((f) => /^(supabase\/migrations|db)\/.*\.sql$/.test(f));
const CODE = FILES.filter((f) => /^(app|server)\//.test(f) && SOURCE.test(f));

/** The names a module exports (declarations, `export { a, b as c }`, `export default function name`). */
function exportsOf(file: string): Set<string> {
  const text = read(file);
  const names = new Set<string>();
  for (const m of text.matchAll(
    /export\s+(?:default\s+)?(?:async\s+)?(?:const|let|function\*?|class|type|interface|enum)\s+([A-Za-z_$][\w$]*)/g,
  ))
    names.add(m[1]);
  for (const m of text.matchAll(/export\s*\{([^}]*)\}/g))
    for (const part of m[1].split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.replace(/^type\s+/, "");
      if (name) names.add(name);
    }
  return names;
}
/** The objects the schema creates: functions, views, tables, triggers, policies' tables, roles. */
const SQL_NAMES = new Set(
  SQL.flatMap((file) =>
    [
      ...read(file).matchAll(
        /create\s+(?:or\s+replace\s+)?(?:function|view|table|trigger|role|index|unique index)\s+(?:if not exists\s+)?(?:public\.|auth\.)?"?([a-z_][\w]*)/gi,
      ),
    ].map((m) => m[1].toLowerCase()),
  ),
);
const ENV_NAMES = new Set([...read(".env.example").matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
const ALL_EXPORTS = new Set(CODE.flatMap((f) => [...exportsOf(f)]));

/** A page of the app (`/readyz`, `/mixer/orders/{CODE}`): declared in app/routes.ts. */
const ROUTES = read("app/routes.ts");
const isRoute = (token: string) => /^\/[\w.{}:/-]*$/.test(token);
const routeExists = (token: string) => token === "/" || ROUTES.includes(`"${token.slice(1).split("/")[0]}`);
/** Names the doc takes from the framework, not from us. */
const FRAMEWORK = ["react-router/dist/production/index.d.mts", "react-router/dist/production/index.d.ts"]
  .map((f) => path.join(ROOT, "node_modules", f))
  .filter((f) => fs.existsSync(f))
  .map((f) => fs.readFileSync(f, "utf8"))
  .join("\n");
const fromFramework = (name: string) => new RegExp(`\\b${name}\\b`).test(FRAMEWORK);

const isPath = (token: string) =>
  !isRoute(token) && (token.includes("/") || /\.(tsx?|jsx?|mjs|sql|md|json|toml|css)$/.test(token));
const IDENTIFIER = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?)(?:\([^()]*\))?$/;

/** Paths as the doc writes them: from the repository's root, or as the tail of one (`backend/sql/`, `copy-auth.ts`). */
function resolvePath(token: string): string[] {
  const clean = token
    .replace(/^~\//, "app/")
    .replace(/\/?(\*|…)$/, "")
    .replace(/\/$/, "")
    .replace(/^\.\//, "");
  if (clean.includes("*") || clean.includes("{")) {
    const pattern = new RegExp(
      `(^|/)${clean
        .replace(/[.+^$()|[\]\\]/g, "\\$&")
        .replace(/\{([^}]*)\}/g, (_, alts: string) => `(${alts.split(",").join("|")})`)
        .replace(/\*/g, "[^/]*")}$`,
    );
    return FILES.filter((f) => pattern.test(f));
  }
  if (FILES.includes(clean) || DIRS.has(clean)) return [clean];
  return [...FILES, ...DIRS].filter((f) => f.endsWith(`/${clean}`));
}

function namedOn(line: string) {
  const tokens = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1].trim());
  const paths = tokens.filter(isPath);
  const routes = tokens.filter(isRoute);
  const names = tokens.filter((t) => !isPath(t) && !isRoute(t) && !/\s/.test(t)).flatMap((t) => IDENTIFIER.exec(t)?.[1] ?? []);
  return { paths, routes, names };
}

describe("docs/architecture.md", () => {
  const lines = read("docs/architecture.md").split("\n");
  // Links count as paths too: [text](decisions/011-shutdown.md).
  const links = lines.flatMap((line) => [...line.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => path.join("docs", m[1])));

  it("names only paths that exist", () => {
    const missing = lines.flatMap((line) => {
      const { paths, routes } = namedOn(line);
      return [...paths.filter((p) => resolvePath(p).length === 0), ...routes.filter((r) => !routeExists(r))];
    });
    expect(missing).toEqual([]);
    expect(links.filter((l) => !fs.existsSync(path.join(ROOT, l)))).toEqual([]);
  });

  it("names only identifiers that are exported where it says", () => {
    const wrong: string[] = [];
    for (const line of lines) {
      const { paths, names } = namedOn(line);
      const files = paths.flatMap(resolvePath).filter((f) => SOURCE.test(f));
      const sql = paths.some((p) => /\.sql$|migrations|db\//.test(p));
      for (const name of names) {
        const [head, tail] = name.split(".");
        const found =
          (files.length > 0 && files.some((f) => exportsOf(f).has(head))) ||
          ((head === "public" || head === "auth") && tail !== undefined && SQL_NAMES.has(tail.toLowerCase())) ||
          (files.length === 0 && (ALL_EXPORTS.has(head) || ENV_NAMES.has(name) || fromFramework(head))) ||
          ((sql || files.length === 0) && SQL_NAMES.has(head.toLowerCase()));
        if (!found) wrong.push(`${name} (${paths.join(", ") || "no file on its line"})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

// Each function and view of the schema (db/schema.sql, kept current by tests/contract/schema.test.ts)
// has one row in architecture.md's "The SQL functions and views": its purpose and the file, in the
// order the SQL backends apply them, that defines it last (where to read its body, or to change it).
describe("docs/architecture.md, The SQL functions and views", () => {
  const defined = [...read("db/schema.sql").matchAll(/^CREATE (?:FUNCTION|VIEW) (\w+\.\w+)\b/gm)].map((m) => m[1]);
  const newest = new Map<string, string>();
  for (const m of migrationList())
    for (const d of m.sql.matchAll(/create\s+(?:or\s+replace\s+)?(?:function|view)\s+(\w+\.\w+)\b/gi))
      newest.set(d[1].toLowerCase(), path.basename(m.name));
  const section =
    read("docs/architecture.md")
      .split(/^## /m)
      .find((s) => s.startsWith("The SQL functions and views\n")) ?? "";
  const rows = section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split("|").map((cell) => cell.trim().replace(/^`|`$/g, "")))
    .map(([, name, , file]) => ({ name, file }));

  it("names every function and view of db/schema.sql, once", () => {
    expect(rows.map((r) => r.name).sort()).toEqual([...defined].sort());
  });
  it("names the file that defines each one last", () => {
    const wrong = rows.filter((r) => newest.get(r.name) !== r.file).map((r) => `${r.name}: ${newest.get(r.name)}, not ${r.file}`);
    expect(wrong).toEqual([]);
  });
});

// The other docs that describe the code as it is (the security controls and their tests, how the
// tests run): every file they name exists. (The decision records are history: they may name files
// since removed.) Files the app and the tests make as they run (build/, test-results/) are not here.
const MADE = /^(build|\.data|node_modules|DATA_DIR|\/tmp|test-results|error-context\.md|mixtape-data)\b/;
/** Files of a host's own, which the manuals tell how to write. */
const HOSTS = /^fly\.toml$/;
/** The README and the manuals it links to: how to run the shop, as it is. */
const MANUALS = ["README.md", ...FILES.filter((f) => /^docs\/[^/]+\.md$/.test(f) && f !== "docs/architecture.md")];
// performance.md is the bench's record (bench/report/ writes it), naming the build's files as it measured them.
describe.each(MANUALS.filter((f) => f !== "docs/performance.md"))("%s", (doc) => {
  it("names only files that exist", () => {
    const missing = read(doc)
      .split("\n")
      .flatMap((line) => [...line.matchAll(/`([^`\s]+\.(?:tsx?|jsx?|mjs|sql|md|json|toml|sh))`/g)].map((m) => m[1]))
      .filter((p) => !MADE.test(p) && !HOSTS.test(p) && !/^https?:/.test(p) && resolvePath(p).length === 0);
    expect(missing).toEqual([]);
  });
});

/** A heading's anchor as GitHub makes it: lower case, punctuation gone, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
const anchorsIn = (file: string) =>
  new Set(
    read(file)
      .replace(/```[\s\S]*?```/g, "")
      .split("\n")
      .flatMap((line) => /^#{1,6}\s+(.*)$/.exec(line)?.[1] ?? [])
      .map(anchorOf),
  );

// A manual moved or a section renamed leaves no link behind: each relative link of the README and
// docs/ (architecture.md included) reaches a file, and its #section a heading of it.
describe.each([...MANUALS, "docs/architecture.md"])("%s's links", (doc) => {
  it("reach a file, and a heading of it", () => {
    const broken = [...read(doc).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1])
      .filter((href) => !/^[a-z]+:/.test(href))
      .filter((href) => {
        const [target, anchor] = href.split("#");
        const file = target ? path.posix.join(path.posix.dirname(doc), target) : doc;
        if (!fs.existsSync(path.join(ROOT, file))) return true;
        return anchor !== undefined && !anchorsIn(file).has(anchor);
      });
    expect(broken).toEqual([]);
  });
});

describe("decision records", () => {
  const records = FILES.filter((f) => /^docs\/decisions\/\d{3}-.*\.md$/.test(f) && !f.includes("000-"));
  it.each(records)("%s names a test that guards it, and the test exists", (record) => {
    const tests = [...read(record).matchAll(/`?(tests\/[\w./-]+\.(?:test|spec)\.ts)`?/g)].map((m) => m[1]);
    expect(tests.length, "a test named by its path, tests/…").toBeGreaterThan(0);
    expect(tests.filter((t) => !FILES.includes(t))).toEqual([]);
  });
});
