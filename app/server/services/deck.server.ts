// A tampered, malformed, stale or foreign deck becomes a fresh deck, never an error. The deck
// lives in its own signed cookie session; the root middleware writes it out once, when it changed.
import crypto from "node:crypto";
import type { RouterContextProvider } from "react-router";
import { freshDeck, setCode, type Deck, type DeckResult } from "~/domain/deck";
import { applyIntent, type DeckIntent } from "~/domain/intents";
import { generateOrderCode } from "~/domain/order-code";
import { readDeck } from "~/domain/schemas";
import { cookieChanged, cookieSession, forgetCookie } from "../platform/cookies.server";
import { catalogueOf } from "./catalogue.server";

type Context = Readonly<RouterContextProvider>;
const randomInt = (max: number) => crypto.randomInt(max);

/** A fresh deck is stored at once, so its codename and cover stay stable. */
export async function loadDeck(context: Context, uid: string): Promise<Deck> {
  const [session, catalogue] = await Promise.all([cookieSession(context, "deck"), catalogueOf(context)]);
  const deck = readDeck(session.get("deck"), uid, catalogue);
  if (deck) return deck;
  const fresh = freshDeck(uid, randomInt);
  await saveDeck(context, fresh);
  return fresh;
}

export async function saveDeck(context: Context, deck: Deck) {
  (await cookieSession(context, "deck")).set("deck", deck);
  cookieChanged(context, "deck");
}

export type DeckEdit = { ok: true; deck: Deck } | { ok: false; error: string };

async function keep(context: Context, result: DeckResult): Promise<DeckEdit> {
  if (result.ok) await saveDeck(context, result.deck);
  return result;
}

export async function editDeck(context: Context, uid: string, intent: DeckIntent): Promise<DeckEdit> {
  const [deck, catalogue] = await Promise.all([loadDeck(context, uid), catalogueOf(context)]);
  return keep(context, applyIntent(deck, intent, catalogue));
}

export async function newOrderCode(context: Context, uid: string): Promise<DeckEdit> {
  const deck = await loadDeck(context, uid);
  return keep(context, { ok: true, deck: setCode(deck, generateOrderCode(randomInt)) });
}

/** A deleted account's browser must not keep its owner binding. */
export const forgetDeck = (context: Context) => forgetCookie(context, "deck");
