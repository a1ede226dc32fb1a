-- The drop: the mixer uploads the finished tape, the shopper plays and downloads it
-- (docs/decisions/012-tape-storage.md).
-- The file lives in the tape store (app/server/storage: disk, S3 or Supabase Storage); this
-- table says which file is which order's tape, what it is, and who heard it. One tape per order:
-- a new upload replaces it while the shopper has not downloaded it yet. A tape is kept
-- DROP_KEEP_DAYS after the order is sent, and an erased account's tapes go at once: their files
-- are queued for deletion (storage_deletions), which a worker retries until the store answers.

create table public.tapes (
  id bigint generated always as identity primary key,
  order_id bigint not null references public.mixtapes (id) on delete cascade,
  -- The file in the tape store; its extension is the type the store serves.
  storage_key text not null,
  -- The name the mixer's file had (the console shows it); the shopper downloads "{codename} - {CODE}.{ext}".
  file_name text not null,
  content_type text not null,
  size bigint not null,
  duration_seconds numeric(10, 3) not null,
  uploaded_at timestamptz not null default now(),
  uploaded_by uuid default auth.uid() references auth.users (id) on delete set null,
  -- The shopper's downloads (the player's range requests are not counted).
  downloads integer not null default 0,
  last_downloaded_at timestamptz,
  -- The file is gone: kept its days after the order was sent, or the account was erased.
  deleted_at timestamptz,
  constraint tapes_one_per_order unique (order_id),
  constraint tapes_key check (char_length(storage_key) <= 300 and storage_key ~ '^[A-Za-z0-9/_.-]+$' and storage_key !~ '\.\.'),
  constraint tapes_file_name check (char_length(file_name) between 1 and 255),
  constraint tapes_content_type check (content_type in ('audio/mpeg', 'audio/mp4', 'audio/ogg', 'audio/flac', 'audio/wav')),
  constraint tapes_size check (size > 0),
  constraint tapes_duration check (duration_seconds > 0)
);

alter table public.tapes enable row level security;
create policy "tapes: the order's shopper and the mixers read" on public.tapes
  for select to authenticated
  using (
    (select public.is_mixer())
    or exists (select 1 from public.mixtapes m where m.id = order_id and m.user_id = (select auth.uid()))
  );
revoke all on public.tapes from anon, authenticated;
grant select on public.tapes to authenticated;
-- Written only through the functions below.

-- The order's tape as the pages show it (a computed column, `tape:order_tape` in PostgREST);
-- null when it has none. Read under the caller's row-level security.
create function public.order_tape(m public.mixtapes) returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
           'key', t.storage_key, 'fileName', t.file_name, 'contentType', t.content_type, 'size', t.size,
           'durationSeconds', t.duration_seconds, 'uploadedAt', t.uploaded_at, 'downloads', t.downloads,
           'lastDownloadedAt', t.last_downloaded_at, 'deletedAt', t.deleted_at)
    from public.tapes t where t.order_id = m.id;
$$;
revoke execute on function public.order_tape(public.mixtapes) from public, anon;
grant execute on function public.order_tape(public.mixtapes) to authenticated;

-- A mixer stores the order's tape (received or mixing). Answers the outcome and, on a
-- replacement, the key of the file it replaced (for the server to delete): saved, replaced,
-- downloaded (the shopper has it: kept), no_order, or closed (the order is sent or cancelled).
create function public.save_tape(
  p_code text, p_key text, p_file_name text, p_content_type text, p_size bigint, p_duration numeric
) returns table (outcome text, replaced_key text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  o public.mixtapes%rowtype;
  t public.tapes%rowtype;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer uploads a tape' using errcode = '42501';
  end if;
  select * into o from public.mixtapes m where m.code = p_code for update;
  if not found then
    return query select 'no_order'::text, null::text;
    return;
  end if;
  if o.status not in ('received', 'mixing') then
    return query select 'closed'::text, null::text;
    return;
  end if;
  select * into t from public.tapes x where x.order_id = o.id for update;
  if not found then
    insert into public.tapes (order_id, storage_key, file_name, content_type, size, duration_seconds)
    values (o.id, p_key, p_file_name, p_content_type, p_size, p_duration);
    return query select 'saved'::text, null::text;
    return;
  end if;
  if t.downloads > 0 then
    return query select 'downloaded'::text, null::text;
    return;
  end if;
  update public.tapes x
     set storage_key = p_key, file_name = p_file_name, content_type = p_content_type, size = p_size,
         duration_seconds = p_duration, uploaded_at = now(), uploaded_by = auth.uid(), deleted_at = null
   where x.id = t.id;
  return query select 'replaced'::text, t.storage_key;
end;
$$;
revoke execute on function public.save_tape(text, text, text, text, bigint, numeric) from public, anon;
grant execute on function public.save_tape(text, text, text, text, bigint, numeric) to authenticated;

-- The order's shopper downloaded the tape: counted (the mixers' own are not). True when counted.
create function public.count_tape_download(p_code text) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.tapes t set downloads = t.downloads + 1, last_downloaded_at = now()
    from public.mixtapes m
   where m.id = t.order_id and m.code = p_code and m.user_id = auth.uid() and t.deleted_at is null;
  return found;
