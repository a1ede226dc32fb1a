// Requests the HTTP layer refuses before any route runs: a missing or malformed Host
// (400), OPTIONS and other methods (405 with Allow), a malformed URL (the refusal page of
// server/app.ts, docs/decisions/014-refusal-pages.md). None of them answers 5xx, and none
// logs a stack trace.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { COPY } from "~/domain/copy";
import { Client, htmlText, suiteServer } from "./setup";

/** A raw HTTP/1.1 exchange, so that Host can be left out or malformed. */
function raw(port: number, request: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
    let data = "";
    socket.on("data", (d) => (data += d.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head, ...body] = data.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body: body.join("\r\n\r\n") });
    });
  });
}

describe("malformed requests", () => {
  const server = suiteServer("requests");

  it.each([
    ["no Host at all (HTTP/1.0)", "GET /auth HTTP/1.0\r\nAccept: text/html\r\n\r\n"],
    ["a Host with a space", "GET /auth HTTP/1.1\r\nHost: a b\r\nAccept: text/html\r\nConnection: close\r\n\r\n"],
    ["a Host with a path", "GET /auth HTTP/1.1\r\nHost: evil.example/x\r\nAccept: text/html\r\nConnection: close\r\n\r\n"],
    ["a Host with an @", "GET / HTTP/1.1\r\nHost: user@evil.example\r\nConnection: close\r\n\r\n"],
  ])("%s: 400, not a 500", async (_label, request) => {
    const reply = await raw(server.port, request);
    expect(reply.status).toBe(400);
  });

  it("OPTIONS and other methods: 405 with Allow", async () => {
    for (const method of ["OPTIONS", "PUT", "DELETE", "PATCH"]) {
      const reply = await fetch(`${server.url}/auth`, { method });
      expect(reply.status, method).toBe(405);
      expect(reply.headers.get("allow"), method).toBe("GET, HEAD, POST");
    }
  });

  it("a malformed URL: a styled 400 page for a browser, text for others", async () => {
    const page = await new Client(server.url).get("/%E0%A4%A");
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.body).toMatch(/<style>[^<]*background/);
    expect(htmlText(page.body)).toContain(COPY.errors.badRequest);
    const text = await fetch(`${server.url}/%E0%A4%A`);
    expect(text.status).toBe(400);
    expect(await text.text()).toBe(COPY.errors.badRequest);
  });

  it("logged none of the above with a stack trace", () => {
    expect(server.output()).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(server.output()).not.toMatch(/URIError|Cannot read properties/);
  });
});
