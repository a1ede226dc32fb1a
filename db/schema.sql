-- db/schema.sql: the schema after db/shim*.sql and every file of supabase/migrations, as
-- pg_dump --schema-only --no-owner writes it. For reading: nothing applies this file, a change is a
-- new migration. Made by `npm run db:schema`; tests/contract/schema.test.ts fails when it is stale.
-- Each function's and view's purpose and newest migration: docs/architecture.md, The SQL functions.

-- Name: auth; Type: SCHEMA; Schema: -
CREATE SCHEMA auth;

-- Name: mixtape_meta; Type: SCHEMA; Schema: -
CREATE SCHEMA mixtape_meta;

-- Name: order_row; Type: TYPE; Schema: public
CREATE TYPE public.order_row AS (
	id text,
	user_id uuid,
	code text,
	tracks jsonb,
	toggles jsonb,
	note text,
	design_id text,
	design_name text,
	design_image text,
	codename text,
	created_at timestamp with time zone,
	status text,
	delivery_url text,
	mixer_message text,
	cancel_reason text,
	mixing_at timestamp with time zone,
	sent_at timestamp with time zone,
	cancelled_at timestamp with time zone,
	cancelled_by uuid,
	money jsonb,
	tape jsonb,
	username text,
	email text,
	cursor text
);

-- Name: uid(); Type: FUNCTION; Schema: auth
CREATE FUNCTION auth.uid() RETURNS uuid
    LANGUAGE sql STABLE
    AS $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

