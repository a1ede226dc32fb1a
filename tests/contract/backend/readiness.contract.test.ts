// The Backend port's contract, what keeps the service up: pending migrations, an unreachable
// database, and what one adapter does alone (the PKCE link, the embedded migrations).
import "../../support/env";
import { describe, expect, it } from "vitest";
import { logIn, signUp } from "~/server/services/accounts.server";
import { BackendUnavailableError, type BackendRequest } from "~/server/backend/port.server";
import { migrate, migrationList, openPglite, openPostgres } from "~/server/backend/sql/db.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { PASSWORD, unique, newEmail, newUsername, order, backendContract } from "../../support/backend-contract";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const { name, browser, signedInUser } = backendContract(harness, (fresh) => (ctx = fresh));

  // ---- Readiness -----------------------------------------------------------------------

  it("pendingMigrations(): none once migrated, a missing one by name (the SQL modes); null on Supabase", async () => {
    if (name === "supabase") {
      expect(await ctx.backend.pendingMigrations()).toBeNull();
      return;
    }
    expect(await ctx.backend.pendingMigrations()).toEqual([]);
    const last = migrationList().at(-1)!.name;
    await ctx.sql.query(`delete from mixtape_meta.migrations where name = $1`, [last]);
    try {
      expect(await ctx.backend.pendingMigrations()).toEqual([last]);
    } finally {
      await ctx.sql.query(`insert into mixtape_meta.migrations (name) values ($1)`, [last]);
    }
    expect(await ctx.backend.pendingMigrations()).toEqual([]);
  });

  // ---- Outage ------------------------------------------------------------------------

  it("an unreachable database: calls throw BackendUnavailableError, health() is false, nothing is half-written", async () => {
    const { browser: b, user, email } = await signedInUser();
    const kept = order(user.id);
    expect((await b.call((api) => api.insertOrder(kept))).error).toBeNull();
    expect(await ctx.backend.health()).toBe(true);

    if (!ctx.outage) {
      // PGlite lives in this process: it cannot become unreachable, only closed.
      await ctx.backend.close();
      expect(await ctx.backend.health()).toBe(false);
      return;
    }

    const lostEmail = newEmail();
    const lost = order(user.id);
    await ctx.outage.begin();
    try {
      expect(await ctx.backend.health()).toBe(false);
      const unavailable = async (fn: (api: BackendRequest) => Promise<unknown>) => {
        const api = ctx.backend.forRequest(b.request());
        await expect(fn(api)).rejects.toBeInstanceOf(BackendUnavailableError);
      };
      await unavailable((api) => api.getUser());
      await unavailable((api) => api.signInWithPassword({ email, password: PASSWORD }));
      await unavailable((api) =>
        api.signUp({ email: lostEmail, password: PASSWORD, username: newUsername(), emailRedirectTo: ctx.origin }),
      );
      await unavailable((api) => api.usernameExists("anyone"));
      await unavailable((api) => api.resetPasswordForEmail({ email, redirectTo: `${ctx.origin}/auth/reset` }));
      await unavailable((api) => api.resend({ type: "signup", email, emailRedirectTo: ctx.origin }));
      await unavailable((api) => api.updateUser({ password: "a-new-password-42" }));
      await unavailable((api) => api.findAccountByUsername("anyone"));
      await unavailable((api) => api.insertOrder(lost));
      await unavailable((api) => api.listOrders(user.id));
      // The services pass the outage on (the routes answer 503), never a wrong message.
      await unavailable((api) => logIn(api, email, PASSWORD));
      await unavailable((api) =>
        signUp(api, { username: newUsername(), email: lostEmail, password: PASSWORD, origin: ctx.origin }),
      );
    } finally {
      await ctx.outage.end();
    }

    expect(await ctx.backend.health()).toBe(true);
    expect(await ctx.accountExists(lostEmail)).toBe(false);
    expect(await ctx.mailsTo(lostEmail)).toEqual([]);
    expect(await ctx.ordersWithCode(lost.code)).toEqual([]);
    // What was there before is intact, and the session survived.
    expect(await b.user()).toEqual(user);
    expect((await b.call((api) => api.listOrders(user.id))).rows.map((r) => r.code)).toEqual([kept.code]);
  });

  // ---- Adapter-specific --------------------------------------------------------------

  it("the PKCE email link (exchangeCodeForSession)", async () => {
    const b = browser();
    const email = newEmail();
    await b.call(
      (api) => api.signUp({ email, password: PASSWORD, username: newUsername(), emailRedirectTo: ctx.origin }),
      "/auth",
    );
    if (!ctx.fake) {
      // The embedded auth sends token-hash links only; a ?code= link is refused.
      const { error } = await b.call((api) => api.exchangeCodeForSession("some-code"), "/auth/confirm");
      expect(error).toMatchObject({ code: "flow_state_not_found" });
      expect(await b.user()).toBeNull();
      return;
    }
    // Supabase: the code-verifier cookie set at sign-up travels with the browser.
    expect(b.jar.names().some((n) => n.endsWith("-auth-token-code-verifier"))).toBe(true);
    const mail = ctx.fake.mailbox.find((m) => m.to === email)!;
    const res = await fetch(mail.confirmationUrl, { redirect: "manual" });
    expect(res.status).toBe(303);
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    expect(code).toBeTruthy();
    const { error } = await b.call((api) => api.exchangeCodeForSession(code), `/auth/confirm?code=${code}`);
    expect(error).toBeNull();
    expect((await b.user())?.email).toBe(email);
    const [pkce] = ctx.fake.requestsTo("/auth/v1/token", "POST").filter((r) => r.query.grant_type === "pkce");
    expect(pkce.body).toMatchObject({ auth_code: code, code_verifier: expect.any(String) });
    // The code is single-use.
    const replay = await browser().call((api) => api.exchangeCodeForSession(code));
    expect(replay.error).not.toBeNull();
  });

  // Supabase runs the migrations with `supabase db push`; these are the embedded ones.
  it.runIf(name !== "supabase")("migrations: migrate() applies nothing the second time", async () => {
    expect(await migrate(ctx.sql)).toEqual([]);
    const { rows } = await ctx.sql.query<{ name: string }>(`select name from mixtape_meta.migrations order by name`);
    expect(rows.map((r) => r.name).sort()).toEqual(
      migrationList()
        .map((m) => m.name)
        .sort(),
    );
    expect(rows.map((r) => r.name)).toContain("db/shim.sql");
  });

  it.runIf(name === "pglite")("migrations: db/shim.sql first, then the other db files, then supabase/migrations", async () => {
    const names = migrationList().map((m) => m.name);
    expect(names[0]).toBe("db/shim.sql");
    const shims = names.filter((n) => n.startsWith("db/"));
    expect(names.slice(0, shims.length)).toEqual(shims);
    expect(shims.slice(1)).toEqual([...shims.slice(1)].sort());
    expect(shims).toContain("db/shim-20261126000000-email-requests.sql");
    expect(names.slice(shims.length).every((n) => n.startsWith("supabase/migrations/"))).toBe(true);
  });

  it.runIf(name === "pglite")(
    "a data dir from before the recovery shim takes it on start: recovery tokens then work",
    async () => {
      const db = await openPglite(undefined);
      try {
        // The recovery shim and every db file after it (a later one restates the token types).
        const later = (m: { name: string }) => m.name.startsWith("db/shim-") && m.name >= "db/shim-20261124000000-recovery.sql";
        const before = migrationList().filter((m) => !later(m));
        await migrate(db, before);
        const { rows } = await db.query<{ id: string }>(
          `insert into auth.users (email, encrypted_password) values ('old@example.test', 'x') returning id`,
        );
        const token = (hash: string) =>
          db.query(
            `insert into auth.one_time_tokens (token_hash, user_id, token_type, expires_at) values ($1, $2, 'recovery', now())`,
            [hash, rows[0].id],
          );
        await expect(token("a")).rejects.toThrow(/one_time_tokens_token_type_check/);
        expect(await migrate(db)).toEqual(
          migrationList()
            .filter(later)
            .map((m) => m.name),
        );
        await token("b");
      } finally {
        await db.close();
      }
    },
  );

  it.runIf(name === "postgres")("postgres: concurrent migrate() calls serialize on the advisory lock", async () => {
    // A fresh, empty database in the same cluster: two app processes start at once.
    const admin = ctx.sql;
    const dbName = `mixtape_empty_${unique()}`.toLowerCase();
    await admin.query(`create database ${dbName}`);
    const { rows } = await admin.query<{ port: string }>(`select current_setting('port') as port`);
    const url = `postgres://postgres@127.0.0.1:${rows[0].port}/${dbName}`;
    const [d1, d2] = [await openPostgres(url), await openPostgres(url)];
    try {
      const [a1, a2] = await Promise.all([migrate(d1), migrate(d2)]);
      const names = migrationList().map((m) => m.name);
      // One of them applied every migration, in order; the other waited and found nothing to do.
      expect([a1, a2].find((a) => a.length > 0)).toEqual(names);
      expect([a1, a2].filter((a) => a.length === 0)).toHaveLength(1);
      expect(await migrate(d1)).toEqual([]);
    } finally {
      await d1.close();
      await d2.close();
    }
  });
});
