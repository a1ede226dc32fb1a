// The token's SHA-256 names the window's row, so only this browser can use it, and only once.
import { cookieStorage } from "./cookies.server";

export async function recoveryCookie(request: Request, userId: string, token: string): Promise<string> {
  const storage = cookieStorage("recovery", request);
  const session = await storage.getSession();
  session.set("uid", userId);
  session.set("token", token);
  return storage.commitSession(session);
}

export async function recoveryToken(request: Request, userId: string): Promise<string | null> {
  const session = await cookieStorage("recovery", request).getSession(request.headers.get("Cookie"));
  const token = session.get("token");
  return session.get("uid") === userId && typeof token === "string" ? token : null;
}

export async function clearRecoveryCookie(request: Request): Promise<string> {
  const storage = cookieStorage("recovery", request);
  return storage.destroySession(await storage.getSession());
}
