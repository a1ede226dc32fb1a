// The password-reset window. A valid reset link starts a session (as Supabase's
// recovery link does); for RECOVERY_WINDOW_SECONDS after that, and only for that user,
// this browser may set a new password without typing the current one. A signed cookie
// holding the user's id and the deadline, so it works the same over every backend; the
// deadline is checked on the server, whatever the cookie's own lifetime.
import { cookieStorage, RECOVERY_WINDOW_SECONDS } from "./cookies.server";

/** The Set-Cookie that opens the window for this user. */
export async function openRecoveryWindow(request: Request, userId: string): Promise<string> {
  const storage = cookieStorage("recovery", request);
  const session = await storage.getSession();
  session.set("uid", userId);
  session.set("until", Date.now() + RECOVERY_WINDOW_SECONDS * 1000);
  return storage.commitSession(session);
}

/** True while this browser's window is open for this user. */
export async function inRecoveryWindow(request: Request, userId: string): Promise<boolean> {
  const session = await cookieStorage("recovery", request).getSession(request.headers.get("Cookie"));
  const until = session.get("until");
  return session.get("uid") === userId && typeof until === "number" && until > Date.now();
}

/** The Set-Cookie that closes the window. */
export async function closeRecoveryWindow(request: Request): Promise<string> {
  const storage = cookieStorage("recovery", request);
  return storage.destroySession(await storage.getSession());
}
