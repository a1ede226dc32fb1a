import { DISPLAY_NAME_COPY } from "./copy";

export type DisplayNameInput =
  | { state: "loading" }
  | { state: "error" }
  | { state: "deleted" }
  | { state: "ready"; username: string | null | undefined; email: string | null | undefined };

export function displayName(input: DisplayNameInput): string {
  if (input.state === "loading") return DISPLAY_NAME_COPY.loading;
  if (input.state === "error") return DISPLAY_NAME_COPY.profileError;
  if (input.state === "deleted") return DISPLAY_NAME_COPY.deletedAccount;
  const username = input.username?.trim();
  if (username) return username;
  const local = input.email?.split("@")[0]?.trim();
  if (local) return local;
  return DISPLAY_NAME_COPY.unknown;
}

/** The shopper of a stored order (a row with user_id): "Deleted account" once they left, else their display name. */
export const shopperName = (row: Record<string, unknown>, shopper: { username: string | null; email: string | null }) =>
  displayName(row.user_id === null ? { state: "deleted" } : { state: "ready", ...shopper });
