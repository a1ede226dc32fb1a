// How the report and the log print numbers.
import { KB } from "../lib/config.js";

export const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");
export const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");
export const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : "n/a");
export const kb = (bytes) => (Number.isFinite(bytes) ? (bytes / KB).toFixed(1) : "n/a");
export const pf = (ok) => (ok ? "PASS" : "**FAIL**");
