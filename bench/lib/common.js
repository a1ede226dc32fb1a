// The bench's paths, its accounts' password, what it sends as a browser would, and its clock.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const ROOT = path.resolve(BENCH_DIR, "..");
export const PASSWORD = "correct-horse-42";
/**
 * What a browser sends; both the app and the baseline compress with it.
 * BENCH_ACCEPT_ENCODING=identity measures without compression.
 */
export const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING || "gzip, deflate, br";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const now = () => performance.now();
