// The system tests' side of HTTP: one shopper's cookie jar over fetch (redirects not followed),
// readers of what the production server's pages show, and requests a few at a time. Re-exported by ./setup.

/** The password of every account the system tests seed (./setup's seedShoppers). */
export const PASSWORD = "mixtape-system-pass-42";

export type Reply = { status: number; location: string | null; body: string; headers: Headers; setCookies: string[] };

/** One shopper: a cookie jar over fetch. Redirects are returned, never followed. */
export class Client {
  readonly jar = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly defaults: Record<string, string> = {},
  ) {}

  cookieHeader() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(
    pathname: string,
    init: {
      method?: string;
      form?: Record<string, string> | URLSearchParams;
      body?: BodyInit;
      headers?: Record<string, string>;
      cookies?: boolean;
    } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { accept: "text/html", ...this.defaults, ...init.headers };
    if (init.cookies !== false && this.jar.size) headers.cookie = this.cookieHeader();
    let body = init.body;
    if (init.form) {
      body = (init.form instanceof URLSearchParams ? init.form : new URLSearchParams(init.form)).toString();
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    }
    const res = await fetch(this.base + pathname, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      redirect: "manual",
    });
    const text = await res.text();
    const setCookies = res.headers.getSetCookie();
    for (const c of setCookies) {
      const [pair, ...attrs] = c.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const location = res.headers.get("location");
    return {
      status: res.status,
      location: location ? new URL(location, this.base).pathname : null,
      body: text,
      headers: res.headers,
      setCookies,
    };
  }

  get(pathname: string, headers?: Record<string, string>) {
    return this.request(pathname, { headers });
  }
  post(pathname: string, form: Record<string, string> | URLSearchParams, headers?: Record<string, string>) {
    return this.request(pathname, { method: "POST", form, headers });
  }

  async logIn(email: string, password = PASSWORD): Promise<Reply> {
    return this.post("/auth", { mode: "login", email, password });
  }
}

/** Decodes the few entities React escapes in text. */
export const htmlText = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** What GET / shows of the deck: the track count and the song ids in order. */
export function deckOf(html: string): { count: number; songs: string[]; code: string | null } {
  const count = Number(/Tracks Loaded: (?:<!-- -->)?(\d+)/.exec(html)?.[1] ?? Number.NaN);
  const deckStart = html.indexOf('id="deck"');
  const deck = deckStart >= 0 ? html.slice(deckStart) : "";
  const songs = [...deck.matchAll(/name="songId" value="(\d+)"/g)].map((m) => m[1]);
  const code = /name="code" value="([A-Z0-9]{8})"/.exec(html)?.[1] ?? null;
  return { count, songs: [...new Set(songs)], code };
}

/** The order codes /my-mixtapes lists. */
export const orderCodesOf = (html: string) =>
  [...html.matchAll(/data-testid="order-code"[^>]*>([A-Z0-9]{8})</g)].map((m) => m[1]);

/** Runs fn over items with at most `limit` in flight. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return results;
}
