#!/usr/bin/env node
// Aggregates a V8 .cpuprofile (node --cpu-prof) by function and by module:
// self time (the function itself) and total time (anywhere on the stack).
//   node bench/run.js cpuprofile FILE.cpuprofile [--from µs] [--to µs] [--top N]
// --from/--to keep only samples in that window of the monotonic clock
// (process.hrtime, in µs: the profile's own timestamps use the same clock).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT } from "./index.js";

const SPECIAL = new Set(["(idle)", "(program)", "(garbage collector)", "(root)"]);

/** A readable module name for a script URL. */
export function moduleOf(url, functionName) {
  if (SPECIAL.has(functionName)) return functionName;
  if (!url) return "(native / V8 builtins)";
  if (url.startsWith("wasm://")) return "PGlite WASM (postgres)";
  if (url.startsWith("node:"))
    return `node:${url.slice(5).split("/")[0] === "internal" ? "internal/" + url.split("/")[1] : url.slice(5)}`;
  const p = url.replace(/^file:\/\//, "");
  const nm = p.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = p.slice(nm + "/node_modules/".length).split("/");
    const pkg = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    const file = rest.slice(rest[0].startsWith("@") ? 2 : 1).join("/");
    const flavour = /\bdevelopment\b/.test(file)
      ? " (development build)"
      : /\bproduction\b/.test(file)
        ? " (production build)"
        : "";
    return `${pkg}${flavour}`;
  }
  return path.relative(ROOT, p) || p;
}

const shortUrl = (url) => {
  if (!url) return "";
  const p = url.replace(/^file:\/\//, "");
  const nm = p.lastIndexOf("/node_modules/");
  return nm >= 0 ? p.slice(nm + "/node_modules/".length) : path.relative(ROOT, p) || p;
};

export function summarize(profile, { from = -Infinity, to = Infinity, top = 25 } = {}) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // Sample i lasts until sample i+1.
  const times = [];
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    times.push(t);
  }
  const selfFn = new Map();
  const selfMod = new Map();
  const totalFn = new Map();
  const totalMod = new Map();
  let windowUs = 0;
  let busyUs = 0;
  const add = (map, key, v) => map.set(key, (map.get(key) ?? 0) + v);
  for (let i = 0; i < profile.samples.length; i++) {
    if (times[i] < from || times[i] > to) continue;
    const dur = (i + 1 < times.length ? times[i + 1] : profile.endTime) - times[i];
    if (dur <= 0) continue;
    windowUs += dur;
    const node = nodes.get(profile.samples[i]);
    const cf = node.callFrame;
    const fnKey = SPECIAL.has(cf.functionName)
      ? cf.functionName
      : `${cf.functionName || "(anonymous)"}  ${shortUrl(cf.url)}:${cf.lineNumber + 1}`;
    add(selfFn, fnKey, dur);
    add(selfMod, moduleOf(cf.url, cf.functionName), dur);
    if (cf.functionName !== "(idle)") busyUs += dur;
    // Total time: each function/module once per sample, however deep it recurs.
    const seenFn = new Set();
    const seenMod = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const c = nodes.get(id).callFrame;
      if (c.functionName === "(root)") continue;
      const k = SPECIAL.has(c.functionName)
        ? c.functionName
        : `${c.functionName || "(anonymous)"}  ${shortUrl(c.url)}:${c.lineNumber + 1}`;
      const m = moduleOf(c.url, c.functionName);
      if (!seenFn.has(k)) {
        seenFn.add(k);
        add(totalFn, k, dur);
      }
      if (!seenMod.has(m)) {
        seenMod.add(m);
        add(totalMod, m, dur);
      }
    }
  }
  const rank = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, us]) => ({ key, ms: us / 1000, pct: (100 * us) / windowUs }));
  return {
    windowMs: windowUs / 1000,
    busyMs: busyUs / 1000,
    samples: profile.samples.length,
    selfByModule: rank(selfMod, top),
    selfByFunction: rank(selfFn, top),
    totalByModule: rank(totalMod, top),
    totalByFunction: rank(totalFn, top * 2),
  };
}

export function toMarkdown(s, { top = 25 } = {}) {
  const L = [];
  const table = (title, rows) => {
    L.push(`| ${title} | ms | % of window |`, "|---|---:|---:|");
    for (const r of rows.slice(0, top))
      L.push(`| \`${r.key.replaceAll("|", "\\|")}\` | ${r.ms.toFixed(0)} | ${r.pct.toFixed(1)} |`);
    L.push("");
  };
  L.push(
    `Window ${(s.windowMs / 1000).toFixed(1)} s, busy (not idle) ${(s.busyMs / 1000).toFixed(1)} s (${((100 * s.busyMs) / s.windowMs).toFixed(0)} %).`,
    "",
  );
  L.push("**Self time by module**", "");
  table("module", s.selfByModule);
  L.push("**Self time by function** (top)", "");
  table("function  file:line", s.selfByFunction);
  L.push("**Total time by module** (anywhere on the stack)", "");
  table("module", s.totalByModule);
  return L.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith("--"));
  const opt = (name, d) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : d;
  };
  if (!file) {
    console.error("usage: node bench/run.js cpuprofile FILE.cpuprofile [--from µs] [--to µs] [--top N]");
    process.exit(2);
  }
  const profile = JSON.parse(fs.readFileSync(file, "utf8"));
  const top = opt("top", 25);
  const s = summarize(profile, { from: opt("from", -Infinity), to: opt("to", Infinity), top });
  console.log(toMarkdown(s, { top }));
  console.log("**Total time by function** (top)\n");
  console.log("| function  file:line | ms | % |\n|---|---:|---:|");
  for (const r of s.totalByFunction) console.log(`| \`${r.key}\` | ${r.ms.toFixed(0)} | ${r.pct.toFixed(1)} |`);
}
