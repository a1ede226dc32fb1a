-- The rate limits' counts, shared by every app process on one PostgreSQL (rate-limiter-flexible's
-- Postgres store, app/server/platform/rate-limiter.server.ts, through the backend's own pool). The
-- server used to create this table itself at its first limit; it is made here, with the rest of the
-- schema, and a database where the server made it keeps it and its counts as they are. The embedded
-- database (one process) and Supabase (no connection of ours) count in memory: the table stays empty.
create schema if not exists mixtape_meta;

create table if not exists mixtape_meta.rate_limits (
  key varchar(255) primary key,
  points integer not null default 0,
  expire bigint
);

-- The server's own bookkeeping: never the API's.
revoke all on schema mixtape_meta from anon, authenticated;
revoke all on mixtape_meta.rate_limits from anon, authenticated;
