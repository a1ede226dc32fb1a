// What every file of the Backend port's contract (tests/contract/backend/) shares: the
// harness booted once per file with a fresh context per test, signed-in browsers, and
// the orders, decks and shops the cases are made of. Cookies travel between requests in
// a small jar (tests/support/browser.ts), as a browser would carry them.
import crypto from "node:crypto";
import { expect } from "vitest";
import { freshDeck, type Deck } from "~/domain/deck";
import { findSong, SEEDED_CATALOGUE } from "~/domain/catalogue";
import { readMoney } from "~/domain/money";
import type { NewOrder } from "~/domain/orders";
import { signUp } from "~/server/services/accounts.server";
import type { AdapterCtx, AdapterHarness } from "./adapters";
import { Browser } from "./browser";
import { freshEachTest } from "./per-file";

export const PASSWORD = "correct-horse-battery";
/** How many unique() names this file has made; live, for the cases that name a reference by it. */
export let seq = 0;
export const unique = () => `${process.pid.toString(36)}${(++seq).toString(36)}${crypto.randomBytes(2).toString("hex")}`;
export const newEmail = () => `rebel-${unique()}@example.test`;
export const newUsername = () => `dj_${unique()}`.slice(0, 32);
export const newCode = () => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return Array.from(crypto.randomBytes(8), (b) => alphabet[b % alphabet.length]).join("");
};
export const track = (id: string) => {
  const s = findSong(SEEDED_CATALOGUE, id)!;
  return { id: s.id, title: s.title, thumbnail: s.thumbnail, previewUrl: s.previewUrl };
};
export const order = (userId: string, over: Partial<NewOrder> = {}): NewOrder => ({
  user_id: userId,
  code: newCode(),
  tracks: [track("3"), track("1"), track("30")],
  toggles: { Aikavoice: true, djIntro: false, retronoise: true },
  note: "The System can't stop your signal",
  design_id: "high-voltage",
  codename: "NEON SIGNAL",
  ...over,
});
export const deckFor = (userId: string, code: string | null, songs = ["5", "2", "17"]): Deck => ({
  ...freshDeck(userId, () => 0),
  songs,
  code,
  note: "Play it loud",
  design: "unicorn-mix",
  toggles: { Aikavoice: false, djIntro: true, retronoise: false },
});
/** The link's token_hash and type, as the /auth/confirm route reads them. */
export const linkParams = (link: URL | null) => {
  expect(link, "the confirmation email carries a link").not.toBeNull();
  return { tokenHash: link!.searchParams.get("token_hash") ?? "", type: link!.searchParams.get("type") ?? "" };
};

export type Contract = ReturnType<typeof backendContract>;
export type SignedIn = Awaited<ReturnType<Contract["signedInUser"]>>;

/**
 * Boots the harness once for the file and gives each test a fresh context (handed to
 * `onFresh`, so a file's cases read it as a plain `ctx`); skips when the adapter cannot run here.
 */
export function backendContract(harness: AdapterHarness, onFresh: (ctx: AdapterCtx) => void) {
  let ctx: AdapterCtx | undefined;
  freshEachTest(harness, (fresh) => {
    ctx = fresh;
    onFresh(fresh);
  });

  const current = () => ctx!;
  const browser = () => new Browser(current().backend, current().origin);

  /** Signs up through the service, confirms through the emailed link; a signed-in browser. */
  async function signedInUser(username = newUsername(), email = newEmail()) {
    const b = browser();
    const outcome = await b.call(
      (api) => signUp(api, { username, email, password: PASSWORD, origin: current().origin }),
      "/auth",
    );
    expect(outcome).toMatchObject({ ok: true });
    const mails = await current().mailsTo(email);
    const { tokenHash, type } = linkParams(mails.at(-1)!.link);
    const verified = await b.call((api) => api.verifyOtp({ tokenHash, type }), "/auth/confirm");
    expect(verified.error).toBeNull();
    const user = await b.user();
    expect(user).not.toBeNull();
    return { browser: b, user: user!, username, email };
  }

  return { name: harness.name, ctx: current, browser, signedInUser };
}

/** The shops the order cases start from: two shoppers and a mixer, their orders, and reads behind the app's back. */
export function shopHelpers({ ctx, signedInUser }: Contract) {
  /** Alice, Bob and a mixer, signed in; the mixer's address is listed as `listAs` writes it. */
  async function shoppersAndMixer(listAs = (email: string) => email) {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const mixerEmail = newEmail();
    await ctx().makeMixers([listAs(mixerEmail)]);
    const mixer = await signedInUser(newUsername(), mixerEmail);
    return { alice, bob, mixer };
  }
  /** Places each order from its shopper's browser, in the order given. */
  async function place(orders: readonly (readonly [SignedIn, NewOrder])[]) {
    for (const [who, o] of orders) {
      expect((await who.browser.call((api) => api.insertOrder(o))).error).toBeNull();
    }
  }
  /** The order's money as the ledger's one rule derives it, read behind the app's back. */
  const moneyOf = async (code: string) =>
    readMoney(
      (await ctx().sql.query(`select public.order_money(m) as money from public.mixtapes m where m.code = $1`, [code])).rows[0]
        ?.money,
    );
  /** Moves one of an order's recorded times into the past, behind the app's back (triggers off). */
  const backdate = (code: string, column: "created_at" | "sent_at" | "cancelled_at", days: number) =>
    ctx().sql.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(`update public.mixtapes set ${column} = now() - make_interval(days => $2) where code = $1`, [code, days]);
    });
  return { shoppersAndMixer, place, moneyOf, backdate };
}
