// Deck edits with JavaScript go one at a time: each request carries the deck cookie
// that the previous answer set, so quick clicks never overwrite each other. Queued
// edits still show at once (optimistic updates read this queue).
import { useSyncExternalStore } from "react";

type Entry = { id: number; formData: FormData; send: (fd: FormData) => Promise<unknown> };
let queue: Entry[] = [];
let running = false;
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

async function drain() {
  if (running) return;
  running = true;
  while (queue.length) {
    const entry = queue[0];
    const sent = entry.send(entry.formData);
    queue = queue.slice(1); // the fetcher now carries it (useFetchers sees its formData)
    emit();
    try {
      await sent;
    } catch {
      /* the fetcher shows its own error */
    }
  }
  running = false;
}

export function enqueueDeckEdit(formData: FormData, send: Entry["send"]) {
  queue = [...queue, { id: nextId++, formData, send }];
  emit();
  void drain();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const EMPTY: Entry[] = [];
export const useQueuedDeckEdits = () =>
  useSyncExternalStore(
    subscribe,
    () => queue,
    () => EMPTY,
  );
