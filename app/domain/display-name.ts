import { COPY } from "./copy";

export type DisplayNameInput =
  | { state: "loading" }
  | { state: "error" }
  | { state: "deleted" }
  | { state: "ready"; username: string | null | undefined; email: string | null | undefined };

export function displayName(input: DisplayNameInput): string {
  if (input.state === "loading") return COPY.displayName.loading;
  if (input.state === "error") return COPY.displayName.profileError;
  if (input.state === "deleted") return COPY.displayName.deletedAccount;
  const username = input.username?.trim();
  if (username) return username;
  const local = input.email?.split("@")[0]?.trim();
  if (local) return local;
  return COPY.displayName.unknown;
}

/** The shopper of a stored order (a row with user_id): "Deleted account" once they left, else their display name. */
export const shopperName = (row: Record<string, unknown>, shopper: { username: string | null; email: string | null }) =>
  displayName(row.user_id === null ? { state: "deleted" } : { state: "ready", ...shopper });
