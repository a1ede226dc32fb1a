// Session lifetimes of the embedded auth (on PGlite): a session ends after
// SESSION_IDLE_SECONDS (7 days) without use or SESSION_ABSOLUTE_SECONDS (30 days) after
// login, whichever comes first; use records activity at most hourly; the server keeps
// only the SHA-256 of the random id in the cookie. Time is moved by rewriting the
// session row, never by waiting.
import "../support/env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS } from "~/server/backend/sql/auth.server";
import { createSqlBackend } from "~/server/backend/sql/index.server";
import type { Mail } from "~/server/platform/mailer.server";
import { sha256 } from "~/server/backend/passwords.server";
import { bootPglite, type PgliteDriver, type PgliteTemplate } from "../support/pglite";

describe("session lifetimes", () => {
  let template: PgliteTemplate;
  let db: PgliteDriver;
  let backend: ReturnType<typeof createSqlBackend>;
  const mails: Mail[] = [];
  const EMAIL = "session.rebel@example.com";
  const PASSWORD = "correct-horse-42";

  beforeAll(async () => {
    template = await bootPglite();
    db = await template.clone();
    backend = createSqlBackend({ db, mailer: { send: async (m) => void mails.push(m) }, shopTitle: "Test" });
    const api = backend.forRequest(new Request("http://localhost/auth", { method: "POST" }));
    await api.signUp({ email: EMAIL, password: PASSWORD, username: "session_rebel", emailRedirectTo: "http://localhost" });
    await db.query(`update auth.users set email_confirmed_at = now() where email = $1`, [EMAIL]);
  }, 120_000);

  afterAll(async () => {
    await template?.close();
  });

  /** Logs in; returns the Cookie header and the token's row id. */
  async function logIn(): Promise<{ cookie: string; id: string }> {
    const api = backend.forRequest(new Request("http://localhost/auth", { method: "POST" }));
    expect((await api.signInWithPassword({ email: EMAIL, password: PASSWORD })).error).toBeNull();
    const cookie = api.headers.getSetCookie()[0].split(";")[0];
    const [, value] = cookie.split("=");
    const token = JSON.parse(Buffer.from(decodeURIComponent(value.split(".")[0]), "base64").toString("utf8")).token as string;
    return { cookie, id: sha256(token) };
  }
  const userOf = (cookie: string) => backend.forRequest(new Request("http://localhost/", { headers: { cookie } })).getUser();
  const row = async (id: string) =>
    (
      await db.query<{ idle: number; left: number }>(
        `select extract(epoch from now() - last_seen_at)::int as idle, extract(epoch from expires_at - now())::int as left
         from auth.sessions where id = $1`,
        [id],
      )
    ).rows[0];

  it("keeps only a hash of the cookie's random id, and sets the absolute expiry at login", async () => {
    const { cookie, id } = await logIn();
    const stored = await db.query<{ id: string }>(`select id from auth.sessions where id = $1`, [id]);
    expect(stored.rows.length).toBe(1);
    expect(cookie).not.toContain(id);
    const r = await row(id);
    expect(r.left).toBeGreaterThan(SESSION_ABSOLUTE_SECONDS - 60);
    expect(r.left).toBeLessThanOrEqual(SESSION_ABSOLUTE_SECONDS);
    expect(SESSION_IDLE_SECONDS).toBe(7 * 24 * 3600);
    expect(SESSION_ABSOLUTE_SECONDS).toBe(30 * 24 * 3600);
    expect((await userOf(cookie))?.id).toBeTruthy();
  });

  it("ends a session idle for more than 7 days", async () => {
    const { cookie, id } = await logIn();
    await db.query(`update auth.sessions set last_seen_at = now() - make_interval(secs => $2) where id = $1`, [
      id,
      SESSION_IDLE_SECONDS + 60,
    ]);
    expect(await userOf(cookie)).toBeNull();
  });

  it("keeps a session used within 7 days, and records the use (at most hourly)", async () => {
    const { cookie, id } = await logIn();
    await db.query(`update auth.sessions set last_seen_at = now() - make_interval(secs => $2) where id = $1`, [
      id,
      SESSION_IDLE_SECONDS - 3600,
    ]);
    expect(await userOf(cookie)).not.toBeNull();
    expect((await row(id)).idle).toBeLessThan(60); // touched
    await db.query(`update auth.sessions set last_seen_at = now() - interval '10 minutes' where id = $1`, [id]);
    expect(await userOf(cookie)).not.toBeNull();
    expect((await row(id)).idle).toBeGreaterThanOrEqual(590); // not touched again within the hour
  });

  it("ends a session after 30 days even when used every day", async () => {
    const { cookie, id } = await logIn();
    await db.query(`update auth.sessions set expires_at = now() - interval '1 second', last_seen_at = now() where id = $1`, [id]);
    expect(await userOf(cookie)).toBeNull();
  });

  it("ends the session at logout, on the server", async () => {
    const { cookie, id } = await logIn();
    await backend.forRequest(new Request("http://localhost/logout", { method: "POST", headers: { cookie } })).signOut();
    expect((await db.query(`select 1 from auth.sessions where id = $1`, [id])).rows.length).toBe(0);
    expect(await userOf(cookie)).toBeNull();
  });
});
