// The Backend port's contract, the shopper owns the account: download my data, delete
// my account, change email, sign out everywhere else; run against every adapter.
import "../../support/env";
import { describe, expect, it } from "vitest";
import { ACCOUNT_COPY, OWN_ACCOUNT_COPY } from "~/domain/copy-auth";
import { shopperName } from "~/domain/display-name";
import { readOrderRow } from "~/domain/orders";
import { openRecoveryLink } from "~/server/services/accounts.server";
import { sha256 } from "~/server/backend/passwords.server";
import { NOT_CONFIGURED } from "~/server/backend/port.server";
import { createSupabaseBackend } from "~/server/backend/supabase/index.server";
import { orderEmail } from "~/server/services/order-emails.server";
import {
  confirmEmailChange,
  deleteAccount,
  exportAccount,
  requestEmailChange,
  signOutEverywhereElse,
} from "~/server/services/own-account.server";
import { allHarnesses, type AdapterCtx } from "../../support/adapters";
import { Browser } from "../../support/browser";
import { PASSWORD, unique, newEmail, order, backendContract, shopHelpers } from "../../support/backend-contract";
import { queue } from "../../support/order-cases";

describe.each(allHarnesses())("Backend contract: $name", (harness) => {
  let ctx: AdapterCtx;
  const contract = backendContract(harness, (fresh) => (ctx = fresh));
  const { name, browser, signedInUser } = contract;
  const { shoppersAndMixer, place } = shopHelpers(contract);

  // ---- The shopper owns the account ---------------------------------------------------

  describe("the shopper owns the account", () => {
    const idOf = async (code: string) =>
      (await ctx.sql.query<{ id: string }>(`select id::text as id from public.mixtapes where code = $1`, [code])).rows[0].id;
    /** A message on an order, written behind the app's back (conversation.contract.test.ts owns the writing). */
    const say = async (code: string, author: string, fromMixer: boolean, body: string) =>
      ctx.sql.query(`insert into public.order_messages (order_id, author_id, from_mixer, body) values ($1, $2, $3, $4)`, [
        await idOf(code),
        author,
        fromMixer,
        body,
      ]);
    const login = (email: string, password = PASSWORD) =>
      browser().call((api) => api.signInWithPassword({ email, password }), "/auth");
    /** Two shoppers with orders, messages and order emails, and a mixer who moved Alice's orders on. */
    async function shopWithHistory() {
      const { alice, bob, mixer } = await shoppersAndMixer();
      const [paid, open, sent] = [order(alice.user.id), order(alice.user.id, { note: "Second tape" }), order(alice.user.id)];
      const theirs = order(bob.user.id, { note: "Bob's own words" });
      await place([
        [alice, paid],
        [alice, open],
        [alice, sent],
        [bob, theirs],
      ]);
      await ctx.backend.payments!.record({
        provider: "stripe",
        eventId: `evt_${unique()}`,
        kind: "payment",
        code: paid.code,
        amount: 1500,
        currency: "USD",
        reference: `pi_${unique()}`,
      });
      for (const c of [{ to: "mixing" }, { to: "sent", deliveryUrl: "https://tapes.example/s", message: "Enjoy" }] as const)
        await mixer.browser.call((api) => api.updateOrder(sent.code, c));
      await say(paid.code, alice.user.id, false, "Can you add a fade?");
      await say(paid.code, mixer.user.id, true, "Sure, fading it in.");
      await say(theirs.code, bob.user.id, false, "Bob's secret request");
      return { alice, bob, mixer, paid, open, sent, theirs };
    }

    it("download my data: exactly the shopper's rows, never a password hash or a session id", async () => {
      const { alice, bob, mixer, paid, open, sent, theirs } = await shopWithHistory();
      const file = await alice.browser.call((api) => exportAccount(api, alice.user), "/account/data");
      expect(file?.fileName).toBe(`mixtape-data-${alice.username}.json`);
      const doc = JSON.parse(file!.body);
      expect(doc.profile).toEqual({ username: alice.username, email: alice.email, createdAt: expect.any(String) });
      expect(doc.orders.map((o: { code: string }) => o.code)).toEqual([paid.code, open.code, sent.code]);
      const [first, second, third] = doc.orders;
      expect(first).toMatchObject({
        status: "received",
        codename: paid.codename,
        design: { id: "high-voltage", name: "high voltage" },
        tracks: paid.tracks.map((t, i) => ({ position: i + 1, id: t.id, title: t.title })),
        note: paid.note,
        payment: {
          paid: true,
          totals: [
            { currency: "USD", paid: "$15.00", refunded: "$0.00", net: "$15.00", netMinorUnits: 1500, refundDue: "$0.00" },
          ],
          movements: [
            { kind: "payment", via: "stripe", amount: "$15.00", amountMinorUnits: 1500, currency: "USD", at: expect.any(String) },
          ],
        },
        messages: [
          { from: "you", body: "Can you add a fade?", sentAt: expect.any(String) },
          { from: "the shop", body: "Sure, fading it in.", sentAt: expect.any(String) },
        ],
      });
      expect(first.options).toHaveLength(2);
      expect(second).toMatchObject({ note: "Second tape", payment: { paid: false }, messages: [] });
      expect(third).toMatchObject({ status: "sent", delivery: { link: "https://tapes.example/s", message: "Enjoy" } });
      expect(third.history).toMatchObject({ mixingAt: expect.any(String), sentAt: expect.any(String) });
      // The order emails to Alice's address, by subject, each about her own orders.
      const subjects = doc.emails.map((e: { subject: string }) => e.subject);
      expect(subjects).toEqual(
        expect.arrayContaining([
          `Your order ${paid.code} is in`,
          `Payment received for ${paid.code}`,
          `Message about ${paid.code}`,
          `Your tape is ready: ${sent.code}`,
        ]),
      );
      expect(subjects.every((subject: string) => [paid.code, open.code, sent.code].some((c) => subject.includes(c)))).toBe(true);
      expect(doc.emails[0]).toEqual({
        subject: expect.any(String),
        order: expect.any(String),
        queuedAt: expect.any(String),
        sentAt: null,
      });

      // Nothing of anyone else's, no secret of the account.
      const text = file!.body;
      for (const foreign of [theirs.code, "Bob's", bob.email, bob.username, bob.user.id, mixer.email, mixer.user.id])
        expect(text).not.toContain(foreign);
      expect(text).not.toMatch(/encrypted_password|scrypt|session|access_token|refresh_token/i);
      if (name !== "supabase") {
        const { rows } = await ctx.sql.query<{ id: string; encrypted_password: string }>(
          `select s.id, u.encrypted_password from auth.sessions s join auth.users u on u.id = s.user_id where u.id = $1`,
          [alice.user.id],
        );
        expect(rows.length).toBeGreaterThan(0);
        for (const r of rows) {
          expect(text).not.toContain(r.id);
          expect(text).not.toContain(r.encrypted_password);
        }
      }
      // A mixer reads every order under RLS; their own export still holds only their own rows.
      const own = JSON.parse((await mixer.browser.call((api) => exportAccount(api, mixer.user)))!.body);
      expect(own).toMatchObject({ profile: { email: mixer.email }, orders: [], emails: [] });
      // Signed out, there is nothing to export.
      expect((await browser().call((api) => api.exportData())).data).toBeNull();
    });

    it("delete my account: paid and sent orders stay anonymised, the received unpaid one is cancelled, the rest is removed", async () => {
      const { alice, bob, mixer, paid, open, sent, theirs } = await shopWithHistory();
      const other = browser();
      expect((await other.call((api) => api.signInWithPassword({ email: alice.email, password: PASSWORD }))).error).toBeNull();
      const oldCookie = alice.browser.jar.header();
      const [paidId, openId] = [await idOf(paid.code), await idOf(open.code)];
      await ctx.sql.query(
        `insert into public.order_reads (order_id, reader, read_at) values ($1, 'shopper', now()), ($1, 'mixer', now())
         on conflict (order_id, reader) do nothing`,
        [paidId],
      );
      await ctx.backend.emails!.claim(100);

      // The password is checked first: a wrong one changes nothing.
      expect(await alice.browser.call((api) => deleteAccount(api, alice.user, "not-my-password-9"), "/account")).toEqual({
        ok: false,
        message: ACCOUNT_COPY.wrongCurrentPassword,
      });
      expect(await ctx.accountExists(alice.email)).toBe(true);
      expect(await other.user()).toEqual(alice.user);

      expect(await alice.browser.call((api) => deleteAccount(api, alice.user, PASSWORD), "/account")).toEqual({ ok: true });
      // Every browser of the account is out, this one's cookie cleared, an old cookie refused.
      expect(await alice.browser.user()).toBeNull();
      expect(await other.user()).toBeNull();
      expect(await browser().user(oldCookie)).toBeNull();
      expect((await login(alice.email)).error?.message).toBe("Invalid login credentials");

      // The account, its profile, sessions, links and conversations are gone.
      expect(await ctx.accountExists(alice.email)).toBe(false);
      const count = async (sql: string, params: unknown[]) => (await ctx.sql.query<{ n: number }>(sql, params)).rows[0].n;
      expect(await count(`select count(*)::int as n from public.profiles where id = $1`, [alice.user.id])).toBe(0);
      expect(await count(`select count(*)::int as n from public.mixtapes where user_id = $1`, [alice.user.id])).toBe(0);
      expect(
        await count(`select count(*)::int as n from public.order_messages where order_id in ($1, $2)`, [paidId, openId]),
      ).toBe(0);
      expect(
        await count(`select count(*)::int as n from public.order_emails where lower(recipient) = lower($1)`, [alice.email]),
      ).toBe(0);
      expect(
        await count(`select count(*)::int as n from public.order_reads where order_id = $1 and reader = 'shopper'`, [paidId]),
      ).toBe(0);
      expect(
        await count(`select count(*)::int as n from public.order_reads where order_id = $1 and reader = 'mixer'`, [paidId]),
      ).toBe(1);
      // Her messages are gone, so nothing of hers is left unread in the console.
      expect(await count(`select coalesce(sum(unread), 0)::int as n from public.order_reads where order_id = $1`, [paidId])).toBe(
        0,
      );
      if (name !== "supabase") {
        for (const table of ["auth.sessions", "auth.one_time_tokens", "auth.email_requests"])
          expect(await count(`select count(*)::int as n from ${table} where user_id = $1`, [alice.user.id])).toBe(0);
      }

      // The books keep every order, anonymised: code, tracks, options, amounts and dates; no note, no shopper.
      const kept = async (code: string) => readOrderRow((await ctx.ordersWithCode(code))[0])!;
      const [paidRow] = await ctx.ordersWithCode(paid.code);
      expect(paidRow).toMatchObject({ user_id: null, note: "" });
      expect((await kept(paid.code)).money.lines).toEqual([expect.objectContaining({ currency: "USD", paid: 1500, net: 1500 })]);
      expect(await kept(paid.code)).toMatchObject({
        tracks: paid.tracks,
        toggles: paid.toggles,
        design_id: paid.design_id,
        status: "received",
      });
      expect(await kept(sent.code)).toMatchObject({ status: "sent", note: "", delivery_url: "https://tapes.example/s" });
      expect(await kept(open.code)).toMatchObject({ status: "cancelled", note: "", cancelled_by_shopper: true, paid: false });
      // The console shows "Deleted account"; the mixers were told of the cancel.
      const { rows } = await mixer.browser.call((api) => api.listQueue(queue()));
      const shown = rows.filter((r) => [paid.code, open.code, sent.code].includes(String(r.code)));
      expect(shown).toHaveLength(3);
      for (const r of shown)
        expect(shopperName(r, { username: (r.username as string) ?? null, email: (r.email as string) ?? null })).toBe(
          "Deleted account",
        );
      const told = (await ctx.backend.emails!.claim(100)).filter((e) => e.order.code === open.code);
      expect(told.map((e) => [e.kind, e.recipient.toLowerCase()])).toEqual([["cancelled", mixer.email.toLowerCase()]]);
      expect(orderEmail(told[0]).text).toContain(`Deleted account cancelled order ${open.code}.`);
      // A last email to the address says so.
      expect((await ctx.mailsTo(alice.email)).map((m) => m.subject)).toContain(
        "Your account at Underground Mixtape Shop is deleted",
      );

      // Bob's order and conversation are untouched.
      expect(readOrderRow((await ctx.ordersWithCode(theirs.code))[0])).toMatchObject({
        note: "Bob's own words",
        status: "received",
      });
      expect(
        await count(`select count(*)::int as n from public.order_messages where order_id = $1`, [await idOf(theirs.code)]),
      ).toBe(1);
      expect(await bob.browser.user()).toEqual(bob.user);

      // The address and the username are free again.
      const again = await signedInUser(alice.username, alice.email);
      expect(again.user.id).not.toBe(alice.user.id);
      expect((await again.browser.call((api) => api.listOrders(again.user.id))).rows).toEqual([]);
    });

    it.runIf(name === "supabase")("delete without the service role key: not configured, and nothing is deleted", async () => {
      const { email } = await signedInUser();
      const keyless = createSupabaseBackend({ url: ctx.fake!.url, anonKey: ctx.fake!.anonKey });
      const b = new Browser(keyless, ctx.origin);
      expect((await b.call((api) => api.signInWithPassword({ email, password: PASSWORD }))).error).toBeNull();
      const user = (await b.user())!;
      expect(await b.call((api) => api.deleteUser())).toMatchObject({ error: { code: NOT_CONFIGURED } });
      expect(await b.call((api) => deleteAccount(api, user, PASSWORD))).toEqual({
        ok: false,
        message: OWN_ACCOUNT_COPY.deleteNotConfigured,
      });
      expect(await ctx.accountExists(email)).toBe(true);
      expect(await b.user()).toEqual(user);
      expect(ctx.fake!.requestsTo("/auth/v1/admin/users/", "DELETE")).toEqual([]);
    });

    it("change email: pending until the link is opened; the old address works until then; another account's address gets the same answer", async () => {
      const alice = await signedInUser();
      const bob = await signedInUser();
      const next = newEmail();
      const change = (newAddress: string, currentPassword = PASSWORD) =>
        alice.browser.call(
          (api) => requestEmailChange(api, alice.user, { newEmail: newAddress, currentPassword }, ctx.origin),
          "/account",
        );
      const pending = () => alice.browser.call((api) => api.pendingEmail());

      expect(await change(next, "not-my-password-9")).toEqual({ ok: false, message: ACCOUNT_COPY.wrongCurrentPassword });
      expect(await change(alice.email.toUpperCase())).toEqual({ ok: false, message: OWN_ACCOUNT_COPY.sameEmail });
      // Bob's address: the same answer as any other, and Bob hears nothing.
      expect(await change(bob.email)).toEqual({ ok: true });
      expect((await ctx.mailsTo(bob.email)).filter((m) => m.link?.pathname === "/account/email")).toEqual([]);
      expect(await change(next)).toEqual({ ok: true });
      expect((await pending()).email).toBe(next);

      // Until the link is opened, the old address logs in and recovers; the new one does neither.
      expect((await login(alice.email)).error).toBeNull();
      expect((await login(next)).error?.message).toBe("Invalid login credentials");
      expect(await alice.browser.user()).toMatchObject({ email: alice.email });
      await browser().call((api) => api.resetPasswordForEmail({ email: alice.email, redirectTo: `${ctx.origin}/auth/reset` }));
      const reset = (await ctx.mailsTo(alice.email)).filter((m) => m.link?.pathname === "/auth/reset");
      expect(reset).toHaveLength(1);

      // The link to the new address (single use, hashed); the old address is told (Supabase: its own link).
      const toNew = (await ctx.mailsTo(next)).filter((m) => m.link?.pathname === "/account/email");
      expect(toNew).toHaveLength(1);
      const link = toNew[0].link!;
      expect(link.origin).toBe(ctx.origin);
      expect(link.searchParams.get("type")).toBe("email_change");
      const opener = browser();
      const open = (l: URL) => opener.call((api) => confirmEmailChange(api, l.searchParams), "/account/email");
      if (name === "supabase") {
        const toOld = (await ctx.mailsTo(alice.email)).filter((m) => m.link?.pathname === "/account/email");
        expect(toOld).toHaveLength(1);
        expect(await open(link)).toBe("halfway");
        expect((await login(alice.email)).error).toBeNull(); // still the old address
        expect(await open(toOld[0].link!)).toBe("done");
        const [put] = ctx.fake!.requestsTo("/auth/v1/user", "PUT").filter((r) => (r.body as { email?: string }).email === next);
        expect(put.query.redirect_to).toBe(`${ctx.origin}/account/email`);
      } else {
        const notice = (await ctx.mailsTo(alice.email)).map((m) => m.subject);
        expect(notice.filter((s) => s === "Your email at Underground Mixtape Shop is about to change")).toHaveLength(2);
        const token = link.searchParams.get("token_hash")!;
        const { rows } = await ctx.sql.query<{ token_hash: string; seconds: number }>(
          `select token_hash, extract(epoch from expires_at - created_at)::int as seconds
             from auth.one_time_tokens where user_id = $1 and token_type = 'email_change'`,
          [alice.user.id],
        );
        expect(rows).toEqual([{ token_hash: sha256(token), seconds: 3600 }]);
        expect(await open(link)).toBe("done");
      }
      expect(await opener.user()).toEqual({ id: alice.user.id, email: next });
      expect(await open(link)).toBe("invalid"); // once

      // Now the new address is the account's, everywhere.
      expect((await login(next)).error).toBeNull();
      expect((await login(alice.email)).error?.message).toBe("Invalid login credentials");
      expect((await pending()).email).toBeNull();
      expect(await alice.browser.user()).toEqual({ id: alice.user.id, email: next });
      const { rows: profile } = await ctx.sql.query(`select email from public.profiles where id = $1`, [alice.user.id]);
      expect(profile).toEqual([{ email: next }]);
      if (name !== "supabase") {
        // Links mailed to the old address before the change stop working.
        expect(await browser().call((api) => openRecoveryLink(api, reset[0].link!.searchParams))).toBeNull();
      }
    });

    it("sign out everywhere else: every other session ends, the answer says how many, this browser stays", async () => {
      const { browser: mine, user, email } = await signedInUser();
      const others = [browser(), browser()];
      for (const b of others)
        expect((await b.call((api) => api.signInWithPassword({ email, password: PASSWORD }))).error).toBeNull();
      const { browser: bob, user: bobUser } = await signedInUser();

      const first = await mine.call((api) => signOutEverywhereElse(api), "/account");
      expect(first).toEqual({
        ok: true,
        message: name === "supabase" ? "Other sessions signed out." : "2 other sessions signed out.",
      });
      for (const b of others) expect(await b.user()).toBeNull();
      expect(await mine.user()).toEqual(user);
      expect(await bob.user()).toEqual(bobUser);
      const again = await mine.call((api) => signOutEverywhereElse(api), "/account");
      expect(again.message).toBe(name === "supabase" ? "Other sessions signed out." : "0 other sessions signed out.");
      expect(OWN_ACCOUNT_COPY.otherSessionsEnded(1)).toBe("1 other session signed out.");
      if (ctx.fake)
        expect(ctx.fake.requestsTo("/auth/v1/logout", "POST").map((r) => r.query.scope)).toEqual(["others", "others"]);
      // The old password still works: nothing else changed.
      expect((await login(email)).error).toBeNull();
    });
  });
});
