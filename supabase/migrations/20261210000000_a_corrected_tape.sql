-- A tape the shopper already has is never replaced behind their back, but a wrong one can be
-- corrected: the mixer uploads a new version of it. The new version takes the tape's place (its
-- downloads start again from none) and, once the order is sent, the mixer's message in the
-- order's conversation tells the shopper (its email goes through the one queue, as any message).
-- A sent order takes a new version while its conversation is open (the shopper can be told).

alter table public.tapes add column version integer not null default 1;
alter table public.tapes add constraint tapes_version check (version >= 1);
grant select (version) on public.tapes to authenticated;

create or replace function public.tape_facts(p_order_id bigint, p_file_name boolean) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
           'ext', substring(t.storage_key from '\.([a-z0-9]+)$'),
           'fileName', case when p_file_name then t.file_name end,
           'contentType', t.content_type, 'size', t.size, 'durationSeconds', t.duration_seconds,
           'uploadedAt', t.uploaded_at, 'downloads', t.downloads, 'lastDownloadedAt', t.last_downloaded_at,
           'deletedAt', t.deleted_at, 'version', t.version)
    from public.tapes t where t.order_id = p_order_id;
$$;

-- A mixer stores the order's tape. Outcomes: saved (the first), replaced (a draft nobody
-- downloaded: the same version), new_version (the shopper downloaded it, or the order is sent:
-- the next version, and p_notice as the mixer's message to the shopper), no_order, or
-- closed (cancelled; or sent with no tape, its file gone, or its conversation over). On a
-- replacement, the key of the file it freed (for the server to delete).
drop function public.save_tape(text, text, text, text, bigint, numeric);
create function public.save_tape(
  p_code text, p_key text, p_file_name text, p_content_type text, p_size bigint, p_duration numeric, p_notice text
) returns table (outcome text, replaced_key text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  o public.mixtapes%rowtype;
  t public.tapes%rowtype;
  sent boolean;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer uploads a tape' using errcode = '42501';
  end if;
  select * into o from public.mixtapes m where m.code = p_code for update;
  if not found then
    return query select 'no_order'::text, null::text;
    return;
  end if;
  sent := o.status = 'sent';
  select * into t from public.tapes x where x.order_id = o.id for update;
  if o.status = 'cancelled'
     or (sent and (t.id is null or t.deleted_at is not null or not public.order_conversation_open(o.id))) then
    return query select 'closed'::text, null::text;
    return;
  end if;
  if t.id is null then
    insert into public.tapes (order_id, storage_key, file_name, content_type, size, duration_seconds)
    values (o.id, p_key, p_file_name, p_content_type, p_size, p_duration);
    return query select 'saved'::text, null::text;
    return;
  end if;
  update public.tapes x
     set storage_key = p_key, file_name = p_file_name, content_type = p_content_type, size = p_size,
         duration_seconds = p_duration, uploaded_at = now(), uploaded_by = auth.uid(), deleted_at = null,
         version = x.version + case when sent or x.downloads > 0 then 1 else 0 end,
         downloads = case when sent or x.downloads > 0 then 0 else x.downloads end,
         last_downloaded_at = case when sent or x.downloads > 0 then null else x.last_downloaded_at end
   where x.id = t.id;
  if not sent and t.downloads = 0 then
    return query select 'replaced'::text, t.storage_key;
    return;
  end if;
  if coalesce(p_notice, '') <> '' then
    insert into public.order_messages (order_id, from_mixer, body) values (o.id, true, p_notice);
  end if;
  return query select 'new_version'::text, t.storage_key;
end;
$$;
revoke execute on function public.save_tape(text, text, text, text, bigint, numeric, text) from public, anon;
grant execute on function public.save_tape(text, text, text, text, bigint, numeric, text) to authenticated;
