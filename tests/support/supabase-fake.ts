// An HTTP-level stand-in for a hosted Supabase project, served by node:http on 127.0.0.1,
// that records every request so that tests can assert paths, payloads, filters and order.
// - Auth (GoTrue, /auth/v1) is faked in memory (tests/support/supabase-fake/gotrue.ts, what it
//   models in its header): users, sessions, refresh tokens, email links, PKCE flows and a
//   mailbox; every account is also a row of auth.users in the database, as on Supabase.
// - The Data API (PostgREST, /rest/v1) is real SQL on the database handed in (a PGlite
//   migrated with db/shim*.sql and supabase/migrations, tests/support/postgrest.ts): the
//   migrations' RLS policies, grants, triggers, constraints and functions decide, with the
//   caller's role from the JWT (anon, authenticated, or service_role as the owner).
// - Storage (/storage/v1): buckets and objects in memory, tests/support/supabase-storage.ts
//   (a private bucket `drops` unless told otherwise).
// The database's grants are the shim's, not Supabase's default privileges (which grant
// every new table to anon and authenticated before the migrations revoke).
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { SqlDriver } from "~/server/backend/sql/db.server";
import { createPostgrest, type PostgrestCaller } from "./postgrest";
import { createFakeStorage, type FakeStorage } from "./supabase-storage";
import { API_VERSION, ApiError, createKeys, pgError, send, type RecordedRequest } from "./supabase-fake/common";
import { createGotrue } from "./supabase-fake/gotrue";
import { createGotrueState, type FakeMail, type FakeUser } from "./supabase-fake/gotrue-state";

export type { FakeMail, FakeUser, RecordedRequest };

type Injection = { match: (r: RecordedRequest) => boolean; status: number; body: unknown; once: boolean };

