-- Delivery links: the same rule as the app's (domain/orders.ts normalizeDeliveryUrl):
-- https in lower case, a lower-case host, no whitespace or control character, raw or
-- percent-encoded (%00-%1F, %7F), at most 2000 characters. Links stored before this
-- migration stay as they are (not valid: checked for new and changed rows only).
alter table public.mixtapes drop constraint if exists mixtapes_delivery_url;
alter table public.mixtapes add constraint mixtapes_delivery_url check (
  delivery_url ~ '^https://[^/?#\s]+'
  and substring(delivery_url from '^https://([^/?#]*)') = lower(substring(delivery_url from '^https://([^/?#]*)'))
  and delivery_url !~ '[[:cntrl:][:space:]]'
  and delivery_url !~* '%(0[0-9a-f]|1[0-9a-f]|7f)'
  and char_length(delivery_url) <= 2000
) not valid;

-- Password-reset windows: a reset link, once opened, lets its browser choose a new
-- password for 15 minutes, once. The browser's signed cookie holds a random token; this
-- row (its SHA-256) is what makes it valid, and the first reset deletes it, so an old
-- cookie replayed afterwards finds nothing.
create table public.recovery_windows (
  id text primary key,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  expires_at timestamptz not null,
  constraint recovery_windows_id_format check (id ~ '^[0-9a-f]{64}$')
);
create index recovery_windows_user_idx on public.recovery_windows (user_id);
alter table public.recovery_windows enable row level security;
create policy "recovery_windows: own" on public.recovery_windows
  for all to authenticated
  using ((select auth.uid()) = user_id)
  with check ((select auth.uid()) = user_id);
revoke all on public.recovery_windows from anon, authenticated;
grant select, insert (id, expires_at), delete on public.recovery_windows to authenticated;
