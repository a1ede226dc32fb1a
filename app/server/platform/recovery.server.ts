// The password-reset window's cookie. A valid reset link starts a session and opens a
// window (a row in public.recovery_windows, services/accounts.server.ts); this signed
// cookie holds the user's id and the random token whose SHA-256 names that row, so only
// this browser can use the window, and only once.
import { cookieStorage } from "./cookies.server";

/** The Set-Cookie that gives this browser the window's token. */
export async function recoveryCookie(request: Request, userId: string, token: string): Promise<string> {
  const storage = cookieStorage("recovery", request);
  const session = await storage.getSession();
  session.set("uid", userId);
  session.set("token", token);
  return storage.commitSession(session);
}

/** This browser's window token for this user, or null. */
export async function recoveryToken(request: Request, userId: string): Promise<string | null> {
  const session = await cookieStorage("recovery", request).getSession(request.headers.get("Cookie"));
  const token = session.get("token");
  return session.get("uid") === userId && typeof token === "string" ? token : null;
}

/** The Set-Cookie that removes the window's cookie. */
export async function clearRecoveryCookie(request: Request): Promise<string> {
  const storage = cookieStorage("recovery", request);
  return storage.destroySession(await storage.getSession());
}
