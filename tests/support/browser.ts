// A browser stand-in for the contract tests: one cookie jar, and one Backend request
// per call, built with backend.forRequest(new Request(...)) and carrying the jar's
// cookies in a Cookie header. The Set-Cookie headers of api.headers go back into the
// jar after each call, as a browser would store them.
import type { Backend, BackendRequest } from "~/server/backend/port.server";

export type StoredCookie = { name: string; value: string; attributes: string[] };

export class CookieJar {
  private cookies = new Map<string, StoredCookie>();

  /** Stores every Set-Cookie of the headers; an expired or Max-Age=0 cookie is removed. */
  absorb(headers: Headers): string[] {
    const setCookies = headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(";").map((p) => p.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const lower = attrs.map((a) => a.toLowerCase());
      const maxAge = lower.find((a) => a.startsWith("max-age="));
      const expires = attrs.find((a) => a.toLowerCase().startsWith("expires="));
      const expired =
        (maxAge !== undefined && Number(maxAge.slice(8)) <= 0) ||
        (expires !== undefined && Date.parse(expires.slice(8)) <= Date.now());
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, { name, value, attributes: attrs });
    }
    return setCookies;
  }

  header(): string {
    return [...this.cookies.values()].map((c) => `${c.name}=${c.value}`).join("; ");
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }

  get size() {
    return this.cookies.size;
  }

  clear() {
    this.cookies.clear();
  }
}

export class Browser {
  readonly jar = new CookieJar();
  /** The Set-Cookie lines of the last call. */
  lastSetCookies: string[] = [];

  constructor(
    private readonly backend: Backend,
    private readonly origin = "http://localhost",
  ) {}

  /** A Request as a browser with this jar would send it. */
  request(path = "/", cookieHeader = this.jar.header()): Request {
    const headers = new Headers();
    if (cookieHeader) headers.set("Cookie", cookieHeader);
    return new Request(new URL(path, this.origin), { headers });
  }

  /** One request: runs fn against a fresh BackendRequest, then stores its cookies. */
  async call<T>(fn: (api: BackendRequest) => Promise<T>, path = "/"): Promise<T> {
    const api = this.backend.forRequest(this.request(path));
    try {
      return await fn(api);
    } finally {
      this.lastSetCookies = this.jar.absorb(api.headers);
    }
  }

  /** The session's user as a fresh request sees it (or with a given Cookie header). */
  async user(cookieHeader?: string) {
    const api = this.backend.forRequest(this.request("/", cookieHeader ?? this.jar.header()));
    const user = await api.getUser();
    this.jar.absorb(api.headers);
    return user;
  }
}
