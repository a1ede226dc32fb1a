// A tampered, malformed, stale or foreign deck becomes a fresh deck, never an error.
import crypto from "node:crypto";
import { freshDeck, setCode, type Deck, type DeckResult } from "~/domain/deck";
import { applyIntent, type DeckIntent } from "~/domain/intents";
import { generateOrderCode } from "~/domain/order-code";
import { readDeck } from "~/domain/schemas";
import { cookieStorage, readCookieData } from "../platform/cookies.server";

const randomInt = (max: number) => crypto.randomInt(max);

export async function loadDeck(request: Request, uid: string): Promise<{ deck: Deck; fresh: boolean }> {
  const data = await readCookieData("deck", request);
  const deck = data && readDeck(data.deck, uid);
  if (deck) return { deck, fresh: false };
  return { deck: freshDeck(uid, randomInt), fresh: true };
}

export async function commitDeck(request: Request, deck: Deck): Promise<string> {
  const storage = cookieStorage("deck", request);
  const session = await storage.getSession();
  session.set("deck", deck);
  return storage.commitSession(session);
}

export type DeckEdit = { ok: true; deck: Deck; cookie: string } | { ok: false; error: string };

async function commit(request: Request, result: DeckResult): Promise<DeckEdit> {
  return result.ok ? { ok: true, deck: result.deck, cookie: await commitDeck(request, result.deck) } : result;
}

export async function editDeck(request: Request, uid: string, intent: DeckIntent): Promise<DeckEdit> {
  const { deck } = await loadDeck(request, uid);
  return commit(request, applyIntent(deck, intent));
}

export async function newOrderCode(request: Request, uid: string): Promise<DeckEdit> {
  const { deck } = await loadDeck(request, uid);
  return commit(request, { ok: true, deck: setCode(deck, generateOrderCode(randomInt)) });
}

/** A deleted account's browser must not keep its owner binding. */
export async function forgetDeck(request: Request): Promise<string> {
  const storage = cookieStorage("deck", request);
  return storage.destroySession(await storage.getSession());
}
