import { describe, expect, it } from "vitest";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { activeSongs, findDesign, findSong, readCatalogue, SEEDED_CATALOGUE as SEED } from "~/domain/catalogue";

const SONGS = SEED.songs;
const DESIGNS = SEED.designs;
const COVER_BACKGROUNDS = SEED.backgrounds.map((b) => b.image);

const PUBLIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../public");

/** A site URL such as "/art/x.svg" must be a non-empty file under public/. */
function assetSize(url: string): number {
  expect(url.startsWith("/")).toBe(true);
  expect(url).not.toContain("..");
  const file = path.join(PUBLIC, url);
  expect(file.startsWith(PUBLIC + path.sep)).toBe(true);
  try {
    const st = statSync(file);
    return st.isFile() ? st.size : 0;
  } catch {
    return 0;
  }
}

describe('songs (spec: 30 songs, ids "1" to "30")', () => {
  it("has exactly 30 songs with ids 1..30 in order", () => {
    expect(SONGS).toHaveLength(30);
    expect(SONGS.map((s) => s.id)).toEqual(Array.from({ length: 30 }, (_, i) => String(i + 1)));
  });
  it("titles are non-empty and unique", () => {
    const titles = SONGS.map((s) => s.title);
    for (const t of titles) expect(t.trim().length).toBeGreaterThan(0);
    expect(new Set(titles).size).toBe(30);
    expect(new Set(titles.map((t) => t.toLowerCase())).size).toBe(30);
  });
  it("each song has id, title, thumbnail and previewUrl as strings, on sale, at its first version", () => {
    for (const s of SONGS) {
      expect(Object.keys(s).sort()).toEqual(["active", "id", "previewUrl", "thumbnail", "title", "version"]);
      for (const v of [s.id, s.title, s.thumbnail, s.previewUrl]) expect(typeof v).toBe("string");
      expect(s).toMatchObject({ active: true, version: 1 });
    }
  });
  it("thumbnails and previews are unique", () => {
    expect(new Set(SONGS.map((s) => s.thumbnail)).size).toBe(30);
    expect(new Set(SONGS.map((s) => s.previewUrl)).size).toBe(30);
  });
  it("findSong finds every song by id and nothing else", () => {
    for (const s of SONGS) expect(findSong(SEED, s.id)).toBe(s);
    for (const id of ["0", "31", "", "01", " 1", "__proto__", "constructor", "toString"])
      expect(findSong(SEED, id)).toBeUndefined();
  });
});

describe("designs (spec: four designs)", () => {
  it("has the four spec names in order", () => {
    expect(DESIGNS.map((d) => d.name)).toEqual(["ice cold", "system burnout", "high voltage", "unicorn mix"]);
  });
  it("ids and images are unique and non-empty", () => {
    expect(new Set(DESIGNS.map((d) => d.id)).size).toBe(4);
    expect(new Set(DESIGNS.map((d) => d.image)).size).toBe(4);
    for (const d of DESIGNS) {
      expect(d.id).toMatch(/^[a-z0-9-]+$/);
      expect(d.image.length).toBeGreaterThan(0);
    }
  });
  it("findDesign finds by id; null, undefined, empty and unknown give undefined", () => {
    for (const d of DESIGNS) expect(findDesign(SEED, d.id)).toBe(d);
    for (const id of [null, undefined, "", "ice cold", "none", "constructor"]) expect(findDesign(SEED, id)).toBeUndefined();
  });
});

describe("cover backgrounds (spec: three)", () => {
  it("has three distinct backgrounds", () => {
    expect(COVER_BACKGROUNDS).toHaveLength(3);
    expect(new Set(COVER_BACKGROUNDS).size).toBe(3);
  });
});

describe("every referenced asset exists under public/", () => {
  it.each(SONGS.map((s) => [s.id, s.thumbnail] as const))("song %s thumbnail %s", (_id, url) => {
    expect(assetSize(url)).toBeGreaterThan(0);
  });
  it.each(SONGS.map((s) => [s.id, s.previewUrl] as const))("song %s preview %s", (_id, url) => {
    expect(url).toMatch(/\.mp3$/);
    expect(assetSize(url)).toBeGreaterThan(0);
  });
  it.each(DESIGNS.map((d) => [d.name, d.image] as const))("design %s image %s", (_name, url) => {
    expect(assetSize(url)).toBeGreaterThan(0);
  });
  it.each(COVER_BACKGROUNDS.map((u) => [u]))("cover background %s", (url) => {
    expect(assetSize(url)).toBeGreaterThan(0);
  });
});

describe("readCatalogue: the database's answer (public.shop_catalogue)", () => {
  it("reads songs, designs and backgrounds as given, in order; retired ones stay but leave the library", () => {
    const raw = {
      songs: [
        { id: "2", title: "B", thumbnail: "/t/2.webp", previewUrl: "/p/2.mp3", active: true, version: 3 },
        { id: "1", title: "A", thumbnail: "/t/1.webp", previewUrl: "/p/1.mp3", active: false, version: 1 },
      ],
      designs: [{ id: "design-5", name: "dusk", image: "/d.webp", colour: "#112233", active: true, version: 2 }],
      backgrounds: [{ slot: 0, image: "/b.webp", version: 4 }],
    };
    const catalogue = readCatalogue(raw);
    expect(catalogue.songs.map((s) => s.id)).toEqual(["2", "1"]);
    expect(activeSongs(catalogue).map((s) => s.id)).toEqual(["2"]);
    expect(findSong(catalogue, "1")).toMatchObject({ title: "A", active: false });
    expect(catalogue.designs).toEqual(raw.designs);
    expect(catalogue.backgrounds).toEqual(raw.backgrounds);
  });
  it("drops malformed rows and reads nothing from nothing", () => {
    expect(readCatalogue(null)).toEqual({ songs: [], designs: [], backgrounds: [] });
    expect(readCatalogue({ songs: [{ id: 1, title: "x" }, "x", null], designs: "no" }).songs).toEqual([]);
  });
});
