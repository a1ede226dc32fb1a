// No import circles in app/ and server/ (docs/architecture.md): a module never reaches itself through
// the modules it imports, type-only imports included (erased at build, they still tie the files:
// a context type lives in a file of its own, not in the module that assembles what uses it).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const EXTENSIONS = [".ts", ".tsx", ".js", "/index.ts", "/index.tsx"];

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith("+") || entry.name === ".react-router" ? [] : sources(rel);
    return /\.(tsx?|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith("~/")
    ? path.join("app", specifier.slice(2))
    : specifier.startsWith(".")
      ? path.join(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  for (const ext of ["", ...EXTENSIONS])
    if (fs.existsSync(path.join(ROOT, base + ext)) && /\.(tsx?|js)$/.test(base + ext)) return base + ext;
  return null;
}

function imports(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?[^;]*?\s+from\s+["']([^"']+)["']/gm)) {
    const target = resolve(file, m[1]);
    if (target) found.push(target);
  }
  for (const m of text.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) {
    const target = resolve(file, m[1]);
    if (target) found.push(target);
  }
  return found;
}

describe("import circles", () => {
  it("app/ and server/ have none", () => {
    const files = [...sources("app"), ...sources("server")];
    const graph = new Map(files.map((f) => [f, imports(f)]));
    const circles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "visiting") {
        circles.push([...trail.slice(trail.indexOf(file)), file].join(" → "));
        return;
      }
      state.set(file, "visiting");
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });
});