-- Name: add_design(text, text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.add_design(p_name text, p_image text, p_colour text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  v_id text;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  insert into public.designs (position, name, image, colour)
  values ((select coalesce(max(position), 0) + 1 from public.designs), p_name, p_image, p_colour)
  returning id into v_id;
  return v_id;
end;
$$;

-- Name: add_song(text, text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.add_song(p_title text, p_thumbnail text, p_preview_url text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  v_id text;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  insert into public.songs (position, title, thumbnail, preview_url)
  values ((select coalesce(max(position), 0) + 1 from public.songs), p_title, p_thumbnail, p_preview_url)
  returning id into v_id;
  return v_id;
end;
$$;

-- Name: adopt_payment_events(text, text, bigint); Type: FUNCTION; Schema: public
CREATE FUNCTION public.adopt_payment_events(p_provider text, p_event_id text, p_order bigint) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  p public.payment_events%rowtype;
  v_names text[];
begin
  select * into p from public.payment_events e where e.provider = p_provider and e.event_id = p_event_id;
  if not found or cardinality(p.refs) = 0 then
    return;
  end if;
  with adopted as (
    update public.payment_events e set order_id = p_order, reference = p.reference
     where e.provider = p.provider and e.kind in ('refund', 'dispute') and e.order_id is null and e.refs && p.refs
    returning e.refs
  )
  select array(select distinct x from adopted a, unnest(a.refs) x) into v_names;
  if not (p.refs @> v_names) then
    update public.payment_events e set refs = public.merged_refs(e.refs, v_names)
     where e.provider = p.provider and e.event_id = p.event_id;
  end if;
end;
$$;

-- Name: attach_payment(text, text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.attach_payment(p_provider text, p_event_id text, p_code text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  e public.payment_events%rowtype;
  p public.payment_events%rowtype;
  v_order bigint;
  v_ref text;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer attaches a payment' using errcode = '42501';
  end if;
  select * into e from public.payment_events x
   where x.provider = p_provider and x.event_id = p_event_id and x.order_id is null;
  if not found then
    return 'gone';
  end if;
  -- The locks in record_payment_event's order: the payment's names, then the order, then the rows.
  foreach v_ref in array array(select distinct r from unnest(e.refs) r order by r) loop
    perform pg_advisory_xact_lock(hashtextextended(e.provider || ':' || v_ref, 7243035));
  end loop;
  select m.id into v_order from public.mixtapes m where m.code = upper(btrim(p_code)) for no key update;
  if not found then
    return 'no_order';
  end if;
  -- Still unattached: another mixer may have attached it meanwhile.
  select * into e from public.payment_events x
   where x.provider = e.provider and x.event_id = e.event_id and x.order_id is null for update;
  if not found then
    return 'gone';
  end if;
  if e.kind = 'payment' then
    update public.payment_events x set order_id = v_order where x.provider = e.provider and x.event_id = e.event_id;
    perform public.adopt_payment_events(e.provider, e.event_id, v_order);
    return 'attached';
  end if;
  select * into p from public.payment_events x
   where x.order_id = v_order and x.provider = e.provider and x.kind = 'payment'
     and (select count(*) from public.payment_events y
           where y.order_id = v_order and y.provider = e.provider and y.kind = 'payment') = 1;
  if found then
    update public.payment_events x set refs = public.merged_refs(x.refs, e.refs)
     where x.provider = p.provider and x.event_id = p.event_id;
    -- Its other events (the same charge's) go with it.
    update public.payment_events x set order_id = v_order, reference = p.reference
     where x.provider = e.provider and x.order_id is null and x.kind in ('refund', 'dispute')
       and (x.event_id = e.event_id or x.refs && e.refs);
  else
    update public.payment_events x set order_id = v_order
     where x.provider = e.provider and x.order_id is null and x.kind in ('refund', 'dispute')
       and (x.event_id = e.event_id or x.refs && e.refs);
  end if;
  return 'attached';
end;
$$;

-- Name: catalogue_stamp(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.catalogue_stamp() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if tg_op = 'UPDATE' then
    -- An author's account going (on delete set null) is not a change of the row.
    if (to_jsonb(new) - 'updated_by') = (to_jsonb(old) - 'updated_by') then
      return new;
    end if;
    new.version := old.version;
    -- A reorder moves the position only: a save typed meanwhile still goes through.
    if (to_jsonb(new) - array['position', 'version', 'updated_at', 'updated_by'])
       is distinct from (to_jsonb(old) - array['position', 'version', 'updated_at', 'updated_by']) then
      new.version := old.version + 1;
    end if;
  else
    new.version := 1;
  end if;
  new.updated_at := now();
  new.updated_by := auth.uid();
  return new;
end;
$$;

-- Name: claim_order_emails(integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.claim_order_emails(batch integer) RETURNS TABLE(id bigint, kind text, recipient text, attempts integer, order_row jsonb, username text, email text, messages jsonb, entry jsonb, closes_budget boolean)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
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

-- Name: claim_storage_deletions(integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.claim_storage_deletions(batch integer) RETURNS TABLE(storage_key text, attempts integer)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
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

-- Name: count_tape_download(text, bigint); Type: FUNCTION; Schema: public
CREATE FUNCTION public.count_tape_download(p_code text, p_from bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  update public.tapes t set downloads = t.downloads + 1, last_downloaded_at = now()
    from public.mixtapes m
   where m.id = t.order_id and m.code = p_code and m.user_id = auth.uid() and m.status = 'sent'
     and t.deleted_at is null and (p_from = 0 or t.downloads = 0);
  return found;
end;
$$;

-- Name: count_unread_message(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.count_unread_message() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  insert into public.order_reads as r (order_id, reader, read_at, unread, since)
  values (new.order_id, case when new.from_mixer then 'shopper' else 'mixer' end, null, 1, new.created_at)
  on conflict (order_id, reader) do update set unread = r.unread + 1, since = coalesce(r.since, excluded.since);
  return null;
end;
$$;

-- Name: counts_as_payment(text, boolean, integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.counts_as_payment(p_kind text, p_test boolean, p_amount integer) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  select p_kind = 'payment' and not p_test and (p_amount is null or p_amount > 0);
$$;

-- Name: erase_account(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.erase_account() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  claims text := current_setting('request.jwt.claims', true);
  claim_sub text := current_setting('request.jwt.claim.sub', true);
begin
  -- Cancelled as the shopper would (the mixers get the usual email); a paid order stays.
  perform set_config('request.jwt.claims', json_build_object('sub', old.id, 'role', 'authenticated')::text, true),
          set_config('request.jwt.claim.sub', '', true);
  update public.mixtapes m set status = 'cancelled'
   where m.user_id = old.id and m.status = 'received'
     and not exists (select 1 from public.payment_events e where e.order_id = m.id and e.kind = 'payment');
  perform set_config('request.jwt.claims', coalesce(claims, ''), true),
          set_config('request.jwt.claim.sub', coalesce(claim_sub, ''), true);

  delete from public.order_messages m using public.mixtapes o where o.id = m.order_id and o.user_id = old.id;
  delete from public.order_reads r using public.mixtapes o where o.id = r.order_id and o.user_id = old.id and r.reader = 'shopper';
  -- Their messages are gone, so the mixers have nothing of theirs left unread.
  update public.order_reads r set unread = 0, since = null from public.mixtapes o
   where o.id = r.order_id and o.user_id = old.id and r.reader = 'mixer';
  delete from public.order_emails where lower(recipient) = lower(old.email);
  update public.mixtapes set user_id = null, note = '' where user_id = old.id;
  return old;
end;
$$;

-- Name: erase_account_tapes(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.erase_account_tapes() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
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

-- Name: expire_tapes(integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.expire_tapes(p_keep_days integer) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
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

-- Name: finish_order_email(bigint, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.finish_order_email(email_id bigint, error text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
  update public.order_emails
     set sent_at = case when error is null then now() end,
         last_error = left(error, 500),
         locked_until = null,
         next_attempt_at = case when error is null then next_attempt_at
                                else now() + least(interval '5 seconds' * power(2, least(attempts - 1, 10)), interval '1 hour') end
   where id = email_id;
$$;

-- Name: finish_storage_deletion(text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.finish_storage_deletion(p_key text, p_error text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
  delete from public.storage_deletions d where d.storage_key = p_key and p_error is null;
  update public.storage_deletions d set last_error = left(p_error, 500) where d.storage_key = p_key and p_error is not null;
$$;

-- Name: hand_mark_undo_window(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.hand_mark_undo_window() RETURNS interval
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$
  select interval '10 minutes';
$$;

-- Name: hand_mark_undoable(text, timestamp with time zone, bigint, bigint); Type: FUNCTION; Schema: public
CREATE FUNCTION public.hand_mark_undoable(p_provider text, p_received_at timestamp with time zone, p_order bigint, p_seq bigint) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select p_provider = 'manual' and p_received_at > now() - public.hand_mark_undo_window()
         and not exists (select 1 from public.payment_events x where x.order_id = p_order and x.seq > p_seq);
$$;

-- Name: handle_new_user(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.handle_new_user() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  insert into public.profiles (id, username, email)
  values (new.id, nullif(btrim(new.raw_user_meta_data ->> 'username'), ''), new.email);
  return new;
end;
$$;

-- Name: handle_user_email_change(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.handle_user_email_change() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  update public.profiles set email = new.email where id = new.id;
  return null;
end;
$$;

-- Name: is_media_path(text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.is_media_path(p text) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $_$
  select p ~ '^/[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)*$' and position('..' in p) = 0 and char_length(p) <= 300;
$_$;

-- Name: is_mixer(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.is_mixer() RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select exists (
    select 1 from auth.users u join public.mixers m on m.email = lower(u.email)
     where u.id = (select auth.uid())
  );
$$;

-- Name: keep_payment(text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.keep_payment(p_provider text, p_event_id text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer keeps a payment' using errcode = '42501';
  end if;
  update public.payment_events e set kept = true
   where e.provider = p_provider and e.event_id = p_event_id and e.kind = 'payment' and not e.kept;
  return found;
end;
$$;

-- Name: ledger_rows(text, text, integer, integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.ledger_rows(p_provider text, p_filter text, p_limit integer, p_offset integer) RETURNS TABLE(provider text, event_id text, kind text, code text, amount integer, currency text, reference text, received_at timestamp with time zone, order_code text, marked_by text, dispute_status text, dispute_reason text, kept boolean, running_total boolean, order_due boolean, test boolean, flagged boolean, extra boolean, refs text[])
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select e.provider, e.event_id, e.kind, e.code, e.amount, e.currency, e.reference, e.received_at,
         m.code, coalesce(p.username, p.email), e.dispute_status, e.dispute_reason, e.kept, e.running_total,
         coalesce(money.due, false), e.test, coalesce(money.flagged, false), coalesce(money.extra, false), e.refs
    from public.payment_events e
    left join public.mixtapes m on m.id = e.order_id
    left join public.profiles p on p.id = e.marked_by
    left join lateral (
      select exists (select 1 from jsonb_array_elements(o.money -> 'lines') l where (l ->> 'due')::bigint > 0) as due,
             exists (select 1 from jsonb_array_elements(o.money -> 'movements') x
                      where x ->> 'provider' = e.provider and x ->> 'event' = e.event_id and (x ->> 'flagged')::boolean) as flagged,
             exists (select 1 from jsonb_array_elements(o.money -> 'movements') x
                      where x ->> 'provider' = e.provider and x ->> 'event' = e.event_id and (x ->> 'extra')::boolean) as extra
        from (select public.order_money(m) as money) o
       where m.id is not null
    ) money on true
   where (p_provider is null or e.provider = p_provider)
     and case coalesce(p_filter, 'all')
           when 'unmatched' then e.order_id is null
           when 'due' then coalesce(money.due, false)
           when 'flagged' then coalesce(money.flagged, false)
           else true
         end
   order by e.received_at desc, e.seq desc
   limit least(greatest(p_limit, 1), 1000) offset greatest(p_offset, 0);
$$;

-- Name: limit_order_messages(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.limit_order_messages() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  -- One message of an order at a time, so concurrent sends count each other.
  perform 1 from public.mixtapes m where m.id = new.order_id for update;
  if (select count(*) from public.order_messages x
       where x.order_id = new.order_id and x.from_mixer = new.from_mixer and x.created_at > now() - interval '10 minutes') >= 10 then
    raise exception 'Too many messages about this order' using errcode = 'MXMSG';
  end if;
  return new;
end;
$$;

-- Name: mark_money(text, text, integer, text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.mark_money(p_code text, p_kind text, p_amount integer, p_currency text, p_token text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  o public.mixtapes%rowtype;
  v_net bigint;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer marks money by hand' using errcode = '42501';
  end if;
  if p_kind not in ('payment', 'refund') or p_amount is null or p_amount <= 0
     or p_currency is null or p_currency !~ '^[A-Z]{3}$' or p_token is null or p_token !~ '^[A-Za-z0-9-]{8,64}$' then
    raise exception 'a mark by hand needs a kind, an amount, a currency and a token' using errcode = '22023';
  end if;
  select * into o from public.mixtapes m where m.code = p_code for update;
  if not found then
    return 'no_order';
  end if;
  if exists (select 1 from public.payment_events e where e.provider = 'manual' and e.event_id = 'manual:' || p_token) then
    return 'duplicate';
  end if;
  if p_kind = 'refund' then
    select coalesce(sum((l ->> 'net')::bigint), 0) into v_net
      from jsonb_array_elements(public.order_money(o) -> 'lines') l
     where l ->> 'currency' = p_currency and not (l ->> 'test')::boolean;
    if v_net < p_amount then
      return 'over';
    end if;
  end if;
  insert into public.payment_events (provider, event_id, kind, code, amount, currency, order_id, marked_by)
  values ('manual', 'manual:' || p_token, p_kind, o.code, p_amount, p_currency, o.id, auth.uid())
  on conflict do nothing;
  if not found then
    return 'duplicate';
  end if;
  return case p_kind when 'payment' then 'paid' else 'refunded' end;
end;
$_$;

-- Name: mark_order_read(text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.mark_order_read(p_code text, p_side text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  o public.mixtapes%rowtype;
begin
  select * into o from public.mixtapes where code = p_code;
  if not found then
    return false;
  end if;
  if p_side = 'mixer' and public.is_mixer() then
    null;
  elsif p_side = 'shopper' and o.user_id = auth.uid() then
    null;
  else
    return false;
  end if;
  insert into public.order_reads (order_id, reader, read_at, unread, since) values (o.id, p_side, now(), 0, null)
  on conflict (order_id, reader) do update set read_at = excluded.read_at, unread = 0, since = null;
  return true;
end;
$$;

-- Name: may_hear_tape(bigint); Type: FUNCTION; Schema: public
CREATE FUNCTION public.may_hear_tape(p_order_id bigint) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select public.is_mixer() or exists (
    select 1 from public.mixtapes m
     where m.id = p_order_id and m.user_id = (select auth.uid()) and m.status = 'sent'
  );
$$;

-- Name: merged_refs(text[], text[]); Type: FUNCTION; Schema: public
CREATE FUNCTION public.merged_refs(p_refs text[], p_more text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$
  select case when cardinality(m) <= 10 and char_length(array_to_string(m, '')) <= 2000 then m else p_refs end
    from (select array(select distinct x from unnest(p_refs || p_more) x order by x) as m) merged;
$$;

-- Name: mixer_email_budget(uuid, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.mixer_email_budget(p_shopper uuid, p_recipient text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
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

-- Name: mixtapes_admit(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.mixtapes_admit() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  s public.shop_settings%rowtype;
begin
  select * into s from public.shop_settings;
  if not found then
    return new;
  end if;
  if not s.open then
    raise exception 'The shop is closed' using errcode = 'MXCLS', hint = s.closed_message;
  end if;
  if s.max_open_orders is not null then
    -- One transmit at a time past this line: the next reads the tallies this one's order moved.
    select * into s from public.shop_settings for update;
    if public.open_orders() >= s.max_open_orders then
      raise exception 'The queue is full' using errcode = 'MXFUL';
    end if;
  end if;
  return new;
end;
$$;

-- Name: mixtapes_design_snapshot(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.mixtapes_design_snapshot() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if tg_op = 'INSERT' then
    select d.name, d.image into new.design_name, new.design_image from public.designs d where d.id = new.design_id;
    if not found then
      new.design_name := null;
      new.design_image := null;
    end if;
  elsif (new.design_name, new.design_image) is distinct from (old.design_name, old.design_image) then
    raise exception 'an order''s contents never change' using errcode = '42501';
  end if;
  return new;
end;
$$;

-- Name: mixtapes_tally(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.mixtapes_tally() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  v_paid boolean;
begin
  if tg_op = 'INSERT' then
    v_paid := exists (select 1 from public.queue_paid_marks k where k.order_id = new.id);
    perform public.queue_tally_move(null, null, new.status, v_paid);
  elsif tg_op = 'DELETE' then
    delete from public.queue_paid_marks k where k.order_id = old.id;
    perform public.queue_tally_move(old.status, found, null, null);
  elsif new.status is distinct from old.status then
    v_paid := exists (select 1 from public.queue_paid_marks k where k.order_id = new.id);
    perform public.queue_tally_move(old.status, v_paid, new.status, v_paid);
  end if;
  return null;
end;
$$;

-- Name: mixtapes_transition(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.mixtapes_transition() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  actor uuid := auth.uid();
  erasable constant text[] := array['user_id', 'note', 'mixing_by', 'sent_by', 'cancelled_by', 'finished'];
begin
  -- Deleting an account clears the link to a person and the note, as the owner only.
  if current_user not in ('anon', 'authenticated', 'service_role')
     and (to_jsonb(new) - erasable) = (to_jsonb(old) - erasable)
     and (new.user_id is null or new.user_id = old.user_id)
     and (new.note = '' or new.note = old.note)
     and (new.mixing_by is null or new.mixing_by = old.mixing_by)
     and (new.sent_by is null or new.sent_by = old.sent_by)
     and (new.cancelled_by is null or new.cancelled_by = old.cancelled_by) then
    return new;
  end if;
  -- On Supabase, default privileges grant table-wide UPDATE: the column grants alone
  -- do not protect the order's contents there.
  if (new.id, new.user_id, new.code, new.tracks, new.toggles, new.note, new.design_id, new.created_at, new.codename)
     is distinct from (old.id, old.user_id, old.code, old.tracks, old.toggles, old.note, old.design_id, old.created_at, old.codename) then
    raise exception 'an order''s contents never change' using errcode = '42501';
  end if;
  if (new.mixing_at, new.mixing_by, new.sent_at, new.sent_by, new.cancelled_at, new.cancelled_by)
     is distinct from (old.mixing_at, old.mixing_by, old.sent_at, old.sent_by, old.cancelled_at, old.cancelled_by) then
    raise exception 'the times and authors of changes are recorded, never written' using errcode = '42501';
  end if;
  -- A shopper (signed in, not a mixer) only cancels their own order while it is received.
  if actor is not null and not public.is_mixer() then
    if not (actor = old.user_id and old.status = 'received' and new.status = 'cancelled')
       or (new.delivery_url, new.mixer_message) is distinct from (old.delivery_url, old.mixer_message) then
      raise exception 'a shopper only cancels their own order, while it is received' using errcode = '42501';
    end if;
  end if;
  if new.status is distinct from old.status then
    if not ((old.status = 'received' and new.status in ('mixing', 'cancelled'))
            or (old.status = 'mixing' and new.status in ('sent', 'cancelled'))) then
      raise exception 'an order cannot go from % to %', old.status, new.status using errcode = '23514';
    end if;
    if new.status = 'mixing' then
      new.mixing_at := now();
      new.mixing_by := actor;
    elsif new.status = 'sent' then
      new.sent_at := now();
      new.sent_by := actor;
    else
      new.cancelled_at := now();
      new.cancelled_by := actor;
    end if;
  end if;
  if (new.delivery_url, new.mixer_message) is distinct from (old.delivery_url, old.mixer_message)
     and not (old.status = 'mixing' and new.status = 'sent') then
    raise exception 'the delivery link and message are set when the order is sent' using errcode = '23514';
  end if;
  if new.cancel_reason is distinct from old.cancel_reason and not (new.status = 'cancelled' and old.status <> 'cancelled') then
    raise exception 'the reason comes with the cancellation' using errcode = '23514';
  end if;
  return new;
end;
$$;

-- Name: move_in_catalogue(text, text, integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.move_in_catalogue(p_kind text, p_id text, p_by integer) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  v_me record;
  v_other record;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  if p_kind = 'song' then
    select id, position into v_me from public.songs where id = p_id for update;
    if not found then
      return false;
    end if;
    select id, position into v_other from public.songs
     where case when p_by < 0 then (position, id::bigint) < (v_me.position, v_me.id::bigint)
                else (position, id::bigint) > (v_me.position, v_me.id::bigint) end
     order by case when p_by < 0 then -position else position end,
              case when p_by < 0 then -id::bigint else id::bigint end
     limit 1 for update;
    if not found then
      return false;
    end if;
    -- Equal positions (never written by these functions) still come apart.
    update public.songs set position = case when id = v_me.id then v_other.position else v_me.position end
     where id in (v_me.id, v_other.id);
    if v_me.position = v_other.position then
      update public.songs set position = position + sign(p_by)::integer where id = v_me.id;
    end if;
    return true;
  elsif p_kind = 'design' then
    select id, position into v_me from public.designs where id = p_id for update;
    if not found then
      return false;
    end if;
    select id, position into v_other from public.designs
     where case when p_by < 0 then (position, id) < (v_me.position, v_me.id) else (position, id) > (v_me.position, v_me.id) end
     order by case when p_by < 0 then -position else position end,
              case when p_by < 0 then id end desc, case when p_by >= 0 then id end
     limit 1 for update;
    if not found then
      return false;
    end if;
    update public.designs set position = case when id = v_me.id then v_other.position else v_me.position end
     where id in (v_me.id, v_other.id);
    if v_me.position = v_other.position then
      update public.designs set position = position + sign(p_by)::integer where id = v_me.id;
    end if;
    return true;
  end if;
  raise exception 'no such kind: %', p_kind using errcode = '22023';
end;
$$;

-- Name: my_order_emails(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.my_order_emails() RETURNS TABLE(kind text, code text, created_at timestamp with time zone, sent_at timestamp with time zone)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select e.kind, m.code, e.created_at, e.sent_at
    from public.order_emails e
    join public.mixtapes m on m.id = e.order_id
    join auth.users u on u.id = m.user_id
   where m.user_id = (select auth.uid()) and lower(e.recipient) = lower(u.email)
   order by e.created_at, e.id;
$$;

-- Name: my_orders(uuid, text, timestamp with time zone, bigint, boolean, integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.my_orders(p_user_id uuid, p_code text, p_after_at timestamp with time zone, p_after_id bigint, p_backward boolean, p_limit integer) RETURNS SETOF public.order_row
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
declare
  v_ids bigint[];
begin
  -- One static query per case, each planned on its own index (a clause "p_code is null or ..." would
  -- keep a cached generic plan from either).
  if p_code is not null then
    v_ids := array(select m.id from public.mixtapes m where m.user_id = p_user_id and m.code = p_code);
  elsif p_after_id is null then
    v_ids := array(select m.id from public.mixtapes m where m.user_id = p_user_id
                    order by m.created_at desc, m.id desc limit p_limit);
  elsif coalesce(p_backward, false) then
    -- The index read the other way (oldest first from the place), then turned round.
    v_ids := array(select u.id from unnest(array(
               select m.id from public.mixtapes m
                where m.user_id = p_user_id and (m.created_at, m.id) > (p_after_at, p_after_id)
                order by m.created_at, m.id limit p_limit)) with ordinality as u (id, n)
             order by u.n desc);
  else
    v_ids := array(select m.id from public.mixtapes m
                    where m.user_id = p_user_id and (m.created_at, m.id) < (p_after_at, p_after_id)
                    order by m.created_at desc, m.id desc limit p_limit);
  end if;
  return query select * from public.orders_read(v_ids);
end;
$$;

-- Name: open_orders(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.open_orders() RETURNS bigint
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select coalesce(sum(t.n), 0)::bigint from public.queue_tallies t where t.status in ('received', 'mixing');
$$;

-- Name: order_code_key(text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.order_code_key(p_code text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  select pg_catalog.translate(p_code, 'OIL', '011');
$$;

-- Name: order_conversation_open(bigint); Type: FUNCTION; Schema: public
CREATE FUNCTION public.order_conversation_open(p_order_id bigint) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select exists (
    select 1 from public.mixtapes m
     where m.id = p_order_id
       and (m.status not in ('sent', 'cancelled') or coalesce(m.sent_at, m.cancelled_at, m.created_at) > now() - interval '30 days')
  );
$$;

-- Name: order_messages_of(text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.order_messages_of(p_code text) RETURNS TABLE(id text, from_mixer boolean, body text, created_at timestamp with time zone)
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select m.id::text, m.from_mixer, m.body, m.created_at
    from public.order_messages m
    join public.mixtapes o on o.id = m.order_id
   where o.code = p_code
   order by m.created_at, m.id;
$$;

-- Name: mixtapes; Type: TABLE; Schema: public
CREATE TABLE public.mixtapes (
    id bigint NOT NULL,
    user_id uuid,
    code text NOT NULL,
    tracks jsonb DEFAULT '[]'::jsonb NOT NULL,
    toggles jsonb DEFAULT '{}'::jsonb NOT NULL,
    note text DEFAULT ''::text NOT NULL,
    design_id text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    status text DEFAULT 'received'::text NOT NULL,
    mixing_at timestamp with time zone,
    mixing_by uuid,
    sent_at timestamp with time zone,
    sent_by uuid,
    delivery_url text,
    mixer_message text,
    finished boolean GENERATED ALWAYS AS ((status = ANY (ARRAY['sent'::text, 'cancelled'::text]))) STORED,
    codename text,
    cancelled_at timestamp with time zone,
    cancelled_by uuid,
    cancel_reason text,
    design_name text,
    design_image text,
    CONSTRAINT mixtapes_cancel_reason_length CHECK ((char_length(cancel_reason) <= 500)),
    CONSTRAINT mixtapes_code_format CHECK ((code ~ '^[A-Z0-9]{8}$'::text)),
    CONSTRAINT mixtapes_codename CHECK ((codename ~ '^[A-Z0-9 -]{1,60}$'::text)),
    CONSTRAINT mixtapes_mixer_message_length CHECK ((char_length(mixer_message) <= 500)),
    CONSTRAINT mixtapes_note_length CHECK ((char_length(note) <= 120)),
    CONSTRAINT mixtapes_status CHECK ((status = ANY (ARRAY['received'::text, 'mixing'::text, 'sent'::text, 'cancelled'::text]))),
    CONSTRAINT mixtapes_toggles_object CHECK ((jsonb_typeof(toggles) = 'object'::text)),
    CONSTRAINT mixtapes_tracks_array CHECK ((jsonb_typeof(tracks) = 'array'::text))
);

-- Name: order_money(public.mixtapes); Type: FUNCTION; Schema: public
CREATE FUNCTION public.order_money(m public.mixtapes) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select o.money from public.orders_money(array[m.id]) o;
$$;

-- Name: order_paid(public.mixtapes); Type: FUNCTION; Schema: public
CREATE FUNCTION public.order_paid(m public.mixtapes) RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select exists (select 1 from public.paid_orders p where p.order_id = m.id);
$$;

-- Name: order_refund_due(public.mixtapes); Type: FUNCTION; Schema: public
CREATE FUNCTION public.order_refund_due(m public.mixtapes) RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select exists (
    select 1 from jsonb_array_elements(public.order_money(m) -> 'lines') l where (l ->> 'due')::bigint > 0
  );
$$;

-- Name: order_tape(public.mixtapes); Type: FUNCTION; Schema: public
CREATE FUNCTION public.order_tape(m public.mixtapes) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select public.tape_facts(m.id, public.is_mixer()) where public.may_hear_tape(m.id);
$$;

-- Name: orders_money(bigint[]); Type: FUNCTION; Schema: public
CREATE FUNCTION public.orders_money(p_ids bigint[]) RETURNS TABLE(order_id bigint, money jsonb)
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  with orders as (
    select m.id, m.status from public.mixtapes m where m.id = any(p_ids)
  ), mv as (
    select v.* from public.ledger_movements v where v.order_id = any(p_ids)
  ), payments as (
    select p.*, public.counts_as_payment(p.kind, p.test, p.amount) and not p.kept as candidate,
           greatest(0, coalesce(p.amount, 0) + coalesce((
             select sum(r.signed) from mv r
              where r.order_id = p.order_id and r.kind <> 'payment' and r.provider = p.provider
                and r.reference = p.reference), 0)) as left_over
      from mv p where p.kind = 'payment'
  ), firsts as (
    select p.*, min(p.received_at) filter (where p.candidate) over (partition by p.order_id, p.currency) as currency_first
      from payments p
  ), ranked as (
    -- The price: in the currency paid first, the payment most left of; the rest with money left is extra.
    select f.*, f.candidate and row_number() over (partition by f.order_id
             order by f.candidate desc, f.currency_first nulls last, f.left_over desc, f.received_at, f.event_id) = 1 as price
      from firsts f
  ), extras as (
    select r.order_id, r.provider, r.event_id, r.test, r.currency, r.left_over,
           r.candidate and not r.price and r.left_over > 0 as extra
      from ranked r
  ), lines as (
    select v.order_id, v.test, v.currency,
           count(*) filter (where v.kind = 'payment' and (v.amount is null or v.amount > 0)) as payments,
           coalesce(sum(v.amount) filter (where v.kind = 'payment'), 0) as paid,
           coalesce(bool_or(v.kind = 'refund' and v.amount is null), false) as refunded_all,
           coalesce(sum(v.amount) filter (where v.kind = 'refund' and not v.flagged), 0) as refunded,
           coalesce(sum(v.amount) filter (where v.flagged), 0) as flagged,
           coalesce(sum(-v.signed) filter (where v.kind = 'dispute'), 0) as disputed,
           -- Refunds that name no payment of this order (marked by hand): they give back the extra payments first.
           coalesce(sum(-v.signed) filter (where v.kind <> 'payment' and not exists (
             select 1 from mv p where p.order_id = v.order_id and p.kind = 'payment' and p.provider = v.provider
                                  and p.reference = v.reference)), 0) as loose,
           (select coalesce(sum(x.left_over), 0) from extras x
             where x.order_id = v.order_id and x.extra and x.test = v.test and x.currency is not distinct from v.currency) as extra
      from mv v
     group by v.order_id, v.test, v.currency
  ), totals as (
    select l.*, case when l.refunded_all then l.paid else l.refunded end as refunded_total from lines l
  )
  select o.id, jsonb_build_object(
    'lines', coalesce((
      select jsonb_agg(jsonb_build_object(
               'currency', t.currency, 'test', t.test, 'payments', t.payments, 'paid', t.paid, 'refunded', t.refunded_total,
               'refundedAll', t.refunded_all, 'disputed', t.disputed, 'flagged', t.flagged,
               'net', t.paid - t.refunded_total - t.disputed,
               -- Test money is never due. All of a cancelled order's money; otherwise what is left of the extra payments.
               'due', case when t.test then 0
                           when o.status = 'cancelled' then greatest(0, t.paid - t.refunded_total - t.disputed)
                           when t.refunded_all then 0
                           else least(greatest(0, t.extra - t.loose), greatest(0, t.paid - t.refunded_total - t.disputed)) end)
               order by t.test, t.currency nulls last)
        from totals t where t.order_id = o.id), '[]'::jsonb),
    'movements', coalesce((
      select jsonb_agg(jsonb_build_object(
               'kind', v.kind, 'provider', v.provider, 'event', v.event_id, 'amount', v.amount, 'currency', v.currency,
               'at', v.received_at, 'status', v.status, 'reason', v.reason, 'test', v.test, 'flagged', v.flagged,
               'reference', v.reference, 'dueBy', v.due_by,
               'extra', coalesce(x.extra, false),
               'undo', v.provider = 'manual' and public.hand_mark_undoable(v.provider, v.received_at, o.id, v.seq))
               order by v.received_at, v.event_id)
        from mv v
        left join extras x on x.order_id = v.order_id and x.provider = v.provider and x.event_id = v.event_id and v.kind = 'payment'
       where v.order_id = o.id), '[]'::jsonb)
  )
    from orders o;
$$;

-- Name: orders_read(bigint[]); Type: FUNCTION; Schema: public
CREATE FUNCTION public.orders_read(p_ids bigint[]) RETURNS SETOF public.order_row
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select m.id::text, m.user_id, m.code, m.tracks, m.toggles, m.note, m.design_id, m.design_name, m.design_image,
         m.codename, m.created_at, m.status, m.delivery_url, m.mixer_message, m.cancel_reason, m.mixing_at, m.sent_at,
         m.cancelled_at, m.cancelled_by, om.money, ot.tape, p.username, p.email,
         case when m.finished then '1' else '0' end
           || '_' || pg_catalog.to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
           || '_' || m.id::text
    from unnest(p_ids) with ordinality as page (id, n)
    join public.mixtapes m on m.id = page.id
    left join public.profiles p on p.id = m.user_id
    left join public.orders_money(p_ids) om on om.order_id = m.id
    left join public.orders_tape(p_ids) ot on ot.order_id = m.id
   order by page.n;
$$;

-- Name: orders_tape(bigint[]); Type: FUNCTION; Schema: public
CREATE FUNCTION public.orders_tape(p_ids bigint[]) RETURNS TABLE(order_id bigint, tape jsonb)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select t.order_id, public.tape_facts(t.order_id, (select public.is_mixer()))
    from public.tapes t
   where t.order_id = any(p_ids) and public.may_hear_tape(t.order_id);
$$;

-- Name: payment_events_tally(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.payment_events_tally() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  v_order bigint;
  v_status text;
begin
  for v_order in
    select distinct x.id
      from unnest(array[case when tg_op <> 'INSERT' then old.order_id end,
                        case when tg_op <> 'DELETE' then new.order_id end]) as x (id)
     where x.id is not null
  loop
    select m.status into v_status from public.mixtapes m where m.id = v_order;
    if exists (select 1 from public.payment_events e
                where e.order_id = v_order and public.counts_as_payment(e.kind, e.test, e.amount)) then
      insert into public.queue_paid_marks (order_id) values (v_order) on conflict do nothing;
      if found and v_status is not null then
        perform public.queue_tally_move(v_status, false, v_status, true);
      end if;
    else
      delete from public.queue_paid_marks k where k.order_id = v_order;
      if found and v_status is not null then
        perform public.queue_tally_move(v_status, true, v_status, false);
      end if;
    end if;
  end loop;
  return null;
end;
$$;

-- Name: payment_joins_order(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.payment_joins_order() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if new.kind = 'payment' and new.order_id is not null and (tg_op = 'INSERT' or old.order_id is null) then
    new.order_was_paid := exists (
      select 1 from public.mixtapes m, jsonb_array_elements(public.order_money(m) -> 'lines') l
       where m.id = new.order_id and not (l ->> 'test')::boolean and (l ->> 'payments')::bigint > 0
         and ((l ->> 'net')::bigint > 0 or (l ->> 'currency' is null and not (l ->> 'refundedAll')::boolean))
    );
  end if;
  return new;
end;
$$;

-- Name: post_order_message(text, boolean, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.post_order_message(p_code text, p_from_mixer boolean, p_body text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  v_id bigint;
begin
  insert into public.order_messages (order_id, from_mixer, body)
  select o.id, p_from_mixer, p_body from public.mixtapes o where o.code = p_code
  returning id into v_id;
  if v_id is null then
    raise exception 'no order % for this caller', p_code using errcode = '42501';
  end if;
  return v_id::text;
end;
$$;

-- Name: queue_counts(text, integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.queue_counts(p_code text, p_due_days integer) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
declare
  v_counts jsonb;
begin
  if p_code is null and public.is_mixer() then
    select jsonb_build_object(
      'all', coalesce(sum(t.n), 0),
      'received', coalesce(sum(t.n) filter (where t.status = 'received'), 0),
      'mixing', coalesce(sum(t.n) filter (where t.status = 'mixing'), 0),
      'sent', coalesce(sum(t.n) filter (where t.status = 'sent'), 0),
      'cancelled', coalesce(sum(t.n) filter (where t.status = 'cancelled'), 0),
      'unpaid', coalesce(sum(t.n) filter (where not t.paid), 0),
      -- The open orders less those still in time: a count bounded by the last few days' orders, not by the backlog.
      'late', coalesce(sum(t.n) filter (where t.status in ('received', 'mixing')), 0)
              - (select count(*) from public.mixtapes m
                  where m.status in ('received', 'mixing') and m.created_at >= now() - make_interval(days => p_due_days))
    ) into v_counts
      from public.queue_tallies t;
    return v_counts;
  end if;
  select jsonb_build_object(
    'all', count(*),
    'received', count(*) filter (where m.status = 'received'),
    'mixing', count(*) filter (where m.status = 'mixing'),
    'sent', count(*) filter (where m.status = 'sent'),
    'cancelled', count(*) filter (where m.status = 'cancelled'),
    'unpaid', count(*) filter (where p.order_id is null),
    'late', count(*) filter (
      where m.status in ('received', 'mixing') and m.created_at < now() - make_interval(days => p_due_days)
    )
  ) into v_counts
    from public.mixtapes m
    left join public.paid_orders p on p.order_id = m.id
   where p_code is null or public.order_code_key(m.code) like public.order_code_key(p_code) || '%';
  return v_counts;
end;
$$;

-- Name: queue_message_emails(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.queue_message_emails() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
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

-- Name: queue_money_emails(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.queue_money_emails() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if new.order_id is null or new.kind = 'dispute' or new.test or (new.kind = 'payment' and new.amount = 0)
     or (tg_op = 'UPDATE' and old.order_id is not null) then
    return null;
  end if;
  insert into public.order_emails (order_id, kind, recipient, entry_provider, entry_event, next_attempt_at)
  select new.order_id, case new.kind when 'payment' then 'paid' else 'refunded' end, u.email, new.provider, new.event_id,
         case when new.provider = 'manual' then now() + public.hand_mark_undo_window() else now() end
    from public.mixtapes m join auth.users u on u.id = m.user_id
   where m.id = new.order_id and u.email is not null
  on conflict do nothing;
  return null;
end;
$$;

-- Name: queue_order_emails(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.queue_order_emails() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
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

-- Name: queue_page(text, boolean, boolean, text, integer, boolean, boolean, timestamp with time zone, bigint, boolean, integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.queue_page(p_status text, p_unpaid boolean, p_late boolean, p_code text, p_due_days integer, p_newest_first boolean, p_after_finished boolean, p_after_at timestamp with time zone, p_after_id bigint, p_backward boolean, p_limit integer) RETURNS SETOF public.order_row
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $_$
declare
  -- A page read backward reads the list's order reversed, then turns it round.
  v_desc boolean := coalesce(p_newest_first, false) <> coalesce(p_backward, false);
  v_sql text := 'select m.id from public.mixtapes m where true';
  v_ids bigint[];
begin
  if p_status is not null then
    v_sql := v_sql || ' and m.status = $1';
  end if;
  if p_unpaid then
    -- paid_orders' rule, asked per order (the view's distinct is read whole, then scanned per order).
    v_sql := v_sql || ' and not exists (select 1 from public.payment_events e'
                   || ' where e.order_id = m.id and public.counts_as_payment(e.kind, e.test, e.amount))';
  end if;
  if p_late then
    v_sql := v_sql || ' and m.status in (''received'', ''mixing'') and m.created_at < now() - make_interval(days => $5)';
  end if;
  if p_code is not null then
    v_sql := v_sql || ' and public.order_code_key(m.code) like public.order_code_key($4) || ''%''';
  end if;
  if p_after_id is not null then
    v_sql := v_sql || ' and (m.finished, m.created_at, m.id) ' || case when v_desc then '<' else '>' end || ' ($6, $7, $8)';
  end if;
  v_sql := v_sql || pg_catalog.format(' order by m.finished%1$s, m.created_at%1$s, m.id%1$s limit $9',
                                      case when v_desc then ' desc' else '' end);
  execute 'select array(' || v_sql || ')' into v_ids
    using p_status, p_unpaid, p_late, p_code, p_due_days, p_after_finished, p_after_at, p_after_id, p_limit;
  if p_backward then
    v_ids := array(select u.id from unnest(v_ids) with ordinality as u (id, n) order by u.n desc);
  end if;
  return query select * from public.orders_read(v_ids);
end;
$_$;

-- Name: queue_recount(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.queue_recount() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  lock table public.queue_tallies, public.queue_paid_marks in exclusive mode;
  delete from public.queue_paid_marks;
  insert into public.queue_paid_marks (order_id)
    select distinct e.order_id from public.payment_events e
     where e.order_id is not null and public.counts_as_payment(e.kind, e.test, e.amount);
  delete from public.queue_tallies;
  insert into public.queue_tallies (status, paid, n)
    select s.status, p.paid,
           (select count(*) from public.mixtapes m
             where m.status = s.status
               and exists (select 1 from public.queue_paid_marks k where k.order_id = m.id) = p.paid)
      from unnest(array['received', 'mixing', 'sent', 'cancelled']) as s (status)
     cross join (values (false), (true)) as p (paid);
end;
$$;

-- Name: queue_storage_deletion(text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.queue_storage_deletion(p_key text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
  insert into public.storage_deletions (storage_key) values (p_key) on conflict do nothing;
$$;

-- Name: queue_tally_move(text, boolean, text, boolean); Type: FUNCTION; Schema: public
CREATE FUNCTION public.queue_tally_move(p_from_status text, p_from_paid boolean, p_to_status text, p_to_paid boolean) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if (p_from_status, p_from_paid) is not distinct from (p_to_status, p_to_paid) then
    return;
  end if;
  perform 1 from public.queue_tallies t
    where (t.status, t.paid) in ((p_from_status, p_from_paid), (p_to_status, p_to_paid))
    order by t.status, t.paid
      for update;
  update public.queue_tallies t
     set n = t.n + case when (t.status, t.paid) = (p_to_status, p_to_paid) then 1 else -1 end
   where (t.status, t.paid) in ((p_from_status, p_from_paid), (p_to_status, p_to_paid));
end;
$$;

-- Name: record_payment_event(text, text, text, text, integer, text, text, text[], boolean, boolean, text, text, text, timestamp with time zone); Type: FUNCTION; Schema: public
CREATE FUNCTION public.record_payment_event(p_provider text, p_event_id text, p_kind text, p_code text, p_amount integer, p_currency text, p_reference text, p_aliases text[], p_running_total boolean, p_test boolean, p_dispute text, p_dispute_status text, p_dispute_reason text, p_dispute_due_by timestamp with time zone) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  v_refs text[] := array(
    select distinct r from unnest(array[p_reference] || coalesce(p_aliases, '{}')) r where r is not null order by r
  );
  v_ref text;
  v_reference text := p_reference;
  v_order bigint;
  v_payment public.payment_events%rowtype;
begin
  -- Every name of the payment, sorted, so two events of one payment always meet and never wait in a circle.
  foreach v_ref in array v_refs loop
    perform pg_advisory_xact_lock(hashtextextended(p_provider || ':' || v_ref, 7243035));
  end loop;
  if p_kind = 'payment' then
    if exists (select 1 from public.payment_events e
                where e.provider = p_provider and e.kind = 'payment' and e.refs && v_refs) then
      return 'duplicate';
    end if;
    -- Then the events of its order one at a time, so exactly one payment is the first.
    select m.id into v_order from public.mixtapes m where m.code = upper(btrim(p_code)) for no key update;
  elsif cardinality(v_refs) > 0 then
    -- The payment it names by any of its names; under their locks, its order cannot change until this commits.
    select * into v_payment from public.payment_events e
     where e.provider = p_provider and e.kind = 'payment' and e.refs && v_refs
     order by e.received_at, e.event_id limit 1;
    if found then
      v_reference := v_payment.reference;
      v_order := v_payment.order_id;
      if v_order is not null then
        perform 1 from public.mixtapes m where m.id = v_order for no key update;
      end if;
    end if;
  end if;
  insert into public.payment_events (provider, event_id, kind, code, amount, currency, reference, refs, order_id,
                                     running_total, test, dispute, dispute_status, dispute_reason, dispute_due_by)
  values (p_provider, p_event_id, p_kind, p_code, p_amount, upper(p_currency), v_reference, v_refs, v_order,
          coalesce(p_running_total, false), coalesce(p_test, false), p_dispute, p_dispute_status, p_dispute_reason,
          p_dispute_due_by)
  on conflict do nothing;
  if not found then
    return 'duplicate';
  end if;
  if v_payment.event_id is not null and not (v_payment.refs @> v_refs) then
    -- The payment learns the event's other names: a charge of its payment intent, say.
    update public.payment_events e set refs = public.merged_refs(e.refs, v_refs)
     where e.provider = v_payment.provider and e.event_id = v_payment.event_id;
  end if;
  if v_order is null then
    return 'unmatched';
  end if;
  if p_kind = 'payment' then
    -- Refunds and disputes that came first apply now, under the payment's reference, and it learns their names.
    perform public.adopt_payment_events(p_provider, p_event_id, v_order);
    if coalesce(p_test, false) then
      return 'test';
    end if;
    if not public.counts_as_payment(p_kind, false, p_amount) then
      return 'recorded';
    end if;
    -- A statement after the order's lock: it sees every payment of the order committed before.
    if exists (select 1 from public.payment_events e
                where e.order_id = v_order and public.counts_as_payment(e.kind, e.test, e.amount)
                  and (e.provider, e.event_id) <> (p_provider, p_event_id)) then
      return 'paid_again';
    end if;
    return 'paid';
  end if;
  if coalesce(p_test, false) then
    return 'test';
  end if;
  return case p_kind when 'refund' then 'refunded' else 'disputed' end;
end;
$$;

-- Name: save_cover_background(integer, integer, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.save_cover_background(p_slot integer, p_version integer, p_image text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  update public.cover_backgrounds set image = p_image where slot = p_slot and version = p_version;
  if found then
    return 'saved';
  end if;
  return case when exists (select 1 from public.cover_backgrounds where slot = p_slot) then 'changed' else 'missing' end;
end;
$$;

-- Name: save_design(text, integer, text, text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.save_design(p_id text, p_version integer, p_name text, p_image text, p_colour text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  update public.designs
     set name = p_name, image = coalesce(p_image, image), colour = coalesce(p_colour, colour)
   where id = p_id and version = p_version;
  if found then
    return 'saved';
  end if;
  return case when exists (select 1 from public.designs where id = p_id) then 'changed' else 'missing' end;
end;
$$;

-- Name: save_shop_words(text, text, text, text, text, text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.save_shop_words(p_title text, p_tagline text, p_mixer_name text, p_product_label text, p_price_note text, p_creator_url text, p_checkout_url text) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the shop''s words' using errcode = '42501';
  end if;
  update public.shop_settings
     set shop_title = p_title, tagline = p_tagline, mixer_name = p_mixer_name, product_label = p_product_label,
         price_note = p_price_note, creator_url = p_creator_url, checkout_url = p_checkout_url;
  return found;
end;
$$;

-- Name: save_song(text, integer, text, text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.save_song(p_id text, p_version integer, p_title text, p_thumbnail text, p_preview_url text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  update public.songs
     set title = p_title, thumbnail = coalesce(p_thumbnail, thumbnail), preview_url = coalesce(p_preview_url, preview_url)
   where id = p_id and version = p_version;
  if found then
    return 'saved';
  end if;
  return case when exists (select 1 from public.songs where id = p_id) then 'changed' else 'missing' end;
end;
$$;

-- Name: save_tape(text, text, text, text, bigint, numeric, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.save_tape(p_code text, p_key text, p_file_name text, p_content_type text, p_size bigint, p_duration numeric, p_notice text) RETURNS TABLE(outcome text, replaced_key text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
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

-- Name: set_design_active(text, integer, boolean); Type: FUNCTION; Schema: public
CREATE FUNCTION public.set_design_active(p_id text, p_version integer, p_active boolean) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  update public.designs set active = p_active where id = p_id and version = p_version;
  if found then
    return 'saved';
  end if;
  return case when exists (select 1 from public.designs where id = p_id) then 'changed' else 'missing' end;
end;
$$;

-- Name: set_song_active(text, integer, boolean); Type: FUNCTION; Schema: public
CREATE FUNCTION public.set_song_active(p_id text, p_version integer, p_active boolean) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  begin
    update public.songs set active = p_active where id = p_id and version = p_version;
  exception when sqlstate 'MXONE' then
    return 'last';
  end;
  if found then
    return 'saved';
  end if;
  return case when exists (select 1 from public.songs where id = p_id) then 'changed' else 'missing' end;
end;
$$;

-- Name: shop_catalogue(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.shop_catalogue() RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select jsonb_build_object(
    'songs', coalesce((
      select jsonb_agg(jsonb_build_object('id', s.id, 'title', s.title, 'thumbnail', s.thumbnail,
               'previewUrl', s.preview_url, 'active', s.active, 'version', s.version) order by s.position, s.id::bigint)
        from public.songs s), '[]'::jsonb),
    'designs', coalesce((
      select jsonb_agg(jsonb_build_object('id', d.id, 'name', d.name, 'image', d.image, 'colour', d.colour,
               'active', d.active, 'version', d.version) order by d.position, d.id)
        from public.designs d), '[]'::jsonb),
    'backgrounds', coalesce((
      select jsonb_agg(jsonb_build_object('slot', b.slot, 'image', b.image, 'version', b.version) order by b.slot)
        from public.cover_backgrounds b), '[]'::jsonb),
    'words', (
      select jsonb_build_object('title', w.shop_title, 'tagline', w.tagline, 'mixerName', w.mixer_name,
               'productLabel', w.product_label, 'priceNote', w.price_note, 'creatorUrl', w.creator_url,
               'checkoutUrl', w.checkout_url)
        from public.shop_settings w)
  );
$$;

-- Name: shop_insights(integer, integer, integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.shop_insights(p_weeks integer, p_due_days integer, p_turnaround_days integer) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  -- Weeks start on Mondays, 00:00 UTC (2001-01-01 was a Monday); date_bin is the cheaper date_trunc here.
  this_week timestamptz := date_bin('7 days', now(), timestamptz '2001-01-01 00:00+00');
  first_week timestamptz := this_week - make_interval(weeks => least(greatest(p_weeks, 1), 52) - 1);
  result jsonb;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer reads the insights' using errcode = '42501';
  end if;
  select jsonb_build_object(
    'weeks', (
      select jsonb_agg(jsonb_build_object(
               'week', w.week, 'orders', coalesce(c.orders, 0), 'cancelled', coalesce(c.cancelled, 0)) order by w.week)
        from generate_series(first_week, this_week, interval '1 week') as w(week)
        left join (
          select date_bin('7 days', m.created_at, timestamptz '2001-01-01 00:00+00') as week,
                 count(*) filter (where m.status <> 'cancelled') as orders,
                 count(*) filter (where m.status = 'cancelled') as cancelled
            from public.mixtapes m
           where m.created_at >= first_week
           group by 1
        ) c on c.week = w.week
    ),
    'revenue', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'week', r.week, 'currency', r.currency, 'amount', r.amount, 'payments', r.payments) order by r.week, r.currency), '[]')
        from (
          select date_bin('7 days', v.received_at, timestamptz '2001-01-01 00:00+00') as week, v.currency,
                 sum(v.signed) as amount, count(*) filter (where public.counts_as_payment(v.kind, v.test, v.amount)) as payments
            from public.ledger_movements v
           where v.received_at >= first_week and v.amount is not null and v.currency is not null and not v.test
           group by 1, 2
        ) r
    ),
    'unpriced', (
      select count(*) from public.ledger_movements v
       where v.kind = 'payment' and not v.test and v.received_at >= first_week and v.amount is null
    ),
    'songs', (
      select coalesce(jsonb_agg(jsonb_build_object('id', s.id, 'picks', s.picks) order by s.picks desc, s.id), '[]')
        from (
          -- The ids alone (the titles are the catalogue's); lax paths skip a malformed track.
          select t.id, count(*) as picks
            from public.mixtapes m
           cross join lateral jsonb_array_elements_text(jsonb_path_query_array(m.tracks, '$[*].id')) as t(id)
           where m.created_at >= first_week
           group by 1
           order by picks desc, id
           limit 10
        ) s
    ),
    'designs', (
      select coalesce(jsonb_agg(jsonb_build_object('design', d.design_id, 'orders', d.orders) order by d.orders desc, d.design_id), '[]')
        from (
          select m.design_id, count(*) as orders from public.mixtapes m where m.created_at >= first_week group by 1
        ) d
    ),
    'turnaround', (
      select jsonb_build_object(
               'sent', count(*),
               'median', percentile_cont(0.5) within group (order by t.days),
               'p90', percentile_cont(0.9) within group (order by t.days),
               'over', count(*) filter (where t.days > p_due_days))
        from (
          select extract(epoch from m.sent_at - m.created_at) / 86400 as days
            from public.mixtapes m
           where m.status = 'sent' and m.sent_at >= now() - make_interval(days => p_turnaround_days)
        ) t
    ),
    'open', (select count(*) from public.mixtapes m where m.status in ('received', 'mixing')),
    'late', (
      select count(*) from public.mixtapes m
       where m.status in ('received', 'mixing') and m.created_at < now() - make_interval(days => p_due_days)
    )
  ) into result;
  return result;
end;
$_$;

-- Name: shop_settings_stamp(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.shop_settings_stamp() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  new.id := true;
  new.updated_at := now();
  new.updated_by := auth.uid();
  return new;
end;
$$;

-- Name: shop_status(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.shop_status() RETURNS TABLE(open boolean, closed_message text, is_full boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select s.open, s.closed_message, s.max_open_orders is not null and public.open_orders() >= s.max_open_orders
    from public.shop_settings s;
$$;

-- Name: songs_keep_one(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.songs_keep_one() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  perform pg_advisory_xact_lock(7243046);
  if not exists (select 1 from public.songs where active) then
    raise exception 'the shop needs at least one song' using errcode = 'MXONE';
  end if;
  return null;
end;
$$;

-- Name: tape_facts(bigint, boolean); Type: FUNCTION; Schema: public
CREATE FUNCTION public.tape_facts(p_order_id bigint, p_file_name boolean) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $_$
  select jsonb_build_object(
           'ext', substring(t.storage_key from '\.([a-z0-9]+)$'),
           'fileName', case when p_file_name then t.file_name end,
           'contentType', t.content_type, 'size', t.size, 'durationSeconds', t.duration_seconds,
           'uploadedAt', t.uploaded_at, 'downloads', t.downloads, 'lastDownloadedAt', t.last_downloaded_at,
           'deletedAt', t.deleted_at, 'version', t.version)
    from public.tapes t where t.order_id = p_order_id;
$_$;

-- Name: tape_file(text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.tape_file(p_code text, p_as text) RETURNS TABLE(storage_key text, codename text, deleted boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select t.storage_key, m.codename, t.deleted_at is not null
    from public.mixtapes m join public.tapes t on t.order_id = m.id
   where m.code = p_code and public.may_hear_tape(m.id)
     and case p_as when 'shopper' then m.user_id = (select auth.uid()) when 'mixer' then public.is_mixer() else false end;
$$;

-- Name: undo_money_mark(text, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.undo_money_mark(p_code text, p_event_id text) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  v_order bigint;
begin
  -- The order's row first, as every writer of its ledger takes it (mark_money checks what is left under it).
  select m.id into v_order from public.mixtapes m where m.code = p_code for update;
  if not found then
    return false;
  end if;
  -- As the caller: the policy above decides.
  delete from public.payment_events e where e.order_id = v_order and e.provider = 'manual' and e.event_id = p_event_id;
  return found;
end;
$$;

-- Name: unread_messages(text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.unread_messages(p_side text) RETURNS TABLE(code text, unread integer, since timestamp with time zone)
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select m.code, r.unread, r.since
    from public.order_reads r
    join public.mixtapes m on m.id = r.order_id
   where r.reader = p_side and r.unread > 0
     and ((p_side = 'mixer' and (select public.is_mixer())) or (p_side = 'shopper' and m.user_id = (select auth.uid())));
$$;

-- Name: username_exists(text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.username_exists(p_username text) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
  select exists (select 1 from public.profiles where lower(username) = lower(p_username));
$$;

-- Name: email_requests; Type: TABLE; Schema: auth
CREATE TABLE auth.email_requests (
    id bigint NOT NULL,
    kind text NOT NULL,
    email text NOT NULL,
    redirect_to text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    locked_until timestamp with time zone,
    done_at timestamp with time zone,
    last_error text,
    user_id uuid,
    CONSTRAINT email_requests_kind_check CHECK ((kind = ANY (ARRAY['signup'::text, 'recovery'::text, 'email_change'::text])))
);

-- Name: email_requests_id_seq; Type: SEQUENCE; Schema: auth
ALTER TABLE auth.email_requests ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME auth.email_requests_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- Name: one_time_tokens; Type: TABLE; Schema: auth
CREATE TABLE auth.one_time_tokens (
    token_hash text NOT NULL,
    user_id uuid NOT NULL,
    token_type text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT one_time_tokens_token_type_check CHECK ((token_type = ANY (ARRAY['signup'::text, 'recovery'::text, 'email_change'::text])))
);

-- Name: sessions; Type: TABLE; Schema: auth
CREATE TABLE auth.sessions (
    id text NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

-- Name: users; Type: TABLE; Schema: auth
CREATE TABLE auth.users (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    email text,
    encrypted_password text,
    email_confirmed_at timestamp with time zone,
    raw_user_meta_data jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    email_change text,
    email_change_sent_at timestamp with time zone
);

-- Name: migrations; Type: TABLE; Schema: mixtape_meta
CREATE TABLE mixtape_meta.migrations (
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

-- Name: rate_limits; Type: TABLE; Schema: mixtape_meta
CREATE TABLE mixtape_meta.rate_limits (
    key character varying(255) NOT NULL,
    points integer DEFAULT 0 NOT NULL,
    expire bigint
);

-- Name: cover_backgrounds; Type: TABLE; Schema: public
CREATE TABLE public.cover_backgrounds (
    slot smallint NOT NULL,
    image text NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by uuid,
    CONSTRAINT cover_backgrounds_image CHECK (public.is_media_path(image)),
    CONSTRAINT cover_backgrounds_slot CHECK (((slot >= 0) AND (slot <= 2)))
);

-- Name: designs; Type: TABLE; Schema: public
CREATE TABLE public.designs (
    id text NOT NULL,
    "position" integer NOT NULL,
    name text NOT NULL,
    image text NOT NULL,
    colour text DEFAULT '#b9b2c7'::text NOT NULL,
    active boolean DEFAULT true NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by uuid,
    CONSTRAINT designs_colour CHECK ((colour ~ '^#[0-9a-f]{6}$'::text)),
    CONSTRAINT designs_id CHECK ((id ~ '^[a-z0-9][a-z0-9-]{0,39}$'::text)),
    CONSTRAINT designs_image CHECK (public.is_media_path(image)),
    CONSTRAINT designs_name CHECK ((((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 40)) AND (name !~ '[[:cntrl:]]'::text)))
);

-- Name: designs_id_seq; Type: SEQUENCE; Schema: public
CREATE SEQUENCE public.designs_id_seq
    START WITH 5
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

-- Name: designs_id_seq; Type: SEQUENCE OWNED BY; Schema: public
ALTER SEQUENCE public.designs_id_seq OWNED BY public.designs.id;

-- Name: payment_events; Type: TABLE; Schema: public
CREATE TABLE public.payment_events (
    provider text NOT NULL,
    event_id text NOT NULL,
    kind text NOT NULL,
    code text,
    amount integer,
    currency text,
    reference text,
    order_id bigint,
    received_at timestamp with time zone DEFAULT now() NOT NULL,
    seq bigint NOT NULL,
    marked_by uuid,
    running_total boolean DEFAULT false NOT NULL,
    kept boolean DEFAULT false NOT NULL,
    dispute text,
    dispute_status text,
    dispute_reason text,
    refs text[] DEFAULT '{}'::text[] NOT NULL,
    test boolean DEFAULT false NOT NULL,
    order_was_paid boolean DEFAULT false NOT NULL,
    dispute_due_by timestamp with time zone,
    CONSTRAINT payment_events_dispute_lengths CHECK (((char_length(dispute) <= 200) AND (char_length(dispute_status) <= 40) AND (char_length(dispute_reason) <= 100))),
    CONSTRAINT payment_events_kind CHECK ((kind = ANY (ARRAY['payment'::text, 'refund'::text, 'dispute'::text]))),
    CONSTRAINT payment_events_lengths CHECK (((char_length(event_id) <= 200) AND (char_length(code) <= 100) AND (char_length(currency) <= 10) AND (char_length(reference) <= 200))),
    CONSTRAINT payment_events_provider CHECK ((provider = ANY (ARRAY['manual'::text, 'stripe'::text, 'lemonsqueezy'::text, 'checkout'::text]))),
    CONSTRAINT payment_events_refs CHECK (((cardinality(refs) <= 10) AND (char_length(array_to_string(refs, ''::text)) <= 2000)))
);

-- Name: ledger_movements; Type: VIEW; Schema: public
CREATE VIEW public.ledger_movements WITH (security_invoker='true') AS
 SELECT p.order_id,
    p.provider,
    p.event_id,
    p.kind,
    p.amount,
    p.currency,
    p.reference,
    p.received_at,
    p.kept,
    p.status,
    p.reason,
    p.test,
    p.seq,
    p.amount AS signed,
    false AS flagged,
    NULL::timestamp with time zone AS due_by
   FROM ( SELECT DISTINCT ON (e.order_id, e.provider, COALESCE(e.reference, e.event_id)) e.order_id,
            e.provider,
            e.event_id,
            e.kind,
            e.amount,
            e.currency,
            e.reference,
            e.received_at,
            e.kept,
            NULL::text AS status,
            NULL::text AS reason,
            e.test,
            e.seq
           FROM public.payment_events e
          WHERE (e.kind = 'payment'::text)
          ORDER BY e.order_id, e.provider, COALESCE(e.reference, e.event_id), e.received_at, e.event_id) p
UNION ALL
 SELECT r.order_id,
    r.provider,
    r.event_id,
    r.kind,
    r.amount,
    r.currency,
    r.reference,
    r.received_at,
    r.kept,
    r.status,
    r.reason,
    r.test,
    r.seq,
        CASE
            WHEN r.flagged THEN 0
            ELSE (- r.amount)
        END AS signed,
    r.flagged,
    NULL::timestamp with time zone AS due_by
   FROM ( SELECT r_1.order_id,
            r_1.provider,
            r_1.event_id,
            r_1.kind,
            r_1.amount,
            r_1.currency,
            r_1.reference,
            r_1.received_at,
            r_1.kept,
            r_1.status,
            r_1.reason,
            r_1.test,
            r_1.seq,
            COALESCE(((pay.amount IS NOT NULL) AND ((r_1.currency IS DISTINCT FROM pay.currency) OR (sum(r_1.amount) OVER (PARTITION BY r_1.order_id, r_1.provider, r_1.reference, r_1.currency ORDER BY r_1.received_at, r_1.event_id) > pay.amount))), false) AS flagged
           FROM (( SELECT DISTINCT ON (e.order_id, e.provider,
                        CASE
                            WHEN e.running_total THEN COALESCE(e.reference, e.event_id)
                            ELSE e.event_id
                        END) e.order_id,
                    e.provider,
                    e.event_id,
                    e.kind,
                    e.amount,
                    e.currency,
                    e.reference,
                    e.received_at,
                    e.kept,
                    NULL::text AS status,
                    NULL::text AS reason,
                    e.test,
                    e.seq
                   FROM public.payment_events e
                  WHERE (e.kind = 'refund'::text)
                  ORDER BY e.order_id, e.provider,
                        CASE
                            WHEN e.running_total THEN COALESCE(e.reference, e.event_id)
                            ELSE e.event_id
                        END, e.amount DESC, e.received_at DESC, e.event_id) r_1
             LEFT JOIN LATERAL ( SELECT x.amount,
                    x.currency
                   FROM public.payment_events x
                  WHERE ((x.kind = 'payment'::text) AND (x.provider = r_1.provider) AND (x.reference = r_1.reference) AND (x.order_id = r_1.order_id))
                  ORDER BY x.received_at, x.event_id
                 LIMIT 1) pay ON (true))) r
UNION ALL
 SELECT d.order_id,
    d.provider,
    d.event_id,
    d.kind,
    d.amount,
    d.currency,
    d.reference,
    d.received_at,
    d.kept,
    d.status,
    d.reason,
    d.test,
    d.seq,
        CASE
            WHEN ((d.status = 'won'::text) OR (d.status ~~ 'warning\_%'::text)) THEN 0
            ELSE (- d.amount)
        END AS signed,
    false AS flagged,
    d.due_by
   FROM ( SELECT DISTINCT ON (e.order_id, e.provider, COALESCE(e.dispute, e.event_id)) e.order_id,
            e.provider,
            e.event_id,
            e.kind,
            e.amount,
            e.currency,
            e.reference,
            e.received_at,
            e.kept,
            e.dispute_status AS status,
            e.dispute_reason AS reason,
            e.test,
            e.seq,
            ( SELECT x.dispute_due_by
                   FROM public.payment_events x
                  WHERE ((x.kind = 'dispute'::text) AND (x.provider = e.provider) AND (x.dispute_due_by IS NOT NULL) AND ((x.dispute = e.dispute) OR (x.event_id = e.event_id)))
                  ORDER BY x.received_at DESC, x.event_id DESC
                 LIMIT 1) AS due_by
           FROM public.payment_events e
          WHERE (e.kind = 'dispute'::text)
          ORDER BY e.order_id, e.provider, COALESCE(e.dispute, e.event_id), (e.dispute_status = ANY (ARRAY['won'::text, 'lost'::text, 'warning_closed'::text])) DESC, e.received_at DESC, e.event_id DESC) d;

-- Name: mixers; Type: TABLE; Schema: public
CREATE TABLE public.mixers (
    email text NOT NULL,
    CONSTRAINT mixers_email_lower CHECK ((email = lower(email)))
);

-- Name: mixtapes_id_seq; Type: SEQUENCE; Schema: public
ALTER TABLE public.mixtapes ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.mixtapes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- Name: order_emails; Type: TABLE; Schema: public
CREATE TABLE public.order_emails (
    id bigint NOT NULL,
    order_id bigint NOT NULL,
    kind text NOT NULL,
    recipient text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    locked_until timestamp with time zone,
    sent_at timestamp with time zone,
    last_error text,
    message_id bigint,
    entry_provider text,
    entry_event text,
    message_ids bigint[] DEFAULT '{}'::bigint[] NOT NULL,
    closes_budget boolean DEFAULT false NOT NULL,
    CONSTRAINT order_emails_kind CHECK ((kind = ANY (ARRAY['received'::text, 'new_order'::text, 'sent'::text, 'paid'::text, 'refunded'::text, 'cancelled'::text, 'message'::text])))
);

-- Name: order_emails_id_seq; Type: SEQUENCE; Schema: public
ALTER TABLE public.order_emails ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.order_emails_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- Name: order_messages; Type: TABLE; Schema: public
CREATE TABLE public.order_messages (
    id bigint NOT NULL,
    order_id bigint NOT NULL,
    author_id uuid DEFAULT auth.uid(),
    from_mixer boolean NOT NULL,
    body text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT order_messages_body CHECK ((((char_length(body) >= 1) AND (char_length(body) <= 1000)) AND (translate(body, '
'::text, ''::text) !~ '[[:cntrl:]]'::text)))
);

-- Name: order_messages_id_seq; Type: SEQUENCE; Schema: public
ALTER TABLE public.order_messages ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.order_messages_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- Name: order_reads; Type: TABLE; Schema: public
CREATE TABLE public.order_reads (
    order_id bigint NOT NULL,
    reader text NOT NULL,
    read_at timestamp with time zone,
    unread integer DEFAULT 0 NOT NULL,
    since timestamp with time zone,
    CONSTRAINT order_reads_reader CHECK ((reader = ANY (ARRAY['shopper'::text, 'mixer'::text])))
);

-- Name: paid_orders; Type: VIEW; Schema: public
CREATE VIEW public.paid_orders WITH (security_invoker='true') AS
 SELECT DISTINCT order_id
   FROM public.payment_events e
  WHERE public.counts_as_payment(kind, test, amount);

-- Name: payment_events_seq_seq; Type: SEQUENCE; Schema: public
ALTER TABLE public.payment_events ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.payment_events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- Name: profiles; Type: TABLE; Schema: public
CREATE TABLE public.profiles (
    id uuid NOT NULL,
    username text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    email text,
    username_clash boolean DEFAULT false NOT NULL,
    CONSTRAINT profiles_username_format CHECK ((username ~ '^[A-Za-z0-9_.-]{2,32}$'::text))
);

-- Name: queue_paid_marks; Type: TABLE; Schema: public
CREATE TABLE public.queue_paid_marks (
    order_id bigint NOT NULL
);

-- Name: queue_tallies; Type: TABLE; Schema: public
CREATE TABLE public.queue_tallies (
    status text NOT NULL,
    paid boolean NOT NULL,
    n bigint DEFAULT 0 NOT NULL,
    CONSTRAINT queue_tallies_n_check CHECK ((n >= 0))
);

-- Name: recovery_windows; Type: TABLE; Schema: public
CREATE TABLE public.recovery_windows (
    id text NOT NULL,
    user_id uuid DEFAULT auth.uid() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    CONSTRAINT recovery_windows_id_format CHECK ((id ~ '^[0-9a-f]{64}$'::text))
);

-- Name: shop_settings; Type: TABLE; Schema: public
CREATE TABLE public.shop_settings (
    id boolean DEFAULT true NOT NULL,
    open boolean DEFAULT true NOT NULL,
    closed_message text DEFAULT ''::text NOT NULL,
    max_open_orders integer,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by uuid,
    shop_title text,
    tagline text,
    mixer_name text,
    product_label text,
    price_note text,
    creator_url text,
    checkout_url text,
    CONSTRAINT shop_settings_closed_message_length CHECK ((char_length(closed_message) <= 200)),
    CONSTRAINT shop_settings_max_open_orders CHECK (((max_open_orders >= 0) AND (max_open_orders <= 100000))),
    CONSTRAINT shop_settings_one_row CHECK (id),
    CONSTRAINT shop_settings_urls CHECK (((creator_url ~ '^https://[^[:space:][:cntrl:]]+$'::text) AND (char_length(creator_url) <= 2000) AND (checkout_url ~ '^https://[^[:space:][:cntrl:]]+$'::text) AND (char_length(checkout_url) <= 2000))),
    CONSTRAINT shop_settings_words CHECK ((((char_length(btrim(shop_title)) >= 1) AND (char_length(btrim(shop_title)) <= 60)) AND (char_length(tagline) <= 200) AND ((char_length(btrim(mixer_name)) >= 1) AND (char_length(btrim(mixer_name)) <= 40)) AND ((char_length(btrim(product_label)) >= 1) AND (char_length(btrim(product_label)) <= 40)) AND (char_length(price_note) <= 120) AND (concat(shop_title, tagline, mixer_name, product_label, price_note) !~ '[[:cntrl:]]'::text)))
);

-- Name: songs; Type: TABLE; Schema: public
CREATE TABLE public.songs (
    id text NOT NULL,
    "position" integer NOT NULL,
    title text NOT NULL,
    thumbnail text NOT NULL,
    preview_url text NOT NULL,
    active boolean DEFAULT true NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by uuid,
    CONSTRAINT songs_id CHECK ((id ~ '^[1-9][0-9]{0,8}$'::text)),
    CONSTRAINT songs_preview_url CHECK (public.is_media_path(preview_url)),
    CONSTRAINT songs_thumbnail CHECK (public.is_media_path(thumbnail)),
    CONSTRAINT songs_title CHECK ((((char_length(btrim(title)) >= 1) AND (char_length(btrim(title)) <= 80)) AND (title !~ '[[:cntrl:]]'::text)))
);

-- Name: songs_id_seq; Type: SEQUENCE; Schema: public
CREATE SEQUENCE public.songs_id_seq
    START WITH 31
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

-- Name: songs_id_seq; Type: SEQUENCE OWNED BY; Schema: public
ALTER SEQUENCE public.songs_id_seq OWNED BY public.songs.id;

-- Name: storage_deletions; Type: TABLE; Schema: public
CREATE TABLE public.storage_deletions (
    storage_key text NOT NULL,
    queued_at timestamp with time zone DEFAULT now() NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    last_error text
);

-- Name: tapes; Type: TABLE; Schema: public
CREATE TABLE public.tapes (
    id bigint NOT NULL,
    order_id bigint NOT NULL,
    storage_key text NOT NULL,
    file_name text NOT NULL,
    content_type text NOT NULL,
    size bigint NOT NULL,
    duration_seconds numeric(10,3) NOT NULL,
    uploaded_at timestamp with time zone DEFAULT now() NOT NULL,
    uploaded_by uuid DEFAULT auth.uid(),
    downloads integer DEFAULT 0 NOT NULL,
    last_downloaded_at timestamp with time zone,
    deleted_at timestamp with time zone,
    version integer DEFAULT 1 NOT NULL,
    CONSTRAINT tapes_content_type CHECK ((content_type = ANY (ARRAY['audio/mpeg'::text, 'audio/mp4'::text, 'audio/ogg'::text, 'audio/flac'::text, 'audio/wav'::text]))),
    CONSTRAINT tapes_duration CHECK ((duration_seconds > (0)::numeric)),
    CONSTRAINT tapes_file_name CHECK (((char_length(file_name) >= 1) AND (char_length(file_name) <= 255))),
    CONSTRAINT tapes_key CHECK (((char_length(storage_key) <= 300) AND (storage_key ~ '^[A-Za-z0-9/_.-]+$'::text) AND (storage_key !~ '\.\.'::text))),
    CONSTRAINT tapes_size CHECK ((size > 0)),
    CONSTRAINT tapes_version CHECK ((version >= 1))
);

-- Name: tapes_id_seq; Type: SEQUENCE; Schema: public
ALTER TABLE public.tapes ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.tapes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- Name: designs id; Type: DEFAULT; Schema: public
ALTER TABLE ONLY public.designs ALTER COLUMN id SET DEFAULT ('design-'::text || nextval('public.designs_id_seq'::regclass));

-- Name: songs id; Type: DEFAULT; Schema: public
ALTER TABLE ONLY public.songs ALTER COLUMN id SET DEFAULT (nextval('public.songs_id_seq'::regclass))::text;

-- Name: email_requests email_requests_pkey; Type: CONSTRAINT; Schema: auth
ALTER TABLE ONLY auth.email_requests
    ADD CONSTRAINT email_requests_pkey PRIMARY KEY (id);

-- Name: one_time_tokens one_time_tokens_pkey; Type: CONSTRAINT; Schema: auth
ALTER TABLE ONLY auth.one_time_tokens
    ADD CONSTRAINT one_time_tokens_pkey PRIMARY KEY (token_hash);

-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: auth
ALTER TABLE ONLY auth.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);

-- Name: users users_pkey; Type: CONSTRAINT; Schema: auth
ALTER TABLE ONLY auth.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);

-- Name: migrations migrations_pkey; Type: CONSTRAINT; Schema: mixtape_meta
ALTER TABLE ONLY mixtape_meta.migrations
    ADD CONSTRAINT migrations_pkey PRIMARY KEY (name);

-- Name: rate_limits rate_limits_pkey; Type: CONSTRAINT; Schema: mixtape_meta
ALTER TABLE ONLY mixtape_meta.rate_limits
    ADD CONSTRAINT rate_limits_pkey PRIMARY KEY (key);

-- Name: cover_backgrounds cover_backgrounds_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.cover_backgrounds
    ADD CONSTRAINT cover_backgrounds_pkey PRIMARY KEY (slot);

-- Name: designs designs_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.designs
    ADD CONSTRAINT designs_pkey PRIMARY KEY (id);

-- Name: mixers mixers_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.mixers
    ADD CONSTRAINT mixers_pkey PRIMARY KEY (email);

-- Name: mixtapes mixtapes_code_key; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.mixtapes
    ADD CONSTRAINT mixtapes_code_key UNIQUE (code);

-- Name: mixtapes mixtapes_delivery_url; Type: CHECK CONSTRAINT; Schema: public
ALTER TABLE public.mixtapes
    ADD CONSTRAINT mixtapes_delivery_url CHECK (((delivery_url ~ '^https://[^/?#\s]+'::text) AND ("substring"(delivery_url, '^https://([^/?#]*)'::text) = lower("substring"(delivery_url, '^https://([^/?#]*)'::text))) AND (delivery_url !~ '[[:cntrl:][:space:]]'::text) AND (delivery_url !~* '%(0[0-9a-f]|1[0-9a-f]|7f)'::text) AND (char_length(delivery_url) <= 2000))) NOT VALID;

-- Name: mixtapes mixtapes_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.mixtapes
    ADD CONSTRAINT mixtapes_pkey PRIMARY KEY (id);

-- Name: order_emails order_emails_once; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.order_emails
    ADD CONSTRAINT order_emails_once UNIQUE NULLS NOT DISTINCT (order_id, kind, recipient, message_id, entry_provider, entry_event);

-- Name: order_emails order_emails_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.order_emails
    ADD CONSTRAINT order_emails_pkey PRIMARY KEY (id);

-- Name: order_messages order_messages_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.order_messages
    ADD CONSTRAINT order_messages_pkey PRIMARY KEY (id);

-- Name: order_reads order_reads_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.order_reads
    ADD CONSTRAINT order_reads_pkey PRIMARY KEY (order_id, reader);

-- Name: payment_events payment_events_amount; Type: CHECK CONSTRAINT; Schema: public
ALTER TABLE public.payment_events
    ADD CONSTRAINT payment_events_amount CHECK ((amount >= 0)) NOT VALID;

-- Name: payment_events payment_events_currency; Type: CHECK CONSTRAINT; Schema: public
ALTER TABLE public.payment_events
    ADD CONSTRAINT payment_events_currency CHECK ((currency ~ '^[A-Z]{3}$'::text)) NOT VALID;

-- Name: payment_events payment_events_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.payment_events
    ADD CONSTRAINT payment_events_pkey PRIMARY KEY (provider, event_id);

-- Name: profiles profiles_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.profiles
    ADD CONSTRAINT profiles_pkey PRIMARY KEY (id);

-- Name: profiles profiles_username_key; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.profiles
    ADD CONSTRAINT profiles_username_key UNIQUE (username);

-- Name: queue_paid_marks queue_paid_marks_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.queue_paid_marks
    ADD CONSTRAINT queue_paid_marks_pkey PRIMARY KEY (order_id);

-- Name: queue_tallies queue_tallies_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.queue_tallies
    ADD CONSTRAINT queue_tallies_pkey PRIMARY KEY (status, paid);

-- Name: recovery_windows recovery_windows_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.recovery_windows
    ADD CONSTRAINT recovery_windows_pkey PRIMARY KEY (id);

-- Name: shop_settings shop_settings_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.shop_settings
    ADD CONSTRAINT shop_settings_pkey PRIMARY KEY (id);

-- Name: songs songs_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.songs
    ADD CONSTRAINT songs_pkey PRIMARY KEY (id);

-- Name: storage_deletions storage_deletions_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.storage_deletions
    ADD CONSTRAINT storage_deletions_pkey PRIMARY KEY (storage_key);

-- Name: tapes tapes_one_per_order; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.tapes
    ADD CONSTRAINT tapes_one_per_order UNIQUE (order_id);

-- Name: tapes tapes_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.tapes
    ADD CONSTRAINT tapes_pkey PRIMARY KEY (id);

-- Name: email_requests_due_idx; Type: INDEX; Schema: auth
CREATE INDEX email_requests_due_idx ON auth.email_requests USING btree (next_attempt_at) WHERE (done_at IS NULL);

-- Name: one_time_tokens_user_type_idx; Type: INDEX; Schema: auth
CREATE INDEX one_time_tokens_user_type_idx ON auth.one_time_tokens USING btree (user_id, token_type);

-- Name: sessions_user_id_idx; Type: INDEX; Schema: auth
CREATE INDEX sessions_user_id_idx ON auth.sessions USING btree (user_id);

-- Name: users_email_key; Type: INDEX; Schema: auth
CREATE UNIQUE INDEX users_email_key ON auth.users USING btree (lower(email));

-- Name: mixtapes_open_idx; Type: INDEX; Schema: public
CREATE INDEX mixtapes_open_idx ON public.mixtapes USING btree (created_at, id) WHERE (status = ANY (ARRAY['received'::text, 'mixing'::text]));

-- Name: mixtapes_queue_idx; Type: INDEX; Schema: public
CREATE INDEX mixtapes_queue_idx ON public.mixtapes USING btree (finished, created_at, id);

-- Name: mixtapes_status_queue_idx; Type: INDEX; Schema: public
CREATE INDEX mixtapes_status_queue_idx ON public.mixtapes USING btree (status, finished, created_at, id);

-- Name: mixtapes_user_created_idx; Type: INDEX; Schema: public
CREATE INDEX mixtapes_user_created_idx ON public.mixtapes USING btree (user_id, created_at DESC, id DESC);

-- Name: order_emails_budget_idx; Type: INDEX; Schema: public
CREATE INDEX order_emails_budget_idx ON public.order_emails USING btree (recipient, created_at);

-- Name: order_emails_due_idx; Type: INDEX; Schema: public
CREATE INDEX order_emails_due_idx ON public.order_emails USING btree (next_attempt_at) WHERE (sent_at IS NULL);

-- Name: order_emails_messages_idx; Type: INDEX; Schema: public
CREATE INDEX order_emails_messages_idx ON public.order_emails USING btree (order_id, recipient, id) WHERE (kind = 'message'::text);

-- Name: order_messages_order_idx; Type: INDEX; Schema: public
CREATE INDEX order_messages_order_idx ON public.order_messages USING btree (order_id, created_at, id);

-- Name: order_reads_unread_idx; Type: INDEX; Schema: public
CREATE INDEX order_reads_unread_idx ON public.order_reads USING btree (reader, since) WHERE (unread > 0);

-- Name: payment_events_order_idx; Type: INDEX; Schema: public
CREATE INDEX payment_events_order_idx ON public.payment_events USING btree (order_id, received_at) WHERE (order_id IS NOT NULL);

-- Name: payment_events_paid_idx; Type: INDEX; Schema: public
CREATE INDEX payment_events_paid_idx ON public.payment_events USING btree (order_id) WHERE public.counts_as_payment(kind, test, amount);

-- Name: payment_events_received_idx; Type: INDEX; Schema: public
CREATE INDEX payment_events_received_idx ON public.payment_events USING btree (received_at DESC, seq DESC);

-- Name: payment_events_reference_idx; Type: INDEX; Schema: public
CREATE INDEX payment_events_reference_idx ON public.payment_events USING btree (provider, reference) WHERE (reference IS NOT NULL);

-- Name: payment_events_refs_idx; Type: INDEX; Schema: public
CREATE INDEX payment_events_refs_idx ON public.payment_events USING gin (refs);

-- Name: profiles_username_lower_key; Type: INDEX; Schema: public
CREATE UNIQUE INDEX profiles_username_lower_key ON public.profiles USING btree (lower(username)) WHERE (NOT username_clash);

-- Name: recovery_windows_user_idx; Type: INDEX; Schema: public
CREATE INDEX recovery_windows_user_idx ON public.recovery_windows USING btree (user_id);

-- Name: users erase_account_tapes; Type: TRIGGER; Schema: auth
CREATE TRIGGER erase_account_tapes BEFORE DELETE ON auth.users FOR EACH ROW EXECUTE FUNCTION public.erase_account_tapes();

-- Name: users on_auth_user_created; Type: TRIGGER; Schema: auth
CREATE TRIGGER on_auth_user_created AFTER INSERT ON auth.users FOR EACH ROW EXECUTE FUNCTION public.handle_new_user();

-- Name: users on_auth_user_deleted; Type: TRIGGER; Schema: auth
CREATE TRIGGER on_auth_user_deleted BEFORE DELETE ON auth.users FOR EACH ROW EXECUTE FUNCTION public.erase_account();

-- Name: users on_auth_user_email_changed; Type: TRIGGER; Schema: auth
CREATE TRIGGER on_auth_user_email_changed AFTER UPDATE OF email ON auth.users FOR EACH ROW WHEN ((old.email IS DISTINCT FROM new.email)) EXECUTE FUNCTION public.handle_user_email_change();

-- Name: cover_backgrounds cover_backgrounds_stamp; Type: TRIGGER; Schema: public
CREATE TRIGGER cover_backgrounds_stamp BEFORE INSERT OR UPDATE ON public.cover_backgrounds FOR EACH ROW EXECUTE FUNCTION public.catalogue_stamp();

-- Name: designs designs_stamp; Type: TRIGGER; Schema: public
CREATE TRIGGER designs_stamp BEFORE INSERT OR UPDATE ON public.designs FOR EACH ROW EXECUTE FUNCTION public.catalogue_stamp();

-- Name: mixtapes mixtapes_admit; Type: TRIGGER; Schema: public
CREATE TRIGGER mixtapes_admit BEFORE INSERT ON public.mixtapes FOR EACH ROW EXECUTE FUNCTION public.mixtapes_admit();

-- Name: mixtapes mixtapes_design_snapshot; Type: TRIGGER; Schema: public
CREATE TRIGGER mixtapes_design_snapshot BEFORE INSERT OR UPDATE ON public.mixtapes FOR EACH ROW EXECUTE FUNCTION public.mixtapes_design_snapshot();

-- Name: mixtapes mixtapes_queue_emails; Type: TRIGGER; Schema: public
CREATE TRIGGER mixtapes_queue_emails AFTER INSERT OR UPDATE OF status ON public.mixtapes FOR EACH ROW EXECUTE FUNCTION public.queue_order_emails();

-- Name: mixtapes mixtapes_tally; Type: TRIGGER; Schema: public
CREATE TRIGGER mixtapes_tally AFTER INSERT OR DELETE OR UPDATE OF status ON public.mixtapes FOR EACH ROW EXECUTE FUNCTION public.mixtapes_tally();

-- Name: mixtapes mixtapes_transition; Type: TRIGGER; Schema: public
CREATE TRIGGER mixtapes_transition BEFORE UPDATE ON public.mixtapes FOR EACH ROW EXECUTE FUNCTION public.mixtapes_transition();

-- Name: order_messages order_messages_count_unread; Type: TRIGGER; Schema: public
CREATE TRIGGER order_messages_count_unread AFTER INSERT ON public.order_messages FOR EACH ROW EXECUTE FUNCTION public.count_unread_message();

-- Name: order_messages order_messages_limit; Type: TRIGGER; Schema: public
CREATE TRIGGER order_messages_limit BEFORE INSERT ON public.order_messages FOR EACH ROW EXECUTE FUNCTION public.limit_order_messages();

-- Name: order_messages order_messages_queue_emails; Type: TRIGGER; Schema: public
CREATE TRIGGER order_messages_queue_emails AFTER INSERT ON public.order_messages FOR EACH ROW EXECUTE FUNCTION public.queue_message_emails();

-- Name: payment_events payment_events_join_order; Type: TRIGGER; Schema: public
CREATE TRIGGER payment_events_join_order BEFORE INSERT OR UPDATE OF order_id ON public.payment_events FOR EACH ROW EXECUTE FUNCTION public.payment_joins_order();

-- Name: payment_events payment_events_queue_emails; Type: TRIGGER; Schema: public
CREATE TRIGGER payment_events_queue_emails AFTER INSERT OR UPDATE OF order_id ON public.payment_events FOR EACH ROW EXECUTE FUNCTION public.queue_money_emails();

-- Name: payment_events payment_events_tally; Type: TRIGGER; Schema: public
CREATE TRIGGER payment_events_tally AFTER INSERT OR DELETE OR UPDATE OF order_id, kind, test, amount ON public.payment_events FOR EACH ROW EXECUTE FUNCTION public.payment_events_tally();

-- Name: shop_settings shop_settings_stamp; Type: TRIGGER; Schema: public
CREATE TRIGGER shop_settings_stamp BEFORE UPDATE ON public.shop_settings FOR EACH ROW EXECUTE FUNCTION public.shop_settings_stamp();

-- Name: songs songs_keep_one; Type: TRIGGER; Schema: public
CREATE TRIGGER songs_keep_one AFTER DELETE OR UPDATE OF active ON public.songs FOR EACH ROW EXECUTE FUNCTION public.songs_keep_one();

-- Name: songs songs_stamp; Type: TRIGGER; Schema: public
CREATE TRIGGER songs_stamp BEFORE INSERT OR UPDATE ON public.songs FOR EACH ROW EXECUTE FUNCTION public.catalogue_stamp();

-- Name: email_requests email_requests_user_id_fkey; Type: FK CONSTRAINT; Schema: auth
ALTER TABLE ONLY auth.email_requests
    ADD CONSTRAINT email_requests_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

-- Name: one_time_tokens one_time_tokens_user_id_fkey; Type: FK CONSTRAINT; Schema: auth
ALTER TABLE ONLY auth.one_time_tokens
    ADD CONSTRAINT one_time_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

-- Name: sessions sessions_user_id_fkey; Type: FK CONSTRAINT; Schema: auth
ALTER TABLE ONLY auth.sessions
    ADD CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

-- Name: cover_backgrounds cover_backgrounds_updated_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.cover_backgrounds
    ADD CONSTRAINT cover_backgrounds_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: designs designs_updated_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.designs
    ADD CONSTRAINT designs_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: mixtapes mixtapes_cancelled_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.mixtapes
    ADD CONSTRAINT mixtapes_cancelled_by_fkey FOREIGN KEY (cancelled_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: mixtapes mixtapes_mixing_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.mixtapes
    ADD CONSTRAINT mixtapes_mixing_by_fkey FOREIGN KEY (mixing_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: mixtapes mixtapes_sent_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.mixtapes
    ADD CONSTRAINT mixtapes_sent_by_fkey FOREIGN KEY (sent_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: mixtapes mixtapes_user_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.mixtapes
    ADD CONSTRAINT mixtapes_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: mixtapes mixtapes_user_profile_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.mixtapes
    ADD CONSTRAINT mixtapes_user_profile_fkey FOREIGN KEY (user_id) REFERENCES public.profiles(id) ON DELETE SET NULL;

-- Name: order_emails order_emails_entry_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.order_emails
    ADD CONSTRAINT order_emails_entry_fkey FOREIGN KEY (entry_provider, entry_event) REFERENCES public.payment_events(provider, event_id) ON DELETE CASCADE;

-- Name: order_emails order_emails_message_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.order_emails
    ADD CONSTRAINT order_emails_message_id_fkey FOREIGN KEY (message_id) REFERENCES public.order_messages(id) ON DELETE CASCADE;

-- Name: order_emails order_emails_order_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.order_emails
    ADD CONSTRAINT order_emails_order_id_fkey FOREIGN KEY (order_id) REFERENCES public.mixtapes(id) ON DELETE CASCADE;

-- Name: order_messages order_messages_author_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.order_messages
    ADD CONSTRAINT order_messages_author_id_fkey FOREIGN KEY (author_id) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: order_messages order_messages_order_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.order_messages
    ADD CONSTRAINT order_messages_order_id_fkey FOREIGN KEY (order_id) REFERENCES public.mixtapes(id) ON DELETE CASCADE;

-- Name: order_reads order_reads_order_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.order_reads
    ADD CONSTRAINT order_reads_order_id_fkey FOREIGN KEY (order_id) REFERENCES public.mixtapes(id) ON DELETE CASCADE;

-- Name: payment_events payment_events_marked_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.payment_events
    ADD CONSTRAINT payment_events_marked_by_fkey FOREIGN KEY (marked_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: payment_events payment_events_order_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.payment_events
    ADD CONSTRAINT payment_events_order_id_fkey FOREIGN KEY (order_id) REFERENCES public.mixtapes(id) ON DELETE SET NULL;

-- Name: profiles profiles_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.profiles
    ADD CONSTRAINT profiles_id_fkey FOREIGN KEY (id) REFERENCES auth.users(id) ON DELETE CASCADE;

-- Name: recovery_windows recovery_windows_user_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.recovery_windows
    ADD CONSTRAINT recovery_windows_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

-- Name: shop_settings shop_settings_updated_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.shop_settings
    ADD CONSTRAINT shop_settings_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: songs songs_updated_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.songs
    ADD CONSTRAINT songs_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: tapes tapes_order_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.tapes
    ADD CONSTRAINT tapes_order_id_fkey FOREIGN KEY (order_id) REFERENCES public.mixtapes(id) ON DELETE CASCADE;

-- Name: tapes tapes_uploaded_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.tapes
    ADD CONSTRAINT tapes_uploaded_by_fkey FOREIGN KEY (uploaded_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: cover_backgrounds; Type: ROW SECURITY; Schema: public
ALTER TABLE public.cover_backgrounds ENABLE ROW LEVEL SECURITY;

-- Name: cover_backgrounds cover_backgrounds: everyone reads; Type: POLICY; Schema: public
CREATE POLICY "cover_backgrounds: everyone reads" ON public.cover_backgrounds FOR SELECT TO anon, authenticated USING (true);

-- Name: cover_backgrounds cover_backgrounds: mixers change; Type: POLICY; Schema: public
CREATE POLICY "cover_backgrounds: mixers change" ON public.cover_backgrounds FOR UPDATE TO authenticated USING (( SELECT public.is_mixer() AS is_mixer)) WITH CHECK (( SELECT public.is_mixer() AS is_mixer));

-- Name: designs; Type: ROW SECURITY; Schema: public
ALTER TABLE public.designs ENABLE ROW LEVEL SECURITY;

-- Name: designs designs: everyone reads; Type: POLICY; Schema: public
CREATE POLICY "designs: everyone reads" ON public.designs FOR SELECT TO anon, authenticated USING (true);

-- Name: designs designs: mixers add; Type: POLICY; Schema: public
CREATE POLICY "designs: mixers add" ON public.designs FOR INSERT TO authenticated WITH CHECK (( SELECT public.is_mixer() AS is_mixer));

-- Name: designs designs: mixers change; Type: POLICY; Schema: public
CREATE POLICY "designs: mixers change" ON public.designs FOR UPDATE TO authenticated USING (( SELECT public.is_mixer() AS is_mixer)) WITH CHECK (( SELECT public.is_mixer() AS is_mixer));

-- Name: mixers; Type: ROW SECURITY; Schema: public
ALTER TABLE public.mixers ENABLE ROW LEVEL SECURITY;

-- Name: mixtapes; Type: ROW SECURITY; Schema: public
ALTER TABLE public.mixtapes ENABLE ROW LEVEL SECURITY;

-- Name: mixtapes mixtapes: insert own; Type: POLICY; Schema: public
CREATE POLICY "mixtapes: insert own" ON public.mixtapes FOR INSERT TO authenticated WITH CHECK ((( SELECT auth.uid() AS uid) = user_id));

-- Name: mixtapes mixtapes: mixers read all; Type: POLICY; Schema: public
CREATE POLICY "mixtapes: mixers read all" ON public.mixtapes FOR SELECT TO authenticated USING (( SELECT public.is_mixer() AS is_mixer));

-- Name: mixtapes mixtapes: mixers update; Type: POLICY; Schema: public
CREATE POLICY "mixtapes: mixers update" ON public.mixtapes FOR UPDATE TO authenticated USING (( SELECT public.is_mixer() AS is_mixer)) WITH CHECK (( SELECT public.is_mixer() AS is_mixer));

-- Name: mixtapes mixtapes: read own; Type: POLICY; Schema: public
CREATE POLICY "mixtapes: read own" ON public.mixtapes FOR SELECT TO authenticated USING ((( SELECT auth.uid() AS uid) = user_id));

-- Name: mixtapes mixtapes: shoppers cancel their own; Type: POLICY; Schema: public
CREATE POLICY "mixtapes: shoppers cancel their own" ON public.mixtapes FOR UPDATE TO authenticated USING ((( SELECT auth.uid() AS uid) = user_id)) WITH CHECK ((( SELECT auth.uid() AS uid) = user_id));

-- Name: order_emails; Type: ROW SECURITY; Schema: public
ALTER TABLE public.order_emails ENABLE ROW LEVEL SECURITY;

-- Name: order_messages; Type: ROW SECURITY; Schema: public
ALTER TABLE public.order_messages ENABLE ROW LEVEL SECURITY;

-- Name: order_messages order_messages: the order's shopper and the mixers read; Type: POLICY; Schema: public
CREATE POLICY "order_messages: the order's shopper and the mixers read" ON public.order_messages FOR SELECT TO authenticated USING ((( SELECT public.is_mixer() AS is_mixer) OR (EXISTS ( SELECT 1
   FROM public.mixtapes m
  WHERE ((m.id = order_messages.order_id) AND (m.user_id = ( SELECT auth.uid() AS uid)))))));

-- Name: order_messages order_messages: the order's shopper and the mixers write, while; Type: POLICY; Schema: public
CREATE POLICY "order_messages: the order's shopper and the mixers write, while" ON public.order_messages FOR INSERT TO authenticated WITH CHECK (((author_id = ( SELECT auth.uid() AS uid)) AND public.order_conversation_open(order_id) AND ((from_mixer AND ( SELECT public.is_mixer() AS is_mixer)) OR ((NOT from_mixer) AND (EXISTS ( SELECT 1
   FROM public.mixtapes m
  WHERE ((m.id = order_messages.order_id) AND (m.user_id = ( SELECT auth.uid() AS uid)))))))));

-- Name: order_reads; Type: ROW SECURITY; Schema: public
ALTER TABLE public.order_reads ENABLE ROW LEVEL SECURITY;

-- Name: order_reads order_reads: the order's shopper and the mixers read; Type: POLICY; Schema: public
CREATE POLICY "order_reads: the order's shopper and the mixers read" ON public.order_reads FOR SELECT TO authenticated USING ((( SELECT public.is_mixer() AS is_mixer) OR (EXISTS ( SELECT 1
   FROM public.mixtapes m
  WHERE ((m.id = order_reads.order_id) AND (m.user_id = ( SELECT auth.uid() AS uid)))))));

-- Name: payment_events; Type: ROW SECURITY; Schema: public
ALTER TABLE public.payment_events ENABLE ROW LEVEL SECURITY;

-- Name: payment_events payment_events: mixers read; Type: POLICY; Schema: public
CREATE POLICY "payment_events: mixers read" ON public.payment_events FOR SELECT TO authenticated USING (( SELECT public.is_mixer() AS is_mixer));

-- Name: payment_events payment_events: mixers undo their hand marks; Type: POLICY; Schema: public
CREATE POLICY "payment_events: mixers undo their hand marks" ON public.payment_events FOR DELETE TO authenticated USING ((( SELECT public.is_mixer() AS is_mixer) AND public.hand_mark_undoable(provider, received_at, order_id, seq)));

-- Name: payment_events payment_events: shoppers read their orders'; Type: POLICY; Schema: public
CREATE POLICY "payment_events: shoppers read their orders'" ON public.payment_events FOR SELECT TO authenticated USING ((EXISTS ( SELECT 1
   FROM public.mixtapes m
  WHERE ((m.id = payment_events.order_id) AND (m.user_id = ( SELECT auth.uid() AS uid))))));

-- Name: profiles; Type: ROW SECURITY; Schema: public
ALTER TABLE public.profiles ENABLE ROW LEVEL SECURITY;

-- Name: profiles profiles: mixers read all; Type: POLICY; Schema: public
CREATE POLICY "profiles: mixers read all" ON public.profiles FOR SELECT TO authenticated USING (( SELECT public.is_mixer() AS is_mixer));

-- Name: profiles profiles: read own; Type: POLICY; Schema: public
CREATE POLICY "profiles: read own" ON public.profiles FOR SELECT TO authenticated USING ((( SELECT auth.uid() AS uid) = id));

-- Name: profiles profiles: update own; Type: POLICY; Schema: public
CREATE POLICY "profiles: update own" ON public.profiles FOR UPDATE TO authenticated USING ((( SELECT auth.uid() AS uid) = id)) WITH CHECK ((( SELECT auth.uid() AS uid) = id));

-- Name: queue_paid_marks; Type: ROW SECURITY; Schema: public
ALTER TABLE public.queue_paid_marks ENABLE ROW LEVEL SECURITY;

-- Name: queue_tallies; Type: ROW SECURITY; Schema: public
ALTER TABLE public.queue_tallies ENABLE ROW LEVEL SECURITY;

-- Name: queue_tallies queue_tallies: mixers read; Type: POLICY; Schema: public
CREATE POLICY "queue_tallies: mixers read" ON public.queue_tallies FOR SELECT TO authenticated USING (( SELECT public.is_mixer() AS is_mixer));

-- Name: recovery_windows; Type: ROW SECURITY; Schema: public
ALTER TABLE public.recovery_windows ENABLE ROW LEVEL SECURITY;

-- Name: recovery_windows recovery_windows: own; Type: POLICY; Schema: public
CREATE POLICY "recovery_windows: own" ON public.recovery_windows TO authenticated USING ((( SELECT auth.uid() AS uid) = user_id)) WITH CHECK ((( SELECT auth.uid() AS uid) = user_id));

-- Name: shop_settings; Type: ROW SECURITY; Schema: public
ALTER TABLE public.shop_settings ENABLE ROW LEVEL SECURITY;

-- Name: shop_settings shop_settings: everyone reads; Type: POLICY; Schema: public
CREATE POLICY "shop_settings: everyone reads" ON public.shop_settings FOR SELECT TO anon, authenticated USING (true);

-- Name: shop_settings shop_settings: mixers change; Type: POLICY; Schema: public
CREATE POLICY "shop_settings: mixers change" ON public.shop_settings FOR UPDATE TO authenticated USING (( SELECT public.is_mixer() AS is_mixer)) WITH CHECK (( SELECT public.is_mixer() AS is_mixer));

-- Name: songs; Type: ROW SECURITY; Schema: public
ALTER TABLE public.songs ENABLE ROW LEVEL SECURITY;

-- Name: songs songs: everyone reads; Type: POLICY; Schema: public
CREATE POLICY "songs: everyone reads" ON public.songs FOR SELECT TO anon, authenticated USING (true);

-- Name: songs songs: mixers add; Type: POLICY; Schema: public
CREATE POLICY "songs: mixers add" ON public.songs FOR INSERT TO authenticated WITH CHECK (( SELECT public.is_mixer() AS is_mixer));

-- Name: songs songs: mixers change; Type: POLICY; Schema: public
CREATE POLICY "songs: mixers change" ON public.songs FOR UPDATE TO authenticated USING (( SELECT public.is_mixer() AS is_mixer)) WITH CHECK (( SELECT public.is_mixer() AS is_mixer));

-- Name: storage_deletions; Type: ROW SECURITY; Schema: public
ALTER TABLE public.storage_deletions ENABLE ROW LEVEL SECURITY;

-- Name: tapes; Type: ROW SECURITY; Schema: public
ALTER TABLE public.tapes ENABLE ROW LEVEL SECURITY;

-- Name: tapes tapes: the mixers, and the order's shopper once it is sent; Type: POLICY; Schema: public
CREATE POLICY "tapes: the mixers, and the order's shopper once it is sent" ON public.tapes FOR SELECT TO authenticated USING (public.may_hear_tape(order_id));

-- Name: SCHEMA auth; Type: ACL; Schema: -
GRANT USAGE ON SCHEMA auth TO anon;
GRANT USAGE ON SCHEMA auth TO authenticated;

-- Name: SCHEMA public; Type: ACL; Schema: -
GRANT USAGE ON SCHEMA public TO anon;
GRANT USAGE ON SCHEMA public TO authenticated;

-- Name: FUNCTION uid(); Type: ACL; Schema: auth
GRANT ALL ON FUNCTION auth.uid() TO anon;
GRANT ALL ON FUNCTION auth.uid() TO authenticated;

-- Name: FUNCTION add_design(p_name text, p_image text, p_colour text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.add_design(p_name text, p_image text, p_colour text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.add_design(p_name text, p_image text, p_colour text) TO authenticated;

-- Name: FUNCTION add_song(p_title text, p_thumbnail text, p_preview_url text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.add_song(p_title text, p_thumbnail text, p_preview_url text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.add_song(p_title text, p_thumbnail text, p_preview_url text) TO authenticated;

-- Name: FUNCTION adopt_payment_events(p_provider text, p_event_id text, p_order bigint); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.adopt_payment_events(p_provider text, p_event_id text, p_order bigint) FROM PUBLIC;

-- Name: FUNCTION attach_payment(p_provider text, p_event_id text, p_code text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.attach_payment(p_provider text, p_event_id text, p_code text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.attach_payment(p_provider text, p_event_id text, p_code text) TO authenticated;

-- Name: FUNCTION claim_order_emails(batch integer); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.claim_order_emails(batch integer) FROM PUBLIC;

-- Name: FUNCTION claim_storage_deletions(batch integer); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.claim_storage_deletions(batch integer) FROM PUBLIC;

-- Name: FUNCTION count_tape_download(p_code text, p_from bigint); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.count_tape_download(p_code text, p_from bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.count_tape_download(p_code text, p_from bigint) TO authenticated;

-- Name: FUNCTION expire_tapes(p_keep_days integer); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.expire_tapes(p_keep_days integer) FROM PUBLIC;

-- Name: FUNCTION finish_order_email(email_id bigint, error text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.finish_order_email(email_id bigint, error text) FROM PUBLIC;

-- Name: FUNCTION finish_storage_deletion(p_key text, p_error text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.finish_storage_deletion(p_key text, p_error text) FROM PUBLIC;

-- Name: FUNCTION hand_mark_undoable(p_provider text, p_received_at timestamp with time zone, p_order bigint, p_seq bigint); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.hand_mark_undoable(p_provider text, p_received_at timestamp with time zone, p_order bigint, p_seq bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.hand_mark_undoable(p_provider text, p_received_at timestamp with time zone, p_order bigint, p_seq bigint) TO authenticated;

-- Name: FUNCTION is_mixer(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.is_mixer() FROM PUBLIC;
GRANT ALL ON FUNCTION public.is_mixer() TO authenticated;

-- Name: FUNCTION keep_payment(p_provider text, p_event_id text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.keep_payment(p_provider text, p_event_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.keep_payment(p_provider text, p_event_id text) TO authenticated;

-- Name: FUNCTION ledger_rows(p_provider text, p_filter text, p_limit integer, p_offset integer); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.ledger_rows(p_provider text, p_filter text, p_limit integer, p_offset integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.ledger_rows(p_provider text, p_filter text, p_limit integer, p_offset integer) TO authenticated;

-- Name: FUNCTION mark_money(p_code text, p_kind text, p_amount integer, p_currency text, p_token text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.mark_money(p_code text, p_kind text, p_amount integer, p_currency text, p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.mark_money(p_code text, p_kind text, p_amount integer, p_currency text, p_token text) TO authenticated;

-- Name: FUNCTION mark_order_read(p_code text, p_side text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.mark_order_read(p_code text, p_side text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.mark_order_read(p_code text, p_side text) TO authenticated;

-- Name: FUNCTION may_hear_tape(p_order_id bigint); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.may_hear_tape(p_order_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.may_hear_tape(p_order_id bigint) TO authenticated;

-- Name: FUNCTION mixer_email_budget(p_shopper uuid, p_recipient text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.mixer_email_budget(p_shopper uuid, p_recipient text) FROM PUBLIC;

-- Name: FUNCTION move_in_catalogue(p_kind text, p_id text, p_by integer); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.move_in_catalogue(p_kind text, p_id text, p_by integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.move_in_catalogue(p_kind text, p_id text, p_by integer) TO authenticated;

-- Name: FUNCTION my_order_emails(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.my_order_emails() FROM PUBLIC;
GRANT ALL ON FUNCTION public.my_order_emails() TO authenticated;

-- Name: FUNCTION my_orders(p_user_id uuid, p_code text, p_after_at timestamp with time zone, p_after_id bigint, p_backward boolean, p_limit integer); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.my_orders(p_user_id uuid, p_code text, p_after_at timestamp with time zone, p_after_id bigint, p_backward boolean, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.my_orders(p_user_id uuid, p_code text, p_after_at timestamp with time zone, p_after_id bigint, p_backward boolean, p_limit integer) TO authenticated;

-- Name: FUNCTION open_orders(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.open_orders() FROM PUBLIC;

-- Name: FUNCTION order_conversation_open(p_order_id bigint); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.order_conversation_open(p_order_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.order_conversation_open(p_order_id bigint) TO authenticated;

-- Name: FUNCTION order_messages_of(p_code text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.order_messages_of(p_code text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.order_messages_of(p_code text) TO authenticated;

-- Name: TABLE mixtapes; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.user_id; Type: ACL; Schema: public
GRANT INSERT(user_id) ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.code; Type: ACL; Schema: public
GRANT INSERT(code) ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.tracks; Type: ACL; Schema: public
GRANT INSERT(tracks) ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.toggles; Type: ACL; Schema: public
GRANT INSERT(toggles) ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.note; Type: ACL; Schema: public
GRANT INSERT(note) ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.design_id; Type: ACL; Schema: public
GRANT INSERT(design_id) ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.status; Type: ACL; Schema: public
GRANT UPDATE(status) ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.delivery_url; Type: ACL; Schema: public
GRANT UPDATE(delivery_url) ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.mixer_message; Type: ACL; Schema: public
GRANT UPDATE(mixer_message) ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.codename; Type: ACL; Schema: public
GRANT INSERT(codename) ON TABLE public.mixtapes TO authenticated;

-- Name: COLUMN mixtapes.cancel_reason; Type: ACL; Schema: public
GRANT UPDATE(cancel_reason) ON TABLE public.mixtapes TO authenticated;

-- Name: FUNCTION order_money(m public.mixtapes); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.order_money(m public.mixtapes) FROM PUBLIC;
GRANT ALL ON FUNCTION public.order_money(m public.mixtapes) TO authenticated;

-- Name: FUNCTION order_paid(m public.mixtapes); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.order_paid(m public.mixtapes) FROM PUBLIC;
GRANT ALL ON FUNCTION public.order_paid(m public.mixtapes) TO authenticated;

-- Name: FUNCTION order_refund_due(m public.mixtapes); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.order_refund_due(m public.mixtapes) FROM PUBLIC;
GRANT ALL ON FUNCTION public.order_refund_due(m public.mixtapes) TO authenticated;

-- Name: FUNCTION order_tape(m public.mixtapes); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.order_tape(m public.mixtapes) FROM PUBLIC;
GRANT ALL ON FUNCTION public.order_tape(m public.mixtapes) TO authenticated;

-- Name: FUNCTION orders_money(p_ids bigint[]); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.orders_money(p_ids bigint[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.orders_money(p_ids bigint[]) TO authenticated;

-- Name: FUNCTION orders_read(p_ids bigint[]); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.orders_read(p_ids bigint[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.orders_read(p_ids bigint[]) TO authenticated;

-- Name: FUNCTION orders_tape(p_ids bigint[]); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.orders_tape(p_ids bigint[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.orders_tape(p_ids bigint[]) TO authenticated;

-- Name: FUNCTION post_order_message(p_code text, p_from_mixer boolean, p_body text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.post_order_message(p_code text, p_from_mixer boolean, p_body text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.post_order_message(p_code text, p_from_mixer boolean, p_body text) TO authenticated;

-- Name: FUNCTION queue_counts(p_code text, p_due_days integer); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.queue_counts(p_code text, p_due_days integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_counts(p_code text, p_due_days integer) TO authenticated;

-- Name: FUNCTION queue_page(p_status text, p_unpaid boolean, p_late boolean, p_code text, p_due_days integer, p_newest_first boolean, p_after_finished boolean, p_after_at timestamp with time zone, p_after_id bigint, p_backward boolean, p_limit integer); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.queue_page(p_status text, p_unpaid boolean, p_late boolean, p_code text, p_due_days integer, p_newest_first boolean, p_after_finished boolean, p_after_at timestamp with time zone, p_after_id bigint, p_backward boolean, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.queue_page(p_status text, p_unpaid boolean, p_late boolean, p_code text, p_due_days integer, p_newest_first boolean, p_after_finished boolean, p_after_at timestamp with time zone, p_after_id bigint, p_backward boolean, p_limit integer) TO authenticated;

-- Name: FUNCTION queue_recount(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.queue_recount() FROM PUBLIC;

-- Name: FUNCTION queue_storage_deletion(p_key text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.queue_storage_deletion(p_key text) FROM PUBLIC;

-- Name: FUNCTION queue_tally_move(p_from_status text, p_from_paid boolean, p_to_status text, p_to_paid boolean); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.queue_tally_move(p_from_status text, p_from_paid boolean, p_to_status text, p_to_paid boolean) FROM PUBLIC;

-- Name: FUNCTION record_payment_event(p_provider text, p_event_id text, p_kind text, p_code text, p_amount integer, p_currency text, p_reference text, p_aliases text[], p_running_total boolean, p_test boolean, p_dispute text, p_dispute_status text, p_dispute_reason text, p_dispute_due_by timestamp with time zone); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.record_payment_event(p_provider text, p_event_id text, p_kind text, p_code text, p_amount integer, p_currency text, p_reference text, p_aliases text[], p_running_total boolean, p_test boolean, p_dispute text, p_dispute_status text, p_dispute_reason text, p_dispute_due_by timestamp with time zone) FROM PUBLIC;

-- Name: FUNCTION save_cover_background(p_slot integer, p_version integer, p_image text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.save_cover_background(p_slot integer, p_version integer, p_image text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.save_cover_background(p_slot integer, p_version integer, p_image text) TO authenticated;

-- Name: FUNCTION save_design(p_id text, p_version integer, p_name text, p_image text, p_colour text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.save_design(p_id text, p_version integer, p_name text, p_image text, p_colour text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.save_design(p_id text, p_version integer, p_name text, p_image text, p_colour text) TO authenticated;

-- Name: FUNCTION save_shop_words(p_title text, p_tagline text, p_mixer_name text, p_product_label text, p_price_note text, p_creator_url text, p_checkout_url text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.save_shop_words(p_title text, p_tagline text, p_mixer_name text, p_product_label text, p_price_note text, p_creator_url text, p_checkout_url text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.save_shop_words(p_title text, p_tagline text, p_mixer_name text, p_product_label text, p_price_note text, p_creator_url text, p_checkout_url text) TO authenticated;

-- Name: FUNCTION save_song(p_id text, p_version integer, p_title text, p_thumbnail text, p_preview_url text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.save_song(p_id text, p_version integer, p_title text, p_thumbnail text, p_preview_url text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.save_song(p_id text, p_version integer, p_title text, p_thumbnail text, p_preview_url text) TO authenticated;

-- Name: FUNCTION save_tape(p_code text, p_key text, p_file_name text, p_content_type text, p_size bigint, p_duration numeric, p_notice text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.save_tape(p_code text, p_key text, p_file_name text, p_content_type text, p_size bigint, p_duration numeric, p_notice text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.save_tape(p_code text, p_key text, p_file_name text, p_content_type text, p_size bigint, p_duration numeric, p_notice text) TO authenticated;

-- Name: FUNCTION set_design_active(p_id text, p_version integer, p_active boolean); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.set_design_active(p_id text, p_version integer, p_active boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.set_design_active(p_id text, p_version integer, p_active boolean) TO authenticated;

-- Name: FUNCTION set_song_active(p_id text, p_version integer, p_active boolean); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.set_song_active(p_id text, p_version integer, p_active boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.set_song_active(p_id text, p_version integer, p_active boolean) TO authenticated;

-- Name: FUNCTION shop_catalogue(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.shop_catalogue() FROM PUBLIC;
GRANT ALL ON FUNCTION public.shop_catalogue() TO anon;
GRANT ALL ON FUNCTION public.shop_catalogue() TO authenticated;

-- Name: FUNCTION shop_insights(p_weeks integer, p_due_days integer, p_turnaround_days integer); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.shop_insights(p_weeks integer, p_due_days integer, p_turnaround_days integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.shop_insights(p_weeks integer, p_due_days integer, p_turnaround_days integer) TO authenticated;

-- Name: FUNCTION shop_status(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.shop_status() FROM PUBLIC;
GRANT ALL ON FUNCTION public.shop_status() TO anon;
GRANT ALL ON FUNCTION public.shop_status() TO authenticated;

-- Name: FUNCTION tape_facts(p_order_id bigint, p_file_name boolean); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.tape_facts(p_order_id bigint, p_file_name boolean) FROM PUBLIC;

-- Name: FUNCTION tape_file(p_code text, p_as text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.tape_file(p_code text, p_as text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.tape_file(p_code text, p_as text) TO authenticated;

-- Name: FUNCTION undo_money_mark(p_code text, p_event_id text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.undo_money_mark(p_code text, p_event_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.undo_money_mark(p_code text, p_event_id text) TO authenticated;

-- Name: FUNCTION unread_messages(p_side text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.unread_messages(p_side text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.unread_messages(p_side text) TO authenticated;

-- Name: FUNCTION username_exists(p_username text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.username_exists(p_username text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.username_exists(p_username text) TO anon;
GRANT ALL ON FUNCTION public.username_exists(p_username text) TO authenticated;

-- Name: TABLE cover_backgrounds; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.cover_backgrounds TO anon;
GRANT SELECT ON TABLE public.cover_backgrounds TO authenticated;

-- Name: COLUMN cover_backgrounds.image; Type: ACL; Schema: public
GRANT UPDATE(image) ON TABLE public.cover_backgrounds TO authenticated;

-- Name: TABLE designs; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.designs TO anon;
GRANT SELECT ON TABLE public.designs TO authenticated;

-- Name: COLUMN designs."position"; Type: ACL; Schema: public
GRANT INSERT("position"),UPDATE("position") ON TABLE public.designs TO authenticated;

-- Name: COLUMN designs.name; Type: ACL; Schema: public
GRANT INSERT(name),UPDATE(name) ON TABLE public.designs TO authenticated;

-- Name: COLUMN designs.image; Type: ACL; Schema: public
GRANT INSERT(image),UPDATE(image) ON TABLE public.designs TO authenticated;

-- Name: COLUMN designs.colour; Type: ACL; Schema: public
GRANT INSERT(colour),UPDATE(colour) ON TABLE public.designs TO authenticated;

-- Name: COLUMN designs.active; Type: ACL; Schema: public
GRANT UPDATE(active) ON TABLE public.designs TO authenticated;

-- Name: SEQUENCE designs_id_seq; Type: ACL; Schema: public
GRANT USAGE ON SEQUENCE public.designs_id_seq TO authenticated;

-- Name: TABLE payment_events; Type: ACL; Schema: public
GRANT SELECT,DELETE ON TABLE public.payment_events TO authenticated;

-- Name: TABLE ledger_movements; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.ledger_movements TO authenticated;

-- Name: TABLE order_messages; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.order_messages TO authenticated;

-- Name: COLUMN order_messages.order_id; Type: ACL; Schema: public
GRANT INSERT(order_id) ON TABLE public.order_messages TO authenticated;

-- Name: COLUMN order_messages.from_mixer; Type: ACL; Schema: public
GRANT INSERT(from_mixer) ON TABLE public.order_messages TO authenticated;

-- Name: COLUMN order_messages.body; Type: ACL; Schema: public
GRANT INSERT(body) ON TABLE public.order_messages TO authenticated;

-- Name: TABLE order_reads; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.order_reads TO authenticated;

-- Name: TABLE paid_orders; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.paid_orders TO authenticated;

-- Name: TABLE profiles; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.profiles TO authenticated;

-- Name: COLUMN profiles.username; Type: ACL; Schema: public
GRANT UPDATE(username) ON TABLE public.profiles TO authenticated;

-- Name: TABLE queue_tallies; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.queue_tallies TO authenticated;

-- Name: TABLE recovery_windows; Type: ACL; Schema: public
GRANT SELECT,DELETE ON TABLE public.recovery_windows TO authenticated;

-- Name: COLUMN recovery_windows.id; Type: ACL; Schema: public
GRANT INSERT(id) ON TABLE public.recovery_windows TO authenticated;

-- Name: COLUMN recovery_windows.expires_at; Type: ACL; Schema: public
GRANT INSERT(expires_at) ON TABLE public.recovery_windows TO authenticated;

-- Name: TABLE shop_settings; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.shop_settings TO anon;
GRANT SELECT ON TABLE public.shop_settings TO authenticated;

-- Name: COLUMN shop_settings.open; Type: ACL; Schema: public
GRANT UPDATE(open) ON TABLE public.shop_settings TO authenticated;

-- Name: COLUMN shop_settings.closed_message; Type: ACL; Schema: public
GRANT UPDATE(closed_message) ON TABLE public.shop_settings TO authenticated;

-- Name: COLUMN shop_settings.max_open_orders; Type: ACL; Schema: public
GRANT UPDATE(max_open_orders) ON TABLE public.shop_settings TO authenticated;

-- Name: COLUMN shop_settings.shop_title; Type: ACL; Schema: public
GRANT UPDATE(shop_title) ON TABLE public.shop_settings TO authenticated;

-- Name: COLUMN shop_settings.tagline; Type: ACL; Schema: public
GRANT UPDATE(tagline) ON TABLE public.shop_settings TO authenticated;

-- Name: COLUMN shop_settings.mixer_name; Type: ACL; Schema: public
GRANT UPDATE(mixer_name) ON TABLE public.shop_settings TO authenticated;

-- Name: COLUMN shop_settings.product_label; Type: ACL; Schema: public
GRANT UPDATE(product_label) ON TABLE public.shop_settings TO authenticated;

-- Name: COLUMN shop_settings.price_note; Type: ACL; Schema: public
GRANT UPDATE(price_note) ON TABLE public.shop_settings TO authenticated;

-- Name: COLUMN shop_settings.creator_url; Type: ACL; Schema: public
GRANT UPDATE(creator_url) ON TABLE public.shop_settings TO authenticated;

-- Name: COLUMN shop_settings.checkout_url; Type: ACL; Schema: public
GRANT UPDATE(checkout_url) ON TABLE public.shop_settings TO authenticated;

-- Name: TABLE songs; Type: ACL; Schema: public
GRANT SELECT ON TABLE public.songs TO anon;
GRANT SELECT ON TABLE public.songs TO authenticated;

-- Name: COLUMN songs."position"; Type: ACL; Schema: public
GRANT INSERT("position"),UPDATE("position") ON TABLE public.songs TO authenticated;

-- Name: COLUMN songs.title; Type: ACL; Schema: public
GRANT INSERT(title),UPDATE(title) ON TABLE public.songs TO authenticated;

-- Name: COLUMN songs.thumbnail; Type: ACL; Schema: public
GRANT INSERT(thumbnail),UPDATE(thumbnail) ON TABLE public.songs TO authenticated;

-- Name: COLUMN songs.preview_url; Type: ACL; Schema: public
GRANT INSERT(preview_url),UPDATE(preview_url) ON TABLE public.songs TO authenticated;

-- Name: COLUMN songs.active; Type: ACL; Schema: public
GRANT UPDATE(active) ON TABLE public.songs TO authenticated;

-- Name: SEQUENCE songs_id_seq; Type: ACL; Schema: public
GRANT USAGE ON SEQUENCE public.songs_id_seq TO authenticated;

-- Name: COLUMN tapes.id; Type: ACL; Schema: public
GRANT SELECT(id) ON TABLE public.tapes TO authenticated;

-- Name: COLUMN tapes.order_id; Type: ACL; Schema: public
GRANT SELECT(order_id) ON TABLE public.tapes TO authenticated;

-- Name: COLUMN tapes.content_type; Type: ACL; Schema: public
GRANT SELECT(content_type) ON TABLE public.tapes TO authenticated;

-- Name: COLUMN tapes.size; Type: ACL; Schema: public
GRANT SELECT(size) ON TABLE public.tapes TO authenticated;

-- Name: COLUMN tapes.duration_seconds; Type: ACL; Schema: public
GRANT SELECT(duration_seconds) ON TABLE public.tapes TO authenticated;

-- Name: COLUMN tapes.uploaded_at; Type: ACL; Schema: public
GRANT SELECT(uploaded_at) ON TABLE public.tapes TO authenticated;

-- Name: COLUMN tapes.downloads; Type: ACL; Schema: public
GRANT SELECT(downloads) ON TABLE public.tapes TO authenticated;

-- Name: COLUMN tapes.last_downloaded_at; Type: ACL; Schema: public
GRANT SELECT(last_downloaded_at) ON TABLE public.tapes TO authenticated;

-- Name: COLUMN tapes.deleted_at; Type: ACL; Schema: public
GRANT SELECT(deleted_at) ON TABLE public.tapes TO authenticated;

-- Name: COLUMN tapes.version; Type: ACL; Schema: public
GRANT SELECT(version) ON TABLE public.tapes TO authenticated;
