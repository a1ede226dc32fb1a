// What each concern of the Supabase adapter is built from, once per request (index.server.ts assembles
// the concerns; they import these types from here, not from it).
import type { SupabaseClient } from "@supabase/supabase-js";
import type { Mailer } from "../../platform/mailer.server";

export type SupabaseBackendOptions = {
  url: string;
  anonKey: string;
  serviceKey?: string;
  fetch?: typeof fetch;
  /** GoTrue sends none. */
  mailer?: Mailer;
  shopTitle?: string;
};

/** What each concern's calls are built from, once per request. */
export type SupabaseContext = SupabaseBackendOptions & {
  /** The request's client: the user's session, under RLS. */
  supabase: SupabaseClient;
  /** Null without the service role key. */
  service: SupabaseClient | null;
};
