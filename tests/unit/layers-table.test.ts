// docs/architecture.md's table of the layers is what eslint.config.js enforces, not a copy of it:
// each code row's files are linted with an import of every other app/ row (by the `~/` alias and
// by relative path; a value, then a type) and of a package, and its "may import" cell must read
// as those verdicts say. A lint rule changed without the table, or the table without the rule,
// fails here with the cell the rules make.
import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });
const posix = path.posix;

type Layer = { name: string; paths: string[]; cell: string };

/** The rows of "## The layers": each row's paths (a folder ends in `/`), its name, its cell. */
function tableRows(): Layer[] {
  const doc = fs.readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
  const section = doc.split(/^## /m).find((s) => s.startsWith("The layers\n")) ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split("|").map((cell) => cell.trim()))
    .map(([, folders, , cell]) => {
      const tokens = [...folders.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      const paths = tokens.map((t) => (t.includes("/") ? t : posix.join(posix.dirname(tokens[0]), t)));
      return { name: posix.basename(tokens[0]).replace(/(\.server)?\.tsx?$/, ""), paths, cell };
    });
}

const isCode = (layer: Layer) => /^(app|server)\//.test(layer.paths[0]);
const serverSide = (p: string) => /^(app\/server|server)\//.test(p);
/** A file of the row, to lint as: the file itself, or a new one in the folder. */
const probeFile = (p: string) => (p.endsWith("/") ? `${p}probe${serverSide(p) ? ".server" : ""}.ts` : p);
/** A module of the row, to import: the file, or one in the folder. */
const probeModule = (p: string) => (p.endsWith("/") ? `${p}x${serverSide(p) ? ".server" : ""}` : p.replace(/\.tsx?$/, ""));
/** How `from` names `module`: by the alias, and by relative path. */
function specifiers(from: string, module: string): string[] {
  const relative = posix.relative(posix.dirname(from), module);
  return [`~/${module.replace(/^app\//, "")}`, relative.startsWith(".") ? relative : `./${relative}`];
}

type Verdict = { value: boolean; type: boolean; mixed: string[] };

/** What the lint rules let `file` import of each target, and of a package. */
async function verdicts(file: string, targets: Layer[]): Promise<{ layers: Map<string, Verdict>; packages: boolean }> {
  const lines: { target: string; kind: "value" | "type"; spec: string }[] = [];
  for (const target of targets)
    for (const p of target.paths)
      for (const spec of specifiers(file, probeModule(p)))
        for (const kind of ["value", "type"] as const) lines.push({ target: target.name, kind, spec });
  const source = [
    ...lines.map((l, i) => `import ${l.kind === "type" ? "type " : ""}{ p${i} } from "${l.spec}";`),
    `import { probePackage } from "react";`,
  ].join("\n");
  const [result] = await eslint.lintText(`${source}\nexport const probe = 1;\n`, { filePath: path.join(ROOT, file) });
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  const refused = new Set(result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.line - 1));
  const layers = new Map<string, Verdict>();
  for (const target of targets) {
    const verdict: Verdict = { value: true, type: true, mixed: [] };
    for (const kind of ["value", "type"] as const) {
      const mine = lines.flatMap((l, i) => (l.target === target.name && l.kind === kind ? [{ ...l, ok: !refused.has(i) }] : []));
      verdict[kind] = mine.every((l) => l.ok);
      if (!verdict[kind] && mine.some((l) => l.ok))
        verdict.mixed.push(
          ...mine.filter((l) => l.ok).map((l) => `${file} may import ${l.kind === "type" ? "a type of " : ""}${l.spec}`),
        );
    }
    layers.set(target.name, verdict);
  }
  return { layers, packages: !refused.has(lines.length) };
}

/** The cell the rules make: the layers it may import, then those it may take types from. */
function cellOf(layers: Map<string, Verdict>, packages: boolean): string {
  const values = [...layers].filter(([, v]) => v.value).map(([name]) => name);
  const types = [...layers].filter(([, v]) => !v.value && v.type).map(([name]) => `types of ${name}`);
  const list = [...values, ...types];
  return `${list.length ? list.join(", ") : "nothing but itself"}${packages ? "" : "; no package"}`;
}

describe("docs/architecture.md, The layers: the table is the lint rules", () => {
  const rows = tableRows();
  const targets = rows.filter((row) => isCode(row) && row.paths[0].startsWith("app/"));

  it("has a row for each folder of app/ and app/server/, and each file of app/server/", () => {
    const listed = new Set(rows.flatMap((row) => row.paths.map((p) => p.replace(/\/$/, ""))));
    const entries = (dir: string) =>
      fs
        .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory() || (dir === "app/server" && /\.tsx?$/.test(e.name)))
        .map((e) => `${dir}/${e.name}`);
    const missing = [...entries("app").filter((p) => p !== "app/server"), ...entries("app/server")].filter((p) => !listed.has(p));
    expect(missing).toEqual([]);
  });

  it.each(rows.filter(isCode).map((row) => [row.paths.join(", "), row] as const))("%s", async (_, row) => {
    const others = targets.filter((t) => t.name !== row.name);
    const cells = new Set<string>();
    const mixed: string[] = [];
    for (const p of row.paths) {
      const { layers, packages } = await verdicts(probeFile(p), others);
      cells.add(cellOf(layers, packages));
      mixed.push(...[...layers.values()].flatMap((v) => v.mixed));
    }
    expect(mixed, "the alias and the relative path, or a row's files, are told apart").toEqual([]);
    expect([...cells], `the "may import" cell of ${row.paths.join(", ")} as eslint.config.js has it`).toEqual([row.cell]);
  });

  it("other rows import nothing: —", () => {
    expect(rows.filter((row) => !isCode(row)).filter((row) => row.cell !== "—")).toEqual([]);
  });
});