export type SupabaseFake = {
  url: string;
  anonKey: string;
  requests: RecordedRequest[];
  mailbox: FakeMail[];
  /** Auth's accounts (each one also a row of auth.users). */
  users: Map<string, FakeUser>;
  /** The database (superuser: bypasses RLS), to read and seed rows. */
  sql: SqlDriver;
  /** A service_role key (bypasses RLS), as a project's secret key. */
  serviceKey: string;
  /** Storage's buckets and objects, the signed URLs issued, and its clock. */
  storage: FakeStorage;
  /** Requests whose path starts with the prefix (and method, when given). */
  requestsTo(pathPrefix: string, method?: string): RecordedRequest[];
  /** Answers the next matching request (or every one, once=false) with this status and body. */
  inject(match: (r: RecordedRequest) => boolean, status: number, body: unknown, once?: boolean): void;
  /** Makes every outstanding email link of this address expired (as if otp_expiry had passed). */
  expireLinks(email: string): void;
  /** Stops listening (the service is down); the data stays. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
};

/**
 * @param options.db the project's database, migrated (e.g. a clone of tests/support/pglite's
 *   template); the caller closes it.
 * @param options.accessTokenSeconds lifetime of the access tokens it issues (GoTrue's
 *   default is 3600; a minute or less makes supabase-js refresh on every request).
 * @param options.buckets Storage's buckets (default: the private `drops`).
 */
export async function startSupabaseFake(options: {
  db: SqlDriver;
  accessTokenSeconds?: number;
  buckets?: { id: string; public?: boolean; fileSizeLimit?: number | null }[];
}): Promise<SupabaseFake> {
  const db = options.db;
  const postgrest = createPostgrest(db);
  const ACCESS_TOKEN_SECONDS = options.accessTokenSeconds ?? 3600;
  const { sign, verify, anonKey, serviceKey } = createKeys();

  const storageApi = createFakeStorage({ sign, verify: (token) => verify(token) });
  for (const b of options.buckets ?? [{ id: "drops" }]) storageApi.storage.createBucket(b.id, b);

  const requests: RecordedRequest[] = [];
  const injections: Injection[] = [];
  let baseUrl = "";
  const gotrue = createGotrueState({ db, sign, accessTokenSeconds: ACCESS_TOKEN_SECONDS, url: () => baseUrl });
  const { mailbox, users } = gotrue;
  const auth = createGotrue(gotrue, verify, db);

  /** The caller's role and claims, from Authorization (or apikey), like PostgREST. */
  const who = (r: RecordedRequest): PostgrestCaller => {
    const apikey = r.headers.apikey;
    if (!apikey) throw pgError(401, "PGRST000", "No API key found in request");
    const auth = r.headers.authorization;
    const token = auth?.startsWith("Bearer ") ? auth.slice(7) : apikey;
    const payload = verify(token);
    if (payload === "invalid") throw pgError(401, "PGRST301", "No suitable key or wrong key type");
    if (payload === "expired") throw pgError(401, "PGRST303", "JWT expired");
    if (payload.role === "authenticated" && typeof payload.sub === "string") return { role: "authenticated", claims: payload };
    if (payload.role === "service_role") return { role: "service_role", claims: payload };
    return { role: "anon", claims: { ...payload, role: "anon" } };
  };

  async function rest(r: RecordedRequest, res: http.ServerResponse) {
    const answer = await postgrest.handle(
      { method: r.method, resource: r.path.slice("/rest/v1/".length), search: r.search, body: r.body, headers: r.headers },
      who(r),
    );
    return send(res, answer.status, answer.body, answer.headers);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", baseUrl);
      const raw = Buffer.concat(chunks);
      const binary = url.pathname.startsWith("/storage/v1/") && !req.headers["content-type"]?.includes("application/json");
      const text = binary ? "" : raw.toString("utf8");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      const record: RecordedRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        search: url.searchParams,
        body,
        headers,
      };
      requests.push(record);
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
      res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
        record.status = statusCode;
        return writeHead(statusCode, ...rest);
      }) as typeof res.writeHead;
      const versioned = record.headers["x-supabase-api-version"] === API_VERSION;
      const authHeaders: Record<string, string> =
        record.path.startsWith("/auth/v1/") && versioned ? { "X-Supabase-Api-Version": API_VERSION } : {};
      try {
        const injected = injections.find((i) => i.match(record));
        if (injected) {
          if (injected.once) injections.splice(injections.indexOf(injected), 1);
          return send(res, injected.status, injected.body, authHeaders);
        }
        if (record.path.startsWith("/auth/v1/")) return await auth(record, res).then(() => undefined);
        if (record.path.startsWith("/rest/v1/")) return await rest(record, res).then(() => undefined);
        if (record.path.startsWith("/storage/v1/")) {
          const role = record.headers.apikey ? who(record).role : null;
          return await storageApi.handle({ ...record, raw, role }, res);
        }
        throw new ApiError(404, { message: "no Route matched with those values" });
      } catch (e) {
        if (res.headersSent) return;
        if (e instanceof ApiError) {
          // Before the 2024-01-01 API version GoTrue answered {code: <status>, error_code, msg}.
          const errBody =
            record.path.startsWith("/auth/v1/") && !versioned && e.body && typeof e.body === "object"
              ? { code: e.status, error_code: (e.body as { code?: string }).code, msg: (e.body as { message?: string }).message }
              : e.body;
          return send(res, e.status, errBody, authHeaders);
        }
        return send(res, 500, { message: e instanceof Error ? e.message : String(e) });
      }
    });
  });

  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        port = (server.address() as AddressInfo).port;
        baseUrl = `http://127.0.0.1:${port}`;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen();

  return {
    get url() {
      return baseUrl;
    },
    anonKey,
    serviceKey,
    storage: storageApi.storage,
    requests,
    mailbox,
    users,
    sql: db,
    requestsTo: (prefix, method) => requests.filter((r) => r.path.startsWith(prefix) && (!method || r.method === method)),
    inject(match, status, body, once = true) {
      injections.push({ match, status, body, once });
    },
    expireLinks: gotrue.expireLinks,
    stop,
    start: listen,
    close: stop,
  };
}
