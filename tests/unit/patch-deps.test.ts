// Decision 010: React Router 8's fix for Vite's envFile deprecation, applied to @react-router/dev 7
// at install (scripts/patch-deps.js). This fails when the upstream code changes under the patch:
// then the patch no longer applies, or is no longer needed.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DEV = path.resolve(import.meta.dirname, "../../node_modules/@react-router/dev");
const version = JSON.parse(fs.readFileSync(path.join(DEV, "package.json"), "utf8")).version as string;
const FILES = ["dist/cli/index.js", "dist/vite.js"];

describe("the envFile patch (docs/decisions/010-envfile-warning.md)", () => {
  it("is still for React Router 7: 8 ships the fix, and the patch goes", () => {
    expect(version).toMatch(/^7\./);
  });
  it.each(FILES)("%s passes Vite envDir: false, never the deprecated envFile", (file) => {
    const source = fs.readFileSync(path.join(DEV, file), "utf8");
    expect(source).not.toMatch(/^\s*envFile: false,$/m);
    expect(source).toMatch(/^\s*envDir: false,$/m);
  });
});
