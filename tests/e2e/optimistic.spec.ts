// With JavaScript (docs/decisions/003-deck-edits.md), what the deck shows never goes backwards
// between an edit and the fresh data. Every value the count, the "In Mixtape" marks and the deck
// rows take is recorded (MutationObserver) during 10 quick edits with the CPU slowed 4×; each
// must be the state after some prefix of the edits, and the prefixes only ever grow.
import { expect } from "@playwright/test";
import { SEEDED_CATALOGUE } from "~/domain/catalogue";

const SONGS = SEEDED_CATALOGUE.songs;
import { postsSettled, signUpAndConfirm, test } from "./fixtures";

type Edit = { kind: "add" | "remove" | "up" | "down"; id: string };
const title = (id: string) => SONGS.find((s) => s.id === id)!.title;

/** The deck after each prefix of the edits: [after 0, after 1, ...]. */
function states(edits: Edit[]): string[] {
  let deck: string[] = [];
  const out = [JSON.stringify(view(deck))];
  for (const { kind, id } of edits) {
    const at = deck.indexOf(id);
    if (kind === "add") deck = [...deck, id];
    if (kind === "remove") deck = deck.filter((s) => s !== id);
    if (kind === "up" || kind === "down") {
      const to = kind === "up" ? at - 1 : at + 1;
      deck = [...deck];
      [deck[at], deck[to]] = [deck[to], deck[at]];
    }
    out.push(JSON.stringify(view(deck)));
  }
  return out;
}
const view = (deck: string[]) => ({
  count: `Tracks Loaded: ${deck.length} / 10`,
  marks: [...deck].sort((a, b) => Number(a) - Number(b)),
  rows: deck.map(title),
});

test("10 quick adds, removes and moves on a slow phone: the count, the marks and the rows only move forward", async ({
  page,
}) => {
  test.skip(test.info().project.name !== "js-on", "the optimistic deck is JavaScript's");
  await signUpAndConfirm(page);
  await page.waitForFunction(() => document.querySelector("[data-add-song]") && "__reactRouterRouteModules" in window);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });

  await page.evaluate(() => {
    const seen: string[] = [];
    const snapshot = () => {
      const marks = [...document.querySelectorAll("[data-testid=song-card]")]
        .filter((card) => card.querySelector("[data-testid=in-mixtape]"))
        .map((card) => card.id.replace("song-", ""))
        .sort((a, b) => Number(a) - Number(b));
      const rows = [...document.querySelectorAll("[data-testid=deck-track-title]")].map((r) => r.textContent);
      const value = JSON.stringify({ count: document.querySelector("[data-testid=tracks-loaded]")!.textContent, marks, rows });
      if (seen.at(-1) !== value) seen.push(value);
    };
    snapshot();
    new MutationObserver(snapshot).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    (window as unknown as { seen: string[] }).seen = seen;
  });

  const edits: Edit[] = [
    { kind: "add", id: "1" },
    { kind: "add", id: "2" },
    { kind: "add", id: "3" },
    { kind: "up", id: "3" },
    { kind: "add", id: "4" },
    { kind: "remove", id: "2" },
    { kind: "down", id: "1" },
    { kind: "add", id: "5" },
    { kind: "remove", id: "4" },
    { kind: "up", id: "5" },
  ];
  for (const { kind, id } of edits) {
    const name = { add: "Add to Mixtape", remove: "Remove", up: "Move Up", down: "Move Down" }[kind];
    const where = kind === "add" ? page.locator(`#song-${id}`) : page.locator("#deck");
    await where.getByRole("button", { name: `${name}: ${title(id)}`, exact: true }).click();
  }
  const expected = states(edits);
  await expect(page.locator("#deck")).not.toHaveAttribute("aria-busy", "true");
  await expect(page.getByTestId("tracks-loaded")).toHaveText(JSON.parse(expected.at(-1)!).count);
  await postsSettled(page);

  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  const positions = seen.map((value) => expected.indexOf(value));
  expect(
    seen.filter((_, i) => positions[i] < 0),
    "values that no prefix of the edits gives",
  ).toEqual([]);
  for (let i = 1; i < positions.length; i++)
    expect(positions[i], `went back from ${seen[i - 1]} to ${seen[i]}`).toBeGreaterThanOrEqual(positions[i - 1]);
  expect(positions.at(-1)).toBe(edits.length);

  await page.reload();
  await expect(page.getByTestId("tracks-loaded")).toHaveText(JSON.parse(expected.at(-1)!).count);
});
