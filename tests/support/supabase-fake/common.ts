// What every part of the Supabase fake (tests/support/supabase-fake.ts) shares: the recorded
// request, the errors it answers with, its JSON answers, and its JWT keys (HS256, signed with
// the fake's own secret, as GoTrue's and PostgREST's are with the project's).
import crypto from "node:crypto";
import type http from "node:http";

export type RecordedRequest = {
  method: string;
  /** The path without the query, e.g. /rest/v1/mixtapes. */
  path: string;
  /** Query parameters (the last value wins for a repeated key); see also `search`. */
  query: Record<string, string>;
  search: URLSearchParams;
  /** The parsed JSON body, or undefined. */
  body: unknown;
  headers: Record<string, string>;
  /** The status this fake answered with (set as the response starts). */
  status?: number;
};

export const API_VERSION = "2024-01-01";

const b64url = (v: Buffer | string) => Buffer.from(v).toString("base64url");

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(
      typeof body === "object" && body && "message" in body ? String((body as { message: unknown }).message) : `HTTP ${status}`,
    );
  }
}

export const authError = (status: number, code: string, message: string, extra?: object) =>
  new ApiError(status, { code, message, ...extra });
export const pgError = (
  status: number,
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
) => new ApiError(status, { code, message, details, hint });

/** A JSON answer (none for `undefined`). */
export function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, {
    ...(text ? { "Content-Type": "application/json; charset=utf-8" } : {}),
    ...headers,
  });
  res.end(text);
}

/** The fake's signing secret: its JWTs, and the anon and service_role keys of the project. */
export function createKeys() {
  const secret = crypto.randomBytes(32);
  const sign = (payload: object) => {
    const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
    const body = b64url(JSON.stringify(payload));
    const sig = crypto.createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
    return `${head}.${body}.${sig}`;
  };
  /** A verified JWT payload, or an error that names why (PGRST301 / bad_jwt). */
  const verify = (token: string): Record<string, unknown> | "invalid" | "expired" => {
    const [head, body, sig] = token.split(".");
    if (!head || !body || !sig) return "invalid";
    const expected = crypto.createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
    if (expected.length !== sig.length || !crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(sig))) return "invalid";
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof payload.exp === "number" && payload.exp <= Date.now() / 1000) return "expired";
    return payload;
  };

  /** A project API key of this role, as Supabase's dashboard shows them (expires in 2100). */
  const key = (role: "anon" | "service_role") =>
    sign({ iss: "supabase-fake", ref: "fake", role, iat: Math.floor(Date.now() / 1000), exp: 4_102_444_800 });
  return { sign, verify, anonKey: key("anon"), serviceKey: key("service_role") };
}

export type Verify = ReturnType<typeof createKeys>["verify"];
