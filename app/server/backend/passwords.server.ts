import crypto from "node:crypto";
import { promisify } from "node:util";
import commonPasswordsText from "./common-passwords.txt?raw";

const scryptAsync = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const N = 16384;
const r = 8;
const p = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

export type ScryptCall = { purpose: "hash" | "verify"; N: number; r: number; p: number; keylen: number; saltBytes: number };
let observer: ((call: ScryptCall) => void) | null = null;

/** Tests prove equal work without timing anything. */
export function observeScrypt(fn: (call: ScryptCall) => void): () => void {
  observer = fn;
  return () => {
    if (observer === fn) observer = null;
  };
}

function scrypt(
  purpose: ScryptCall["purpose"],
  password: string,
  salt: Buffer,
  keylen: number,
  opts: { N: number; r: number; p: number },
) {
  observer?.({ purpose, ...opts, keylen, saltBytes: salt.length });
  return scryptAsync(password.normalize("NFKC"), salt, keylen, { ...opts, maxmem: MAXMEM });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt("hash", password, salt, KEYLEN, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

// An unknown user must cost exactly the work of a wrong password.
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = () => (dummyHash ??= hashPassword(crypto.randomBytes(32).toString("hex")));
dummyPasswordHash().catch(() => {
  dummyHash = undefined; // retried on first use
});

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? (await dummyPasswordHash())).split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, rr, pp, saltText, hashText] = parts;
  const expected = Buffer.from(hashText, "base64url");
  const actual = await scrypt("verify", password, Buffer.from(saltText, "base64url"), expected.length, {
    N: Number(n),
    r: Number(rr),
    p: Number(pp),
  });
  return stored != null && crypto.timingSafeEqual(expected, actual);
}

export const PASSWORD_MESSAGES = {
  tooCommon: "This password is too common. Choose a less guessable one.",
  matchesAccount: "Your password must not be your username or email address.",
} as const;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  commonPasswordsText
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#")),
);

const fold = (text: string) => text.normalize("NFKC").trim().toLowerCase();

export const isCommonPassword = (password: string) => COMMON_PASSWORDS.has(fold(password));

export function passwordProblem(password: string, account: { username?: string; email?: string } = {}): string | null {
  if (isCommonPassword(password)) return PASSWORD_MESSAGES.tooCommon;
  const folded = fold(password);
  const email = account.email ? fold(account.email) : "";
  const own = [account.username ? fold(account.username) : "", email, email.split("@")[0]];
  if (own.some((word) => word.length > 0 && word === folded)) return PASSWORD_MESSAGES.matchesAccount;
  return null;
}

export const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
export const randomToken = () => crypto.randomBytes(32).toString("base64url");
