// The token's SHA-256 names the window's row, so only this browser can use it, and only once.
import type { RouterContextProvider } from "react-router";
import { cookieChanged, cookieSession, forgetCookie } from "./cookies.server";

type Context = Readonly<RouterContextProvider>;

export async function openRecoveryCookie(context: Context, userId: string, token: string) {
  const session = await cookieSession(context, "recovery");
  session.set("uid", userId);
  session.set("token", token);
  cookieChanged(context, "recovery");
}

export async function recoveryToken(context: Context, userId: string): Promise<string | null> {
  const session = await cookieSession(context, "recovery");
  const token = session.get("token");
  return session.get("uid") === userId && typeof token === "string" ? token : null;
}

export const clearRecoveryCookie = (context: Context) => forgetCookie(context, "recovery");
