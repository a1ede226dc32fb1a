// POST /client-errors (app/routes/client-errors.ts), where the error boundary and the page's
// error listeners report what the browser met: one warn line per report (message, page path,
// request id, user agent; nothing else of the body), 20 a minute per address (here
// RATE_LIMIT_FACTOR=0.25: 5), 413 over 4 kB, and same-origin only, as every POST.
import { beforeAll, describe, expect, it } from "vitest";
import { REFUSAL_COPY } from "~/domain/copy";
import { Client, suiteServer } from "./setup";

const BEACON = { accept: "*/*", "user-agent": "MixtapeBrowser/1.0 (system test)" };

describe("client error reports", () => {
  const server = suiteServer("client-errors", { env: { RATE_LIMIT_FACTOR: "0.25" } });
  let client: Client;

  beforeAll(() => {
    client = new Client(server.url, BEACON);
  });

  /** The "client error" lines the server has logged so far. */
  const reports = () =>
    server
      .output()
      .split("\n")
      .filter((line) => line.includes('"msg":"client error"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it("answers 204 and logs one warn line with the message, the path, the request id and the user agent", async () => {
    const reply = await client.post("/client-errors", {
      message: "TypeError: deck is undefined",
      page: "/review?token=abc",
      password: "never-logged",
    });
    expect(reply.status).toBe(204);
    await expect.poll(() => reports().length).toBe(1);
    const [line] = reports();
    expect(line).toMatchObject({
      level: 40,
      message: "TypeError: deck is undefined",
      page: "/review",
      requestId: reply.headers.get("x-request-id"),
      userAgent: BEACON["user-agent"],
    });
    expect(JSON.stringify(line)).not.toContain("never-logged");
    expect(JSON.stringify(line)).not.toContain("abc");
  });

  it("logs at most 500 characters of a message", async () => {
    const reply = await client.post("/client-errors", { message: "z".repeat(3000), page: "/" });
    expect(reply.status).toBe(204);
    await expect.poll(() => reports().length).toBe(2);
    expect(reports()[1].message).toBe("z".repeat(500));
  });

  it("refuses a body over 4 kB with 413, and logs nothing", async () => {
    const reply = await client.post("/client-errors", { message: "x".repeat(5000), page: "/" });
    expect(reply.status).toBe(413);
    expect(reply.body).toBe(REFUSAL_COPY.tooLarge);
    expect(reports()).toHaveLength(2);
  });

  it("refuses a cross-site report with 403, as every POST", async () => {
    for (const headers of [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }] as Record<string, string>[]) {
      const reply = await client.post("/client-errors", { message: "forged", page: "/" }, headers);
      expect(reply.status).toBe(403);
      expect(reply.body).toBe(REFUSAL_COPY.crossSite);
    }
    expect(reports()).toHaveLength(2);
  });

  it("answers GET with 405", async () => {
    const reply = await client.get("/client-errors");
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("POST");
  });

  it("limits an address to 20 reports a minute (5 with RATE_LIMIT_FACTOR=0.25): then 429 with Retry-After", async () => {
    const statuses: number[] = [];
    let last = null as Awaited<ReturnType<Client["post"]>> | null;
    for (let i = 0; i < 4; i++) {
      last = await client.post("/client-errors", { message: `report ${i}`, page: "/" });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([204, 204, 204, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    await expect.poll(() => reports().length).toBe(5);
    // Other POSTs of the address have their own, larger limit.
    expect((await client.post("/logout", {})).status).toBe(302);
  });
});