end;
$$;
revoke execute on function public.count_tape_download(text) from public, anon;
grant execute on function public.count_tape_download(text) to authenticated;

-- ---- Files to delete from the tape store, retried until the store answers ---------------------
create table public.storage_deletions (
  storage_key text primary key,
  queued_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text
);
alter table public.storage_deletions enable row level security;
revoke all on public.storage_deletions from anon, authenticated;
-- No policy: only the server's worker (the table owner, or Supabase's service role).

-- The worker's claim: up to `batch` keys due, each pushed back by its backoff meanwhile
-- (5 s, doubling, at most an hour); finish removes a key once its file is gone.
create function public.claim_storage_deletions(batch integer) returns table (storage_key text, attempts integer)
language sql
security definer
set search_path = ''
as $$
  with due as (
    select d.storage_key from public.storage_deletions d
     where d.next_attempt_at <= now()
     order by d.next_attempt_at
     limit least(greatest(batch, 1), 100)
     for update skip locked
  )
  update public.storage_deletions d
     set attempts = d.attempts + 1,
         next_attempt_at = now() + least(interval '5 seconds' * power(2, least(d.attempts, 10)), interval '1 hour')
    from due where d.storage_key = due.storage_key
  returning d.storage_key, d.attempts;
$$;

create function public.finish_storage_deletion(p_key text, p_error text) returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.storage_deletions d where d.storage_key = p_key and p_error is null;
  update public.storage_deletions d set last_error = left(p_error, 500) where d.storage_key = p_key and p_error is not null;
$$;

-- Tapes of orders sent more than p_keep_days ago: their files are queued for deletion, the
-- rows kept (the page says the tape was deleted). Answers how many.
create function public.expire_tapes(p_keep_days integer) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  n integer;
begin
  with gone as (
    update public.tapes t set deleted_at = now()
      from public.mixtapes m
     where m.id = t.order_id and t.deleted_at is null and m.status = 'sent'
       and m.sent_at < now() - make_interval(days => greatest(p_keep_days, 1))
    returning t.storage_key
  )
  insert into public.storage_deletions (storage_key) select g.storage_key from gone g on conflict do nothing;
  get diagnostics n = row_count;
  return n;
end;
$$;

-- A replaced or refused file: queued, so a store that is down now still loses it later.
create function public.queue_storage_deletion(p_key text) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.storage_deletions (storage_key) values (p_key) on conflict do nothing;
$$;

revoke execute on function public.claim_storage_deletions(integer) from public, anon, authenticated;
revoke execute on function public.finish_storage_deletion(text, text) from public, anon, authenticated;
revoke execute on function public.expire_tapes(integer) from public, anon, authenticated;
revoke execute on function public.queue_storage_deletion(text) from public, anon, authenticated;

-- ---- Deleting an account deletes its tapes' files --------------------------------------------
-- erase_account (20261201000000) runs first; this trigger, on the same delete, queues the
-- files of the account's tapes and marks the rows deleted. The server deletes the files in the
-- same flow (own-account service), and the worker retries any it could not.
create function public.erase_account_tapes() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with gone as (
    update public.tapes t set deleted_at = now()
      from public.mixtapes m
     where m.id = t.order_id and m.user_id = old.id and t.deleted_at is null
    returning t.storage_key
  )
  insert into public.storage_deletions (storage_key) select g.storage_key from gone g on conflict do nothing;
  return old;
end;
$$;
-- Before erase_account clears the orders' link to the account ('on_auth_user_deleted' sorts after 'erase').
create trigger erase_account_tapes
  before delete on auth.users
  for each row execute function public.erase_account_tapes();

-- The worker's claim also answers whether the order has a tape ("Your tape is ready" says where).
create or replace function public.claim_order_emails(batch integer) returns table (
  id bigint, kind text, recipient text, attempts integer, order_row jsonb, username text, email text,
  messages jsonb, entry jsonb
)
language sql
security definer
set search_path = ''
as $$
  with due as (
    select e.id from public.order_emails e
     where e.sent_at is null and e.next_attempt_at <= now() and (e.locked_until is null or e.locked_until < now())
     order by e.id
     limit least(greatest(batch, 1), 100)
     for update skip locked
  ), claimed as (
    update public.order_emails e
       set locked_until = now() + interval '5 minutes', attempts = e.attempts + 1
      from due where e.id = due.id
    returning e.id, e.kind, e.recipient, e.attempts, e.order_id, e.message_ids, e.entry_provider, e.entry_event
  )
  select c.id, c.kind, c.recipient, c.attempts,
         to_jsonb(m) || jsonb_build_object('money', public.order_money(m), 'tape', public.order_tape(m)),
         p.username, p.email,
         case when c.kind <> 'message' then null else (
           select coalesce(jsonb_agg(to_jsonb(x) order by x.id), '[]'::jsonb)
             from public.order_messages x where x.id = any(c.message_ids)
         ) end,
         (select to_jsonb(pe) from public.payment_events pe where pe.provider = c.entry_provider and pe.event_id = c.entry_event)
    from claimed c
    join public.mixtapes m on m.id = c.order_id
    left join public.profiles p on p.id = m.user_id
   order by c.id;
$$;
revoke execute on function public.claim_order_emails(integer) from public, anon, authenticated;

