-- The drop's bucket on Supabase Storage (DROP_STORAGE=supabase; docs/drop.md).
--
-- Not a migration: supabase/migrations also run on PGlite and PostgreSQL, which have no
-- `storage` schema. Run this file once in the project's SQL editor (or with psql against
-- the project's database); running it again changes nothing. `supabase start` makes the
-- same bucket from supabase/config.toml ([storage.buckets.drops]).
--
-- Who reaches the tapes: only the app's server, with the service role key, which bypasses
-- RLS. The server checks the session first (the order's shopper or a mixer), then uploads,
-- or signs a download URL of at most 15 minutes. No browser talks to this bucket with its
-- own token: the content check must run on the server before anything is stored, so even
-- Supabase's own resumable (tus) endpoint is not used from the browser.

-- Private: an object has no public URL; the app's health check refuses a public bucket.
-- 300 MiB and the accepted types: DROP_MAX_MB and the content check say the same.
-- (The free plan's global file size limit is 50 MB: raise it in Storage settings first.)
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
  'drops',
  'drops',
  false,
  300 * 1024 * 1024,
  array['audio/mpeg', 'audio/mp4', 'audio/ogg', 'audio/flac', 'audio/wav']
)
on conflict (id) do update
  set public = false,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- The policies. RLS is on for storage.objects in every Supabase project, and no policy of
-- this project grants anon or authenticated anything on `drops`. This restrictive one keeps
-- it so: a permissive policy written later for another bucket (or for all of them) cannot
-- open this one to a browser's token. The service role is not subject to RLS.
drop policy if exists "drops: server only" on storage.objects;
create policy "drops: server only" on storage.objects
  as restrictive
  for all
  to anon, authenticated
  using (bucket_id <> 'drops')
  with check (bucket_id <> 'drops');
