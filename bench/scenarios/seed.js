// The shoppers and orders the scenarios read: through the real forms, and 5,000 orders straight
// into the data dir for the mixer's console.
import {
  countMatches,
  deckIntent,
  expectStatus,
  newAgent,
  now,
  placeOrder,
  seedManyAccounts,
  seedManyOrders,
  signUpShopper,
} from "../lib/index.js";
import { CFG, MIXER, log } from "../lib/config.js";

async function inBatches(items, size, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

export async function seed(base, dataDir, loopClients) {
  const agent = newAgent(16);
  const s = now();
  // The shopper with the full deck (GET / and Lighthouse).
  const deckShopper = await signUpShopper(base, dataDir, "deck", agent);
  for (let id = 1; id <= 10; id++) await deckIntent(base, deckShopper, { intent: "add", songId: String(id) }, agent);
  const home = await expectStatus(base, { path: "/", jar: deckShopper.jar, agent }, 200);
  const tracks = countMatches(home.body, /data-testid="deck-track"/g);
  if (tracks !== 10) throw new Error(`the full deck shows ${tracks} tracks, expected 10`);

  // The shopper with 50 orders (GET /my-mixtapes), each placed the realistic way.
  const orderShopper = await signUpShopper(base, dataDir, "orders", agent);
  const seededCodes = [];
  for (let i = 0; i < 50; i++) seededCodes.push(await placeOrder(base, orderShopper, (i % 30) + 1, agent));
  // 20 a page, newest first, by the Older orders link (a cursor): pages 1-2 hold 20 each, page 3 the oldest 10.
  let path = "/my-mixtapes";
  for (const [n, expected] of [20, 20, 10].entries()) {
    const orders = await expectStatus(base, { path, jar: orderShopper.jar, agent }, 200);
    const cards = countMatches(orders.body, /data-testid="order-card"/g);
    if (cards !== expected) throw new Error(`/my-mixtapes page ${n + 1} (${path}) shows ${cards} orders, expected ${expected}`);
    const older = /<a [^>]*data-testid="orders-older"[^>]*>/.exec(orders.body)?.[0];
    path = older ? (/href="([^"]+)"/.exec(older)?.[1] ?? "") : "";
    if (!path !== (n === 2)) throw new Error(`/my-mixtapes page ${n + 1} ${path ? "links" : "does not link"} an older page`);
  }

  // One shopper per virtual client of the POST loops, each with a 9-track deck.
  const clients = await inBatches(
    Array.from({ length: loopClients }, (_, i) => i),
    4,
    async (i) => {
      const shopper = await signUpShopper(base, dataDir, `load${i}`, agent);
      for (let id = 1; id <= 9; id++) await deckIntent(base, shopper, { intent: "add", songId: String(id) }, agent);
      shopper.has10 = false;
      return shopper;
    },
  );
  agent.destroy();
  log(`seeded ${2 + loopClients} shoppers and 50 orders in ${((now() - s) / 1000).toFixed(1)} s`);
  return { deckShopper, orderShopper, seededCodes, clients };
}

// ---- Many orders: the mixer's console and a shopper with 500 ----------------------------

/** On the first boot: the accounts of the many-orders scenarios (bench/lib/index.js). */
export const seedAccounts = (base, dataDir) => seedManyAccounts(base, dataDir, MIXER);

/** The orders of those scenarios, straight into the stopped server's data dir. */
export async function seedDirect(dataDir, accounts) {
  const s = now();
  const n = await seedManyOrders(dataDir, accounts, { total: CFG.mixerOrders, many: CFG.manyOrders });
  log(`seeded ${CFG.mixerOrders} orders into the data dir in ${((now() - s) / 1000).toFixed(1)} s (${n} in all)`);
  return n;
}
