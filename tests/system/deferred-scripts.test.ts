// The deferred scripts (app/components/deferred-scripts.tsx) read React Router's <Scripts/> out of a
// <noscript>: this fails when an upgrade renders anything the boot script does not expect. The boot
// script's text is the server's only (docs/decisions/002-deferred-scripts.md): the page carries it,
// the browser's bundle does not.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BOOT } from "~/components/deferred-scripts";
import { Client, ROOT, suiteServer } from "./setup";

/** The elements inside the page's <noscript>, as the boot script's <template> would parse them. */
function noscriptElements(html: string) {
  const inner = /<noscript>([\s\S]*?)<\/noscript><script nonce="[^"]+">\(\(\) => \{/.exec(html)?.[1];
  if (inner === undefined) return null;
  return [...inner.matchAll(/<(\w+)([^>]*)>/g)].map(([, tag, attrs]) => ({
    tag,
    rel: /\brel="([^"]+)"/.exec(attrs)?.[1] ?? null,
    type: /\btype="([^"]+)"/.exec(attrs)?.[1] ?? null,
  }));
}

describe("deferred scripts", () => {
  const server = suiteServer("deferred");

  it("<Scripts/> renders only modulepreload links, classic scripts and one module script, followed by the boot script", async () => {
    const html = (await new Client(server.url).get("/auth")).body;
    const elements = noscriptElements(html);
    expect(elements, "the <noscript> with <Scripts/> and the boot script right after it").not.toBeNull();
    for (const el of elements!)
      expect(
        (el.tag === "link" && el.rel === "modulepreload") || (el.tag === "script" && (el.type === null || el.type === "module")),
        JSON.stringify(el),
      ).toBe(true);
    expect(elements!.filter((el) => el.tag === "script" && el.type === "module")).toHaveLength(1);
    expect(elements!.filter((el) => el.tag === "script" && el.type === null).length).toBeGreaterThanOrEqual(1);
    expect(html).toContain("window.__reactRouterContext");
    // Nothing of React Router's runs outside the <noscript> until the boot script adds it.
    const outside = html.replace(/<noscript>[\s\S]*?<\/noscript>/g, "");
    expect(outside).not.toMatch(/<link rel="modulepreload"|<script type="module"/);
  });

  it("the boot script's text is in the page, not in the browser's bundle", async () => {
    const html = (await new Client(server.url).get("/auth")).body;
    expect(html).toContain(BOOT);
    const assets = path.join(ROOT, "build/client/assets");
    const scripts = fs.readdirSync(assets).filter((f) => f.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts)
      expect(fs.readFileSync(path.join(assets, file), "utf8"), file).not.toContain("previousElementSibling");
  });
});
