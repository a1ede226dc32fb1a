// The browser's error reports (app/components/client-errors.ts): what is sent, how, and how often.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type Module = typeof import("~/components/client-errors");

describe("reportClientError", () => {
  let beacons: { url: string; body: URLSearchParams }[];
  let fetches: { url: string; init: RequestInit }[];
  let beaconAccepts: boolean;
  let reporter: Module;

  beforeEach(async () => {
    beacons = [];
    fetches = [];
    beaconAccepts = true;
    vi.stubGlobal("window", { location: { pathname: "/my-mixtapes", search: "?token=secret" } });
    vi.stubGlobal("navigator", {
      sendBeacon: (url: string, body: URLSearchParams) => {
        beacons.push({ url, body });
        return beaconAccepts;
      },
    });
    vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
      fetches.push({ url, init });
      return Promise.resolve(new Response(null, { status: 204 }));
    });
    vi.resetModules(); // a fresh count per test, as a fresh page load
    reporter = await import("~/components/client-errors");
  });
  afterEach(() => vi.unstubAllGlobals());

  it("sends the error's name and message and the page's path (never its query) as a form, by beacon", () => {
    reporter.reportClientError(new TypeError("x is not a function"));
    expect(beacons).toHaveLength(1);
    expect(beacons[0].url).toBe("/client-errors");
    expect(Object.fromEntries(beacons[0].body)).toEqual({ message: "TypeError: x is not a function", page: "/my-mixtapes" });
  });

  it("cuts a long message", () => {
    reporter.reportClientError(new Error("y".repeat(10_000)));
    expect(beacons[0].body.get("message")).toHaveLength(reporter.CLIENT_ERRORS.messageMax);
  });

  it("falls back to fetch with keepalive when the beacon is not queued", () => {
    beaconAccepts = false;
    reporter.reportClientError("a thrown string");
    expect(fetches).toHaveLength(1);
    expect(fetches[0].url).toBe("/client-errors");
    expect(fetches[0].init).toMatchObject({ method: "POST", keepalive: true });
    expect(String(fetches[0].init.body)).toBe("message=a+thrown+string&page=%2Fmy-mixtapes");
  });

  it("skips an error rebuilt from the server's answer (no stack: the server logged it)", () => {
    const fromServer = new Error("Unexpected Server Error");
    fromServer.stack = undefined;
    reporter.reportClientError(fromServer);
    const hydrated = new Error("Unexpected Server Error");
    hydrated.stack = "";
    reporter.reportClientError(hydrated);
    expect(beacons).toEqual([]);
  });

  it("reports one error once, and at most five per page load", () => {
    const error = new Error("once");
    reporter.reportClientError(error);
    reporter.reportClientError(error);
    expect(beacons).toHaveLength(1);
    for (let i = 0; i < 10; i++) reporter.reportClientError(new Error(`loop ${i}`));
    expect(beacons).toHaveLength(5);
  });

  it("does nothing outside a browser (the server's render)", () => {
    vi.stubGlobal("window", undefined);
    reporter.reportClientError(new Error("on the server"));
    expect(beacons).toEqual([]);
    expect(fetches).toEqual([]);
  });
});
