// Orders as stored in the mixtapes table, and the tolerant reading of them.
import { findSong } from "./catalogue";
import { readToggles, type Deck, type Toggles } from "./deck";

export type StoredTrack = { id: string; title: string; thumbnail: string; previewUrl: string };

/** What an insert sends. */
export type NewOrder = {
  user_id: string;
  code: string;
  tracks: StoredTrack[];
  toggles: Toggles;
  note: string;
  design_id: string | null;
};

export type Order = {
  id: string;
  code: string;
  tracks: StoredTrack[];
  toggles: Toggles;
  note: string;
  design_id: string | null;
  created_at: string;
};

/** The stored tracks are built on the server from the catalogue, never from input. */
export function orderFromDeck(deck: Deck, userId: string): NewOrder {
  if (!deck.code) throw new Error("orderFromDeck needs a deck with an order code");
  const tracks = deck.songs.map((id) => {
    const song = findSong(id);
    if (!song) throw new Error(`unknown song ${id}`);
    return { id: song.id, title: song.title, thumbnail: song.thumbnail, previewUrl: song.previewUrl };
  });
  return { user_id: userId, code: deck.code, tracks, toggles: { ...deck.toggles }, note: deck.note, design_id: deck.design };
}

const isString = (v: unknown): v is string => typeof v === "string";

/** Stored tracks that lack any of the string fields are dropped. */
export function readStoredTracks(value: unknown): StoredTrack[] {
  if (!Array.isArray(value)) return [];
  const tracks: StoredTrack[] = [];
  for (const t of value) {
    if (t && typeof t === "object") {
      const { id, title, thumbnail, previewUrl } = t as Record<string, unknown>;
      if (isString(id) && isString(title) && isString(thumbnail) && isString(previewUrl)) {
        tracks.push({ id, title, thumbnail, previewUrl });
      }
    }
  }
  return tracks;
}

/** Reads one row of any shape into an Order; null when it has no usable code or id. */
export function readOrderRow(row: Record<string, unknown>): Order | null {
  const id = row.id;
  const code = row.code;
  if ((typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint") || !isString(code)) return null;
  const created = row.created_at;
  const date = created instanceof Date ? created : isString(created) ? new Date(created) : new Date(0);
  const createdAt = (Number.isNaN(date.getTime()) ? new Date(0) : date).toISOString();
  return {
    id: String(id),
    code,
    tracks: readStoredTracks(row.tracks),
    toggles: readToggles(row.toggles),
    note: isString(row.note) ? row.note : "",
    design_id: isString(row.design_id) ? row.design_id : null,
    created_at: createdAt,
  };
}
