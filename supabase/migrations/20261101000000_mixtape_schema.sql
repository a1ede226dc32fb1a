-- The one schema of the Mixtape storefront. Supabase runs it with `supabase db push`;
-- the embedded and PostgreSQL modes run it after db/shim.sql.

-- Profiles: one per auth user, created by the trigger below.
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text,
  created_at timestamptz not null default now(),
  constraint profiles_username_key unique (username),
  constraint profiles_username_format check (username ~ '^[A-Za-z0-9_.-]{2,32}$')
);

alter table public.profiles enable row level security;

create policy "profiles: read own" on public.profiles
  for select to authenticated
  using ((select auth.uid()) = id);

create policy "profiles: update own" on public.profiles
  for update to authenticated
  using ((select auth.uid()) = id)
  with check ((select auth.uid()) = id);

grant select, update (username) on public.profiles to authenticated;
revoke all on public.profiles from anon;

-- Orders.
create table public.mixtapes (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  code text not null,
  tracks jsonb not null default '[]'::jsonb,
  toggles jsonb not null default '{}'::jsonb,
  note text not null default '',
  design_id text,
  created_at timestamptz not null default now(),
  constraint mixtapes_code_key unique (code),
  constraint mixtapes_code_format check (code ~ '^[A-Z0-9]{8}$'),
  constraint mixtapes_note_length check (char_length(note) <= 120),
  constraint mixtapes_tracks_array check (jsonb_typeof(tracks) = 'array'),
  constraint mixtapes_toggles_object check (jsonb_typeof(toggles) = 'object')
);

create index mixtapes_user_created_idx on public.mixtapes (user_id, created_at desc);

alter table public.mixtapes enable row level security;

create policy "mixtapes: read own" on public.mixtapes
  for select to authenticated
  using ((select auth.uid()) = user_id);

create policy "mixtapes: insert own" on public.mixtapes
  for insert to authenticated
  with check ((select auth.uid()) = user_id);

grant select, insert on public.mixtapes to authenticated;
revoke all on public.mixtapes from anon;

-- A new auth user gets a profile, with the username from the sign-up metadata.
-- A taken username raises 23505 here, which rolls back the whole sign-up.
create function public.handle_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, username)
  values (new.id, nullif(btrim(new.raw_user_meta_data ->> 'username'), ''));
  return new;
end;
$$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

-- Username lookup for the login form. Anonymous callers learn only whether a
-- username exists; they never read the profiles table.
create function public.username_exists(p_username text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.profiles where username = p_username);
$$;

revoke execute on function public.username_exists(text) from public;
grant execute on function public.username_exists(text) to anon, authenticated;
