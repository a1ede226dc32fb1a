import { COPY } from "./copy";

export type DisplayNameInput =
  | { state: "loading" }
  | { state: "error" }
  | { state: "ready"; username: string | null | undefined; email: string | null | undefined };

/**
 * The profile username if non-blank, else the part of the email
 * before the @, else "(unknown user)"; "..." while loading; "(profile error)" when
 * the profile could not be read.
 */
export function displayName(input: DisplayNameInput): string {
  if (input.state === "loading") return COPY.displayName.loading;
  if (input.state === "error") return COPY.displayName.profileError;
  const username = input.username?.trim();
  if (username) return username;
  const local = input.email?.split("@")[0]?.trim();
  if (local) return local;
  return COPY.displayName.unknown;
}
