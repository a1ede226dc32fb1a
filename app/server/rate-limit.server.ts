// Rate limits on login and sign-up (per IP and per identifier), with
// rate-limiter-flexible's in-memory store. RATE_LIMIT_FACTOR scales every limit.
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { getConfig } from "./config.server";

type Limiter = { consume(key: string): Promise<unknown> };
const limiters = new Map<string, Limiter>();

function limiter(name: string, points: number, duration: number): Limiter {
  let l = limiters.get(name);
  if (!l) {
    l = new RateLimiterMemory({ keyPrefix: name, points: Math.ceil(points * getConfig().RATE_LIMIT_FACTOR), duration });
    limiters.set(name, l);
  }
  return l;
}

export const LIMITS = {
  loginPerIp: { points: 30, duration: 10 * 60 },
  loginPerIdentifier: { points: 10, duration: 10 * 60 },
  signupPerIp: { points: 10, duration: 60 * 60 },
  signupPerEmail: { points: 3, duration: 60 * 60 },
} as const;

export function clientIp(request: Request): string {
  return request.headers.get("x-mixtape-client-ip") ?? "unknown";
}

/** Consumes one point from each limit; returns Retry-After headers when over. */
export async function limitAuth(request: Request, mode: "login" | "signup", identifier: string): Promise<Headers | null> {
  const ip = clientIp(request);
  const id = identifier.trim().toLowerCase();
  const checks: [Limiter, string][] =
    mode === "login"
      ? [
          [limiter("login-ip", LIMITS.loginPerIp.points, LIMITS.loginPerIp.duration), ip],
          [limiter("login-id", LIMITS.loginPerIdentifier.points, LIMITS.loginPerIdentifier.duration), id],
        ]
      : [
          [limiter("signup-ip", LIMITS.signupPerIp.points, LIMITS.signupPerIp.duration), ip],
          [limiter("signup-email", LIMITS.signupPerEmail.points, LIMITS.signupPerEmail.duration), id],
        ];
  for (const [l, key] of checks) {
    try {
      await l.consume(key);
    } catch (e) {
      if (e instanceof RateLimiterRes) {
        return new Headers({ "Retry-After": String(Math.ceil(e.msBeforeNext / 1000)) });
      }
      throw e;
    }
  }
  return null;
}
