// Headers and cookies of the production server, the body limit, and the 429s.
// - A CSP with a fresh nonce on every response, the same nonce on every script tag.
// - helmet's headers as docs/decisions/013-headers.md sets them: X-Content-Type-Options,
//   Referrer-Policy, frame-ancestors 'none' (and X-Frame-Options), Cross-Origin-Opener- and
//   -Resource-Policy, no Cross-Origin-Embedder-Policy, no X-Powered-By; HSTS and
//   upgrade-insecure-requests only over https. Permissions-Policy, set by hand.
// - Cookies: HttpOnly, SameSite=Lax, Path=/; over https (X-Forwarded-Proto with
//   TRUST_PROXY=1) also Secure with __Host- names, and no Domain.
// - A body over the limit: 413 (a small page of its own for a browser); a chunked body without a length: 411.
// - Pages compressed as accepted (brotli, else gzip).
// - With small limits (RATE_LIMIT_FACTOR=0.02): the login form shows its 429 without
//   JavaScript, and the global per-address POST limit answers 429 with a clear page.
import fs from "node:fs";
import http from "node:http";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { COPY, REFUSAL_COPY } from "~/domain/copy";
import { humanWait } from "~/domain/time";
import { Client, htmlText, suiteServer } from "./setup";

const HTTPS = { "x-forwarded-proto": "https" };

