-- Supabase shim: what a Supabase project already provides, created here for
-- PGlite and plain PostgreSQL. Applied before supabase/migrations, once, and
-- never pushed to Supabase (it lives outside supabase/migrations on purpose).

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
end
$$;

-- The application connects as its own user and switches role per transaction.
grant anon, authenticated to current_user;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated;
grant usage on schema public to anon, authenticated;

-- The subset of Supabase's auth.users that this product uses, with the same
-- column names and types.
create table if not exists auth.users (
  id uuid primary key default gen_random_uuid(),
  email text,
  encrypted_password text,
  email_confirmed_at timestamptz,
  raw_user_meta_data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index if not exists users_email_key on auth.users (lower(email));

-- Supabase's definition: the subject of the JWT claims of this request.
create or replace function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
grant execute on function auth.uid() to anon, authenticated;

-- The embedded auth's own tables. Only the server (table owner) touches them.
create table if not exists auth.sessions (
  id text primary key,                 -- sha-256 of the random token in the cookie
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.one_time_tokens (
  token_hash text primary key,         -- sha-256 of the token in the email link
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type text not null check (token_type in ('signup')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

revoke all on auth.users, auth.sessions, auth.one_time_tokens from anon, authenticated;
