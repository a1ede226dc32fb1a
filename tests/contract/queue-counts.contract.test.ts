// The Backend port's queueCounts (issue 39: the console's filters show their counts), against every
// adapter (PGlite, PostgreSQL 15, Supabase against the HTTP fake), as the port's other calls are in
// backend.contract.test.ts: what each filter of /mixer would list, for a search or for every order.
import "../support/env";
import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findSong } from "~/domain/catalogue";
import { DUE_DAYS, type NewOrder } from "~/domain/orders";
import { readQueueCounts } from "~/domain/queue";
import { signUp } from "~/server/services/accounts.server";
import { allHarnesses, type AdapterCtx } from "../support/adapters";
import { Browser } from "../support/browser";

const PASSWORD = "correct-horse-battery";
let seq = 0;
const unique = () => `${process.pid.toString(36)}${(++seq).toString(36)}${crypto.randomBytes(2).toString("hex")}`;
const track = (id: string) => {
  const s = findSong(id)!;
  return { id: s.id, title: s.title, thumbnail: s.thumbnail, previewUrl: s.previewUrl };
};
/** Codes that start with `prefix`: a search for it finds only this test's orders. */
const order = (userId: string, prefix: string): NewOrder => ({
  user_id: userId,
  code: `${prefix}${crypto.randomBytes(4).toString("hex").toUpperCase()}`.slice(0, 8),
  tracks: [track("3")],
  toggles: { Aikavoice: false, djIntro: false, retronoise: false },
  note: "",
  design_id: null,
  codename: "NEON SIGNAL",
});

describe.each(allHarnesses())("queueCounts: $name", (harness) => {
  let ctx: AdapterCtx;
  beforeAll(async () => {
    if (harness.available) await harness.boot();
  });
  afterAll(async () => {
    if (harness.available) await harness.shutdown();
  });
  beforeEach(async (test) => {
    if (!harness.available) return test.skip();
    ctx = await harness.fresh();
  });
  afterEach(async () => {
    await ctx?.close().catch(() => {});
  });

  async function signedInUser(email = `rebel-${unique()}@example.test`) {
    const b = new Browser(ctx.backend, ctx.origin);
    const username = `dj_${unique()}`.slice(0, 32);
    expect(
      await b.call((api) => signUp(api, { username, email, password: PASSWORD, origin: ctx.origin }), "/auth"),
    ).toMatchObject({
      ok: true,
    });
    const link = (await ctx.mailsTo(email)).at(-1)!.link!;
    const verified = await b.call(
      (api) => api.verifyOtp({ tokenHash: link.searchParams.get("token_hash") ?? "", type: link.searchParams.get("type") ?? "" }),
      "/auth/confirm",
    );
    expect(verified.error).toBeNull();
    return { browser: b, user: (await b.user())! };
  }

  it("counts each filter's orders, for a search or all; a shopper counts only their own", async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const mixerEmail = `mixer-${unique()}@example.test`;
    await ctx.makeMixers([mixerEmail]);
    const mixer = await signedInUser(mixerEmail);
    const prefix = `Q${crypto.randomBytes(2).toString("hex").toUpperCase()}`;
    const [a1, a2, b1, b2] = [
      order(alice.user.id, prefix),
      order(alice.user.id, prefix),
      order(bob.user.id, prefix),
      order(bob.user.id, prefix),
    ];
    for (const [who, o] of [
      [alice, a1],
      [alice, a2],
      [bob, b1],
      [bob, b2],
    ] as const)
      expect((await who.browser.call((api) => api.insertOrder(o))).error).toBeNull();
    await mixer.browser.call((api) => api.updateOrder(a2.code, { to: "mixing" }));
    await mixer.browser.call((api) => api.updateOrder(b1.code, { to: "cancelled", from: "received", reason: null }));
    const paid = await mixer.browser.call((api) =>
      api.markMoney(b2.code, { kind: "payment", amount: 1000, currency: "USD", token: crypto.randomUUID() }),
    );
    expect(paid).toEqual({ outcome: "paid", error: null });
    // a1 is late: placed six days ago, behind the app's back.
    await ctx.sql.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`); // past the trigger that keeps an order's contents
      await tx.query(`update public.mixtapes set created_at = now() - interval '6 days' where code = $1`, [a1.code]);
    });

    const counts = async (who: { browser: Browser }, code: string | null) => {
      const { counts: raw, error } = await who.browser.call((api) => api.queueCounts({ code, dueDays: DUE_DAYS }));
      expect(error).toBeNull();
      return readQueueCounts(raw);
    };
    expect(await counts(mixer, prefix)).toEqual({ all: 4, received: 2, mixing: 1, sent: 0, cancelled: 1, unpaid: 3, late: 1 });
    expect(await counts(mixer, a2.code)).toEqual({ all: 1, received: 0, mixing: 1, sent: 0, cancelled: 0, unpaid: 1, late: 0 });
    expect((await counts(mixer, null))!.all).toBeGreaterThanOrEqual(4);
    expect(await counts(alice, prefix)).toEqual({ all: 2, received: 1, mixing: 1, sent: 0, cancelled: 0, unpaid: 2, late: 1 });
  });
});
