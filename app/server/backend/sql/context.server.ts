// What each concern of the SQL adapter is built from, once per request (index.server.ts assembles the
// concerns; they import these types from here, not from it).
import type { Mailer } from "../../platform/mailer.server";
import type { User } from "../port.server";
import type { Sql, SqlDriver } from "./db.server";

export type SqlBackendOptions = {
  db: SqlDriver;
  mailer: Mailer;
  shopTitle: string;
  /** One RLS transaction for the calls a request makes at once (default; batch.server.ts). */
  batchCalls?: boolean;
};

/** The request's session: its cookie, the user it names (auth.server.ts opens it). */
export type Session = {
  token(): Promise<string | null>;
  /** Read once a request. */
  user(): Promise<User | null>;
  /** The user, only while there is a token. */
  signedIn(): Promise<User | null>;
  /** A new session id at every login prevents session fixation. */
  start(userId: string, email: string | null): Promise<void>;
  forget(): Promise<void>;
};

/** Runs fn in a transaction as the session's user (batch.server.ts). */
export type AsSession = <T>(fn: (tx: Sql) => Promise<T>) => Promise<T>;

/** What each concern's calls are built from, once per request. */
export type SqlContext = SqlBackendOptions & {
  session: Session;
  /** As the session's user (role authenticated) or anon: the RLS policies of supabase/migrations decide what is seen. */
  asSession: AsSession;
};
