// Supabase mode against the HTTP fake, through the production server: @supabase/ssr
// refreshes the session in a request (the fake's tokens live 60 s, inside supabase-js's
// 90 s margin, so every request refreshes), and the rotated cookies must reach the
// browser on every kind of answer: a 400 with a toast, a redirect, a page. A lost
// cookie would leave the browser with a used refresh token and sign the shopper out.
import { describe, expect, it } from "vitest";
import { COPY } from "~/domain/copy";
import { Client, htmlText, suiteServer, suiteSupabaseFake } from "./setup";

describe("Supabase mode: refreshed session cookies reach every response", () => {
  const supabase = suiteSupabaseFake({ accessTokenSeconds: 60 });
  const server = suiteServer("supabase", {
    env: ({ port }) => ({ ...supabase.env(port), SESSION_SECRET: "supabase-cookie-test-secret-0123456789" }),
  });

  const refreshes = () =>
    supabase.fake.requestsTo("/auth/v1/token", "POST").filter((r) => r.query.grant_type === "refresh_token").length;
  const sessionCookies = (setCookies: string[]) => setCookies.filter((c) => c.startsWith("sb-") && !/max-age=0/i.test(c));

  it("a 400 with a toast, a redirect and a page each carry the refreshed cookies", async () => {
    const client = new Client(server.url);
    const email = "cookie.rebel@example.com";
    const signUp = await client.post("/auth?mode=signup", {
      mode: "signup",
      username: "cookie_rebel",
      email,
      password: "correct-horse-42",
    });
    expect(signUp.status).toBe(302);
    const link = new URL(supabase.fake.mailbox.find((m) => m.to === email)!.link);
    const confirmed = await client.get(link.pathname + link.search);
    expect(confirmed.status).toBe(302);
    expect(sessionCookies(confirmed.setCookies).length).toBeGreaterThan(0);

    let before = refreshes();
    const refused = await client.post("/", { intent: "nonsense" });
    expect(refused.status).toBe(400);
    expect(refreshes()).toBeGreaterThan(before);
    expect(sessionCookies(refused.setCookies).length, "400 with a toast").toBeGreaterThan(0);
    expect(refused.setCookies.some((c) => c.startsWith("mixtape-toast="))).toBe(true);
    expect(htmlText(refused.body)).toContain(COPY.errors.unknownIntent);

    before = refreshes();
    const added = await client.post("/", { intent: "add", songId: "3" });
    expect(added.status).toBe(303);
    expect(refreshes()).toBeGreaterThan(before);
    expect(sessionCookies(added.setCookies).length, "redirect").toBeGreaterThan(0);

    const page = await client.get("/");
    expect(page.status).toBe(200);
    expect(sessionCookies(page.setCookies).length, "page").toBeGreaterThan(0);
    expect(htmlText(page.body)).toContain("Tracks Loaded: 1 / 10");
    expect(htmlText(page.body)).toContain("cookie_rebel");
  });
});