describe("security headers and cookies", () => {
  const server = suiteServer("headers", { env: { TRUST_PROXY: "1" } });
  const { dataDir } = server;

  const nonceOf = (csp: string | null) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp ?? "")?.[1];

  it("sends a CSP with a fresh per-request nonce that matches every script tag", async () => {
    const client = new Client(server.url);
    const one = await client.get("/auth");
    const two = await client.get("/auth");
    const n1 = nonceOf(one.headers.get("content-security-policy"));
    const n2 = nonceOf(two.headers.get("content-security-policy"));
    expect(n1).toMatch(/^[A-Za-z0-9+/]{22}==$/); // 16 random bytes
    expect(n2).toBeTruthy();
    expect(n1).not.toBe(n2);
    for (const [reply, nonce] of [
      [one, n1],
      [two, n2],
    ] as const) {
      const scripts = [...reply.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    }
    const csp = one.headers.get("content-security-policy")!;
    const directives = (policy: string) => new Set(policy.split(";").map((d) => d.trim()));
    const policy = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${n1}'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "media-src 'self'",
      "font-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ];
    // Exactly these directives (helmet adds none of its defaults); over https also upgrade-insecure-requests.
    expect(directives(csp)).toEqual(new Set(policy));
    const secure = await client.get("/auth", HTTPS);
    const n3 = nonceOf(secure.headers.get("content-security-policy"));
    expect(directives(secure.headers.get("content-security-policy")!)).toEqual(
      new Set([...policy.map((d) => d.replace(n1!, n3!)), "upgrade-insecure-requests"]),
    );
  });

  it("sends the other headers on pages, errors and static files; HSTS only over https", async () => {
    const client = new Client(server.url);
    for (const path of ["/auth", "/no-such-page", "/favicon.svg", "/healthz"]) {
      const reply = await client.get(path);
      expect(reply.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(reply.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(reply.headers.get("permissions-policy"), path).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
      expect(reply.headers.get("x-frame-options"), path).toBe("DENY");
      expect(reply.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(reply.headers.get("x-powered-by"), path).toBeNull();
      expect(reply.headers.get("strict-transport-security"), path).toBeNull();
      expect(reply.headers.get("cross-origin-opener-policy"), path).toBe("same-origin");
      // Our pages, images and audio load only from our own origin; nothing embeds a cross-origin resource.
      expect(reply.headers.get("cross-origin-resource-policy"), path).toBe("same-origin");
      expect(reply.headers.get("cross-origin-embedder-policy"), path).toBeNull();
      // helmet's harmless defaults, kept (docs/decisions/013-headers.md).
      expect(reply.headers.get("origin-agent-cluster"), path).toBe("?1");
      expect(reply.headers.get("x-xss-protection"), path).toBe("0");
    }
    const secure = await client.get("/auth", HTTPS);
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(secure.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
  });

  /** Every Set-Cookie of a full sign-up, confirmation and first storefront visit. */
  async function cookiesOfAVisit(headers: Record<string, string>, name: string) {
    const all: string[] = [];
    const client = new Client(server.url, headers);
    const signup = await client.post("/auth?mode=signup", {
      mode: "signup",
      username: name,
      email: `${name}@example.com`,
      password: "correct-horse-42",
    });
    expect(signup.status).toBe(302);
    all.push(...signup.setCookies);
    const mail = fs.readdirSync(`${dataDir}/outbox`).map((f) => JSON.parse(fs.readFileSync(`${dataDir}/outbox/${f}`, "utf8")));
    const link = new URL(/https?:\/\/\S+/.exec(mail.find((m) => m.to === `${name}@example.com`).text)![0]);
    const confirm = await client.get(link.pathname + link.search);
    expect(confirm.status).toBe(302);
    all.push(...confirm.setCookies);
    const home = await client.get("/");
    expect(home.status).toBe(200);
    all.push(...home.setCookies);
    return { all, link };
  }

  it("sets HttpOnly, SameSite=Lax cookies over http", async () => {
    const { all } = await cookiesOfAVisit({}, "plain_rebel");
    const names = all.map((c) => c.split("=")[0]);
    expect(new Set(names)).toEqual(new Set(["mixtape-toast", "mixtape-auth", "mixtape-deck"]));
    for (const c of all) {
      expect(c).toMatch(/;\s*HttpOnly/i);
      expect(c).toMatch(/;\s*SameSite=Lax/i);
      expect(c).toMatch(/;\s*Path=\//i);
      expect(c).not.toMatch(/;\s*Domain=/i);
      expect(c).not.toMatch(/;\s*Secure/i);
    }
  });

  it("adds Secure and __Host- names over https (behind a proxy, TRUST_PROXY=1)", async () => {
    const { all, link } = await cookiesOfAVisit(HTTPS, "secure_rebel");
    expect(link.origin).toBe(`http://localhost:${server.port}`); // SITE_URL's default: never the request's origin
    const names = all.map((c) => c.split("=")[0]);
    expect(new Set(names)).toEqual(new Set(["__Host-mixtape-toast", "__Host-mixtape-auth", "__Host-mixtape-deck"]));
    for (const c of all) {
      expect(c).toMatch(/;\s*Secure/i);
      expect(c).toMatch(/;\s*HttpOnly/i);
      expect(c).toMatch(/;\s*SameSite=Lax/i);
      expect(c).toMatch(/;\s*Path=\/(;|$)/i);
      expect(c).not.toMatch(/;\s*Domain=/i);
    }
  });

  it("refuses a body over the limit with 413, and a chunked body without a length with 411", async () => {
    const client = new Client(server.url);
    const tooBig = await client.post("/auth", { mode: "login", email: "a@b.co", password: "p".repeat(20 * 1024) });
    expect(tooBig.status).toBe(413);
    // A page of server/app.ts's own (docs/decisions/014-refusal-pages.md): the message, a way home, no script.
    expect(tooBig.headers.get("content-type")).toMatch(/^text\/html/);
    expect(tooBig.headers.get("cache-control")).toBe("no-store");
    expect(tooBig.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(htmlText(/<h1[^>]*data-testid="error-heading"[^>]*>([^<]*)<\/h1>/.exec(tooBig.body)?.[1] ?? "")).toBe(
      "The request is too large.",
    );
    expect(tooBig.body).toMatch(/<a href="\/">Go home<\/a>/);
    expect(tooBig.body).not.toContain("<script");
    const plain = await client.request("/auth", {
      method: "POST",
      body: `mode=login&password=${"p".repeat(20 * 1024)}`,
      headers: { accept: "*/*", "content-type": "application/x-www-form-urlencoded" },
    });
    expect(plain.status).toBe(413);
    expect(plain.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(plain.body).toBe("The request is too large.");

    const chunked = await fetch(`${server.url}/auth`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("mode=login"));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(411);
  });

  it("compresses pages as the client accepts (the compression middleware): brotli, else gzip, else none", async () => {
    const fetchRaw = (path: string, acceptEncoding: string, method = "GET") =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.request(`${server.url}${path}`, { method, headers: { "accept-encoding": acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject);
        req.end();
      });
    const plain = await fetchRaw("/auth", "identity");
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    // Every reply carries its own nonce: compare the text with the nonces taken out.
    const text = (body: Buffer) => body.toString("utf8").replace(/nonce="[^"]*"/g, "nonce");
    const br = await fetchRaw("/auth", "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(text(zlib.brotliDecompressSync(br.body))).toBe(text(plain.body));
    const gzip = await fetchRaw("/auth", "br;q=0, gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(text(zlib.gunzipSync(gzip.body))).toBe(text(plain.body));
    // A 404 page and a HEAD request go the same way; static files keep their own compression.
    const missing = await fetchRaw("/no-such-page", "gzip");
    expect(missing.status).toBe(404);
    expect(zlib.gunzipSync(missing.body).toString()).toContain("<html");
    const head = await fetchRaw("/auth", "gzip", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(plain.body.toString())![1];
    const asset = await fetchRaw(css, "gzip");
    expect(asset.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(asset.body).length).toBeGreaterThan(asset.body.length);
  });
});

describe("429s with small limits (RATE_LIMIT_FACTOR=0.02)", () => {
  const server = suiteServer("limited", { env: { RATE_LIMIT_FACTOR: "0.02" } });

  it("takes X-Forwarded-Proto only from a trusted proxy: without TRUST_PROXY, no HSTS", async () => {
    const reply = await new Client(server.url).get("/auth", HTTPS);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("strict-transport-security")).toBeNull();
    expect(reply.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
    expect(reply.setCookies.every((c) => !/;\s*Secure/i.test(c))).toBe(true);
  });

  it("shows the login limit's 429 in the form's red box, without JavaScript", async () => {
    const client = new Client(server.url);
    const first = await client.post("/auth", { mode: "login", email: "victim@example.com", password: "guess-number-1" });
    expect(first.status).toBe(400);
    const second = await client.post("/auth", { mode: "login", email: "victim@example.com", password: "guess-number-2" });
    expect(second.status).toBe(429);
    const box = /data-testid="auth-error"[^>]*>([\s\S]*?)<\/div>/.exec(second.body)?.[1] ?? "";
    // The real wait, as Retry-After gives it, rounded for people: the 15-minute window.
    const wait = Number(second.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(14 * 60);
    expect(htmlText(box)).toContain(COPY.errors.tooManyRequests(humanWait(wait)));
    expect(htmlText(box)).toMatch(/Please wait about 1[45] minutes and try again\./);
    // The form is still there to try again later.
    const form = /<form[^>]*id="auth-login"[^>]*>/.exec(second.body)?.[0] ?? "";
    expect(form).toContain('action="/auth"');
    expect(form).toContain('method="post"');
  });

  it("does not let a client choose its own address for the limits", async () => {
    // The address comes from the socket (server/app.ts), and without TRUST_PROXY
    // X-Forwarded-For is ignored: still 127.0.0.1, still over.
    const spoofer = new Client(server.url, { "x-mixtape-client-ip": "203.0.113.7", "x-forwarded-for": "203.0.113.8" });
    const reply = await spoofer.post("/auth", { mode: "login", email: "someone.else@example.com", password: "guess-number-3" });
    expect(reply.status).toBe(429);
    expect(htmlText(reply.body)).toContain("Too many attempts. Please wait about");
  });

  it("answers 429 with a clear page once an address exceeds the global POST limit", async () => {
    // 300 POSTs a minute x 0.02 = 6 per address; 3 were used above.
    const client = new Client(server.url);
    const statuses: number[] = [];
    let refused = null as Awaited<ReturnType<Client["post"]>> | null;
    for (let i = 0; i < 10 && !refused; i++) {
      const reply = await client.post("/logout", {});
      statuses.push(reply.status);
      if (reply.status === 429) refused = reply;
    }
    expect(statuses).toEqual([302, 302, 302, 429]);
    expect(refused!.headers.get("content-type")).toMatch(/^text\/html/);
    const wait = humanWait(Number(refused!.headers.get("retry-after")));
    expect(htmlText(refused!.body)).toContain(REFUSAL_COPY.tooMany(wait));
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Non-HTML clients (React Router's data requests) get the same words as text.
    const data = await client.request("/logout.data", { method: "POST", form: {}, headers: { accept: "*/*" } });
    expect(data.status).toBe(429);
    expect(data.body).toMatch(
      /^Too many requests from your address\. Please wait (a few seconds|about a minute) and try again\.$/,
    );
    // Pages are not limited.
    expect((await client.get("/auth")).status).toBe(200);
  });
});
