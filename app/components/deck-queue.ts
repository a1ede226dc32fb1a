// Deck edits with JavaScript go one at a time: each request carries the deck cookie
// that the previous answer set, so quick clicks never overwrite each other. An edit
// counts as pending (for optimistic updates and "busy") from the click until its
// request has settled, whatever the router's own state says.
import { useSyncExternalStore } from "react";

type Entry = { id: number; formData: FormData; send: (fd: FormData) => Promise<unknown> };
let queue: Entry[] = [];
let inFlight: Entry | null = null;
let pending: readonly Entry[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  pending = inFlight ? [inFlight, ...queue] : queue;
  listeners.forEach((l) => l());
};

async function drain() {
  if (inFlight) return;
  while (queue.length) {
    inFlight = queue[0];
    queue = queue.slice(1);
    emit();
    try {
      await inFlight.send(inFlight.formData);
    } catch {
      /* the page shows the error through the toast */
    }
    inFlight = null;
    emit();
  }
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
const NONE: readonly Entry[] = [];
/** The edits not settled yet, oldest first. */
export const usePendingDeckEdits = () =>
  useSyncExternalStore(
    subscribe,
    () => pending,
    () => NONE,
  );
