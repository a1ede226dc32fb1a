// The SQL adapter: our own auth and the data, on PGlite (embedded) or PostgreSQL.
import type { Mailer } from "../../platform/mailer.server";
import type { Backend } from "../port.server";
import { createSqlAuth } from "./auth.server";
import { createSqlData } from "./data.server";
import type { SqlDriver } from "./db.server";

export type SqlBackendOptions = { db: SqlDriver; mailer: Mailer; shopTitle: string };

export function createSqlBackend(opts: SqlBackendOptions): Backend {
  const auth = createSqlAuth(opts);
  const data = createSqlData(opts.db);
  return {
    kind: opts.db.kind === "postgres" ? "postgres" : "embedded",
    async health() {
      try {
        await opts.db.query("select 1");
        return true;
      } catch {
        return false;
      }
    },
    close: () => opts.db.close(),
    forRequest(request) {
      const headers = new Headers();
      const authCalls = auth(request, headers);
      return { headers, ...authCalls, ...data(authCalls.getUser) };
    },
  };
}
