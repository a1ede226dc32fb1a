import { useSyncExternalStore } from "react";

const subscribe = () => () => {};
/** False during the server render and hydration; true once JavaScript runs. */
export const useHydrated = () =>
  useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
