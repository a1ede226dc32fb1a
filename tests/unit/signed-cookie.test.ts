// The synchronous signed cookie (app/server/signed-cookie.server.ts) against React
// Router's own createCookie: the same bytes, readable both ways, and secret rotation.
import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { createSignedCookie, signValue, unsignValue } from "~/server/platform/signed-cookie.server";

const OPTIONS = { httpOnly: true, sameSite: "lax" as const, path: "/", maxAge: 3600 };
const DATA = { deck: ["3", "14", "27"], cover: "bg-2", note: 'für dich ♫ "quoted" <b>', n: 10 };
const valueOf = (setCookie: string) => setCookie.split(";")[0];

describe("signed cookies in React Router's format", () => {
  it("writes exactly what React Router's signed cookie writes", async () => {
    const ours = createSignedCookie("mixtape-deck", { ...OPTIONS, secrets: ["s1"] });
    const theirs = createCookie("mixtape-deck", { ...OPTIONS, secrets: ["s1"] });
    expect(valueOf(await ours.serialize(DATA))).toBe(valueOf(await theirs.serialize(DATA)));
    const attributes = (c: string) =>
      c
        .split("; ")
        .slice(1)
        .filter((a) => !a.startsWith("Expires="));
    expect(attributes(await ours.serialize(DATA))).toEqual(attributes(await theirs.serialize(DATA)));
  });

  it("reads React Router's cookies, and React Router reads ours", async () => {
    const ours = createSignedCookie("c", { ...OPTIONS, secrets: ["s1"] });
    const theirs = createCookie("c", { ...OPTIONS, secrets: ["s1"] });
    expect(await ours.parse(valueOf(await theirs.serialize(DATA)))).toEqual(DATA);
    expect(await theirs.parse(valueOf(await ours.serialize(DATA)))).toEqual(DATA);
  });

  it("keeps verifying with an old secret after rotation, and signs with the new one", async () => {
    const before = createSignedCookie("c", { ...OPTIONS, secrets: ["old"] });
    const after = createSignedCookie("c", { ...OPTIONS, secrets: ["new", "old"] });
    const onlyNew = createSignedCookie("c", { ...OPTIONS, secrets: ["new"] });
    const oldCookie = valueOf(await before.serialize(DATA));
    expect(await after.parse(oldCookie)).toEqual(DATA);
    expect(await onlyNew.parse(oldCookie)).toBeNull();
    expect(await onlyNew.parse(valueOf(await after.serialize(DATA)))).toEqual(DATA);
  });

  it("refuses a tampered value or signature, and tells absent from empty", async () => {
    const cookie = createSignedCookie("c", { ...OPTIONS, secrets: ["s1"] });
    const good = decodeURIComponent(valueOf(await cookie.serialize(DATA)).slice(2));
    const dot = good.lastIndexOf(".");
    const forged = Buffer.from(JSON.stringify({ ...DATA, deck: ["1"] })).toString("base64");
    for (const bad of [`${forged}${good.slice(dot)}`, `${good.slice(0, dot)}.AAAA`, good.slice(0, dot), `${good}x`, "."]) {
      expect(await cookie.parse(`c=${encodeURIComponent(bad)}`)).toBeNull();
    }
    expect(await cookie.parse("other=1")).toBeNull();
    expect(await cookie.parse(null)).toBeNull();
    expect(await cookie.parse("c=")).toBe("");
  });

  it("signValue and unsignValue round-trip, and need a matching secret", () => {
    const signed = signValue("abc", "k");
    expect(signed).toMatch(/^abc\.[A-Za-z0-9+/]{43}$/);
    expect(unsignValue(signed, ["x", "k"])).toBe("abc");
    expect(unsignValue(signed, ["x"])).toBe(false);
    expect(unsignValue("no-dot", ["k"])).toBe(false);
  });
});
