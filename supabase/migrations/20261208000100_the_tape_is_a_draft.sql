-- The tape is the mixer's draft until "Send the drop": the mixers hear it at once, its shopper
-- reads and fetches nothing of it until the order is sent. Where the store keeps the file (its
-- key) reaches no page: only the file routes ask for it (tape_file); the mixer's own file name
-- only the mixers. "Downloaded" is any byte of it served to the shopper. And one shopper's
-- orders send each mixer a bounded number of emails an hour (mixer_email_budget).
-- Nothing is rewritten: a sent order's tape stays its shopper's, an unsent one is a draft now,
-- and every count is kept (a draft its shopper fetched under the old rule stays as it is).

-- ---- The draft rule: one home, used by the policy and by every function that reads a tape ---
create function public.may_hear_tape(p_order_id bigint) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select public.is_mixer() or exists (
    select 1 from public.mixtapes m
     where m.id = p_order_id and m.user_id = (select auth.uid()) and m.status = 'sent'
  );
$$;
revoke execute on function public.may_hear_tape(bigint) from public, anon;
grant execute on function public.may_hear_tape(bigint) to authenticated;

drop policy "tapes: the order's shopper and the mixers read" on public.tapes;
create policy "tapes: the mixers, and the order's shopper once it is sent" on public.tapes
  for select to authenticated
  using (public.may_hear_tape(order_id));
-- The key and the mixer's file name are read only through the functions below.
revoke select on public.tapes from authenticated;
grant select (id, order_id, content_type, size, duration_seconds, uploaded_at, downloads, last_downloaded_at, deleted_at)
  on public.tapes to authenticated;

-- The tape's facts as pages and emails read them: its extension, never its key; the file's
-- own name only when asked for (the mixers). Only the functions below call it.
create function public.tape_facts(p_order_id bigint, p_file_name boolean) returns jsonb
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
           'deletedAt', t.deleted_at)
    from public.tapes t where t.order_id = p_order_id;
$$;
revoke execute on function public.tape_facts(bigint, boolean) from public, anon, authenticated;

-- The order's tape as the pages show it (`tape:order_tape` in PostgREST): null when it has none,
-- or when the caller may not hear it yet. Only m.id is trusted: the rule reads the order again.
create or replace function public.order_tape(m public.mixtapes) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select public.tape_facts(m.id, public.is_mixer()) where public.may_hear_tape(m.id);
$$;
revoke execute on function public.order_tape(public.mixtapes) from public, anon;
grant execute on function public.order_tape(public.mixtapes) to authenticated;

