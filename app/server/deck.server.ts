// The deck in its own signed cookie session. Read with zod on every request: a
// tampered, malformed, stale or foreign deck becomes a fresh deck, never an error.
import crypto from "node:crypto";
import { freshDeck, type Deck } from "~/domain/deck";
import { readDeck } from "~/domain/schemas";
import { cookieStorage, readCookieData } from "./cookies.server";

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

export const serverRandomInt = randomInt;