-- The file routes' one question: where the file is, for the order's shopper (their own order,
-- once sent) or for a mixer. No row: nothing to serve (the route's 404).
create function public.tape_file(p_code text, p_as text)
returns table (storage_key text, codename text, deleted boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select t.storage_key, m.codename, t.deleted_at is not null
    from public.mixtapes m join public.tapes t on t.order_id = m.id
   where m.code = p_code and public.may_hear_tape(m.id)
     and case p_as when 'shopper' then m.user_id = (select auth.uid()) when 'mixer' then public.is_mixer() else false end;
$$;
revoke execute on function public.tape_file(text, text) from public, anon;
grant execute on function public.tape_file(text, text) to authenticated;

-- The shopper was served bytes of the sent tape, from byte p_from. Any byte makes it downloaded
-- (the mixer can no longer say it is unheard); each read from the first byte (a play, a
-- download) is one more. The mixers' reads are not counted. True when counted.
drop function public.count_tape_download(text);
create function public.count_tape_download(p_code text, p_from bigint) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.tapes t set downloads = t.downloads + 1, last_downloaded_at = now()
    from public.mixtapes m
   where m.id = t.order_id and m.code = p_code and m.user_id = auth.uid() and m.status = 'sent'
     and t.deleted_at is null and (p_from = 0 or t.downloads = 0);
  return found;
end;
$$;
revoke execute on function public.count_tape_download(text, bigint) from public, anon;
grant execute on function public.count_tape_download(text, bigint) to authenticated;

-- Tapes kept their days: after the order was sent, or (a draft nobody but the mixers heard)
-- after it was cancelled. Their files are queued for deletion, the rows kept. Answers how many.
create or replace function public.expire_tapes(p_keep_days integer) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  n integer;
  keep interval := make_interval(days => greatest(p_keep_days, 1));
begin
  with gone as (
    update public.tapes t set deleted_at = now()
      from public.mixtapes m
     where m.id = t.order_id and t.deleted_at is null
       and ((m.status = 'sent' and m.sent_at < now() - keep) or (m.status = 'cancelled' and m.cancelled_at < now() - keep))
    returning t.storage_key
  )
  insert into public.storage_deletions (storage_key) select g.storage_key from gone g on conflict do nothing;
  get diagnostics n = row_count;
  return n;
end;
$$;
revoke execute on function public.expire_tapes(integer) from public, anon, authenticated;

-- ---- The mixers' email budget: per shopper, across their orders --------------------------
-- A new order, a shopper's message and a shopper's cancel each email every mixer. One
-- shopper's orders send each mixer at most 6 of them in any hour; the rest are not emailed
-- (the console shows every order, message and cancel), and the sixth says so.
alter table public.order_emails add column closes_budget boolean not null default false;
create index order_emails_budget_idx on public.order_emails (recipient, created_at);

-- 'send', 'last' (the one that spends the budget) or 'over', for one more email to this mixer
-- about this shopper's orders. Takes the shopper's lock, so concurrent changes count each other.
create function public.mixer_email_budget(p_shopper uuid, p_recipient text) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  used integer;
begin
  if p_shopper is null then
    return 'send';
  end if;
  perform pg_advisory_xact_lock(hashtextextended(p_shopper::text, 7243044));
  select count(*) into used
    from public.order_emails e join public.mixtapes m on m.id = e.order_id
   where e.recipient = p_recipient and e.created_at > now() - interval '1 hour'
     and e.kind in ('new_order', 'message', 'cancelled') and m.user_id = p_shopper;
  return case when used >= 6 then 'over' when used = 5 then 'last' else 'send' end;
end;
$$;
revoke execute on function public.mixer_email_budget(uuid, text) from public, anon, authenticated;

create or replace function public.queue_order_emails() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  r text;
  budget text;
  v_kind text;
begin
  if tg_op = 'INSERT' then
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'received', u.email from auth.users u where u.id = new.user_id and u.email is not null;
    v_kind := 'new_order';
  elsif new.status = 'sent' and old.status is distinct from 'sent' then
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'sent', u.email from auth.users u where u.id = new.user_id and u.email is not null;
    return null;
  elsif new.status = 'cancelled' and old.status is distinct from 'cancelled' then
    if new.cancelled_by is distinct from new.user_id then
      insert into public.order_emails (order_id, kind, recipient)
      select new.id, 'cancelled', u.email from auth.users u where u.id = new.user_id and u.email is not null;
      return null;
    end if;
    v_kind := 'cancelled';
  else
    return null;
  end if;
  -- The shopper's doing: each mixer hears of it within the shopper's budget.
  for r in select m.email from public.mixers m loop
    budget := public.mixer_email_budget(new.user_id, r);
    if budget <> 'over' then
      insert into public.order_emails (order_id, kind, recipient, closes_budget) values (new.id, v_kind, r, budget = 'last');
    end if;
  end loop;
  return null;
end;
$$;

-- A message goes to the other side: the shopper, or every mixer. A recipient gets at most one
-- message email per order in 10 minutes: an email still waiting gathers the message, and
-- otherwise the next one waits until 10 minutes after the last. A shopper's message starts a
-- new email to a mixer only within the shopper's budget.
create or replace function public.queue_message_emails() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  r text;
  last_at timestamptz;
  budget text := 'send';
  shopper uuid;
begin
  select m.user_id into shopper from public.mixtapes m where m.id = new.order_id;
  for r in
    select u.email from auth.users u where new.from_mixer and u.id = shopper and u.email is not null
    union
    select x.email from public.mixers x where not new.from_mixer
  loop
    -- Not one the worker has claimed: its text is being written (the conditions are checked
    -- again on the row's newest version if the worker got there first).
    update public.order_emails e set message_ids = e.message_ids || new.id
     where e.id = (select max(x.id) from public.order_emails x
                    where x.order_id = new.order_id and x.kind = 'message' and x.recipient = r and x.sent_at is null)
       and e.sent_at is null and (e.locked_until is null or e.locked_until < now());
    if found then
      continue;
    end if;
    if not new.from_mixer then
      budget := public.mixer_email_budget(shopper, r);
      if budget = 'over' then
        continue;
      end if;
    end if;
    select max(coalesce(e.sent_at, e.next_attempt_at)) into last_at from public.order_emails e
     where e.order_id = new.order_id and e.kind = 'message' and e.recipient = r;
    insert into public.order_emails (order_id, kind, recipient, message_id, message_ids, next_attempt_at, closes_budget)
    values (new.order_id, 'message', r, new.id, array[new.id],
            greatest(now(), coalesce(last_at + interval '10 minutes', now())), budget = 'last');
  end loop;
  return null;
end;
$$;

-- The worker's claim: the order with its money and its tape's facts (read as the owner: the
-- email says whether a tape waits), the messages and ledger row an email is about, and whether
-- it spends its shopper's budget.
drop function public.claim_order_emails(integer);
create function public.claim_order_emails(batch integer) returns table (
  id bigint, kind text, recipient text, attempts integer, order_row jsonb, username text, email text,
  messages jsonb, entry jsonb, closes_budget boolean
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
    returning e.id, e.kind, e.recipient, e.attempts, e.order_id, e.message_ids, e.entry_provider, e.entry_event, e.closes_budget
  )
  select c.id, c.kind, c.recipient, c.attempts,
         to_jsonb(m) || jsonb_build_object('money', public.order_money(m), 'tape', public.tape_facts(m.id, false)),
         p.username, p.email,
         case when c.kind <> 'message' then null else (
           select coalesce(jsonb_agg(to_jsonb(x) order by x.id), '[]'::jsonb)
             from public.order_messages x where x.id = any(c.message_ids)
         ) end,
         (select to_jsonb(pe) from public.payment_events pe where pe.provider = c.entry_provider and pe.event_id = c.entry_event),
         c.closes_budget
    from claimed c
    join public.mixtapes m on m.id = c.order_id
    left join public.profiles p on p.id = m.user_id
   order by c.id;
$$;
revoke execute on function public.claim_order_emails(integer) from public, anon, authenticated;
