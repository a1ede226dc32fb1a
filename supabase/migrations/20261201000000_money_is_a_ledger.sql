-- Money is a ledger. Every payment, refund and dispute is a row of
-- payment_events with its amount, currency, provider and the provider's payment
-- reference; "Mark Paid" and "Mark Refunded" by hand are rows too. What an order shows
-- (paid, refunded, disputed, net, refund due) is derived from its rows by
-- public.order_money, never stored as a flag, so every backend reads the same numbers.
-- - A refund or dispute applies to the payment it names (provider and reference), never
--   to an order by its code. One that matches no payment yet is kept, and applies when
--   its payment arrives.
-- - Events may come twice, late or out of order: the state is a function of the set of
--   rows. A payment counts once however many events tell of it; Stripe's charge.refunded
--   and Lemon Squeezy's order_refunded carry the refunded total so far (running_total),
--   so the rows of one payment count once, at the largest; a dispute counts by its last
--   word (a closed one over an open one), and gives the money back when it is won.
-- - Refund due: all of a cancelled order's net amount; otherwise what is left of the
--   payments beyond one (duplicates, until the mixer keeps them) after the refunds that
--   name them, less the refunds marked by hand. Which payment is the price does not
--   depend on arrival: the one most left of.
-- Messages are limited (10 per order and side in 10 minutes), and each recipient gets at
-- most one message email per order in 10 minutes: later messages wait for the next one.

-- ---- The rows -------------------------------------------------------------------------
alter table public.payment_events
  drop constraint payment_events_provider,
  drop constraint payment_events_kind,
  -- The order rows were written in (two rows may share a received_at).
  add column seq bigint generated always as identity,
  -- The mixer who marked a row by hand (provider 'manual').
  add column marked_by uuid references auth.users (id) on delete set null,
  add column running_total boolean not null default false,
  -- A duplicate payment the mixer keeps (a tip, a second tape): not due back.
  add column kept boolean not null default false,
  -- Disputes: the provider's dispute id, its status and reason, as sent.
  add column dispute text,
  add column dispute_status text,
  add column dispute_reason text,
  add constraint payment_events_provider check (provider in ('manual', 'stripe', 'lemonsqueezy', 'checkout')),
  add constraint payment_events_kind check (kind in ('payment', 'refund', 'dispute')),
  add constraint payment_events_dispute_lengths check (
    char_length(dispute) <= 200 and char_length(dispute_status) <= 40 and char_length(dispute_reason) <= 100
  );
alter table public.payment_events add constraint payment_events_amount check (amount >= 0) not valid;
alter table public.payment_events add constraint payment_events_currency check (currency ~ '^[A-Z]{3}$') not valid;
create index payment_events_order_idx on public.payment_events (order_id, received_at) where order_id is not null;
create index payment_events_reference_idx on public.payment_events (provider, reference) where reference is not null;
create index payment_events_received_idx on public.payment_events (received_at desc, seq desc);
drop index public.payment_events_unmatched_idx;

-- An order's shopper reads its rows (the order page, the data export); mixers read all.
create policy "payment_events: shoppers read their orders'" on public.payment_events
  for select to authenticated
  using (exists (select 1 from public.mixtapes m where m.id = order_id and m.user_id = (select auth.uid())));

-- ---- Today's flags become rows ----------------------------------------------------------
-- Refunds reported by Stripe and Lemon Squeezy carried the refunded total so far.
update public.payment_events set running_total = true where kind = 'refund' and provider in ('stripe', 'lemonsqueezy');

insert into public.payment_events (provider, event_id, kind, code, amount, currency, reference, order_id, received_at, marked_by)
select coalesce(m.paid_via, 'manual'), 'migrated:paid:' || m.id, 'payment', m.code, m.paid_amount, m.paid_currency,
       m.payment_ref, m.id, coalesce(m.paid_at, m.created_at), m.paid_by
  from public.mixtapes m
 where m.paid and not exists (select 1 from public.payment_events e where e.order_id = m.id and e.kind = 'payment');

-- A refund marked by hand gave back the payment (an unknown amount stays "all of it": null).
insert into public.payment_events (provider, event_id, kind, code, amount, currency, order_id, received_at, marked_by)
select 'manual', 'migrated:refunded:' || m.id, 'refund', m.code, m.paid_amount, m.paid_currency, m.id,
       coalesce(m.refunded_at, m.paid_at, m.created_at), m.refunded_by
  from public.mixtapes m
 where m.refunded and not exists (select 1 from public.payment_events e where e.order_id = m.id and e.kind = 'refund');

-- ---- The one rule ---------------------------------------------------------------------------
-- Each movement of money once: `signed` is what it did to the shop's money (a won
-- dispute gave it back). Filtered by order_id, the filter reaches each branch's rows.
create view public.ledger_movements with (security_invoker = true) as
select p.*, p.amount as signed from (
  select distinct on (e.order_id, e.provider, coalesce(e.reference, e.event_id))
         e.order_id, e.provider, e.event_id, e.kind, e.amount, e.currency, e.reference, e.received_at, e.kept,
         null::text as status, null::text as reason
    from public.payment_events e
   where e.kind = 'payment'
   order by e.order_id, e.provider, coalesce(e.reference, e.event_id), e.received_at, e.event_id
) p
union all
select r.*, -r.amount as signed from (
  select distinct on (e.order_id, e.provider, case when e.running_total then coalesce(e.reference, e.event_id) else e.event_id end)
         e.order_id, e.provider, e.event_id, e.kind, e.amount, e.currency, e.reference, e.received_at, e.kept,
         null::text as status, null::text as reason
    from public.payment_events e
   where e.kind = 'refund'
   order by e.order_id, e.provider, case when e.running_total then coalesce(e.reference, e.event_id) else e.event_id end,
            e.amount desc, e.received_at desc, e.event_id
) r
union all
select d.*, case when d.status in ('won', 'warning_closed') then 0 else -d.amount end as signed from (
  select distinct on (e.order_id, e.provider, coalesce(e.dispute, e.event_id))
         e.order_id, e.provider, e.event_id, e.kind, e.amount, e.currency, e.reference, e.received_at, e.kept,
         e.dispute_status as status, e.dispute_reason as reason
    from public.payment_events e
   where e.kind = 'dispute'
   order by e.order_id, e.provider, coalesce(e.dispute, e.event_id),
            (e.dispute_status in ('won', 'lost', 'warning_closed')) desc, e.received_at desc, e.event_id desc
) d;
revoke all on public.ledger_movements from anon;
grant select on public.ledger_movements to authenticated;

-- An order's money per currency, and its movements, oldest first. Read as a computed
-- column (`money:order_money` in PostgREST), under the caller's row-level security.
create function public.order_money(m public.mixtapes) returns jsonb
language sql
stable
set search_path = ''
as $$
  with mv as (
    select v.* from public.ledger_movements v where v.order_id = m.id
  ), payments as (
    -- What is left of each payment after the refunds and disputes that name it.
    select p.currency, p.kept,
           greatest(0, coalesce(p.amount, 0) + coalesce((
             select sum(r.signed) from mv r
              where r.kind <> 'payment' and r.provider = p.provider and r.reference = p.reference), 0)) as left_over
      from mv p where p.kind = 'payment'
  ), lines as (
    select v.currency,
           count(*) filter (where v.kind = 'payment') as payments,
           coalesce(sum(v.amount) filter (where v.kind = 'payment'), 0) as paid,
           coalesce(bool_or(v.kind = 'refund' and v.amount is null), false) as refunded_all,
           coalesce(sum(v.amount) filter (where v.kind = 'refund'), 0) as refunded,
           coalesce(sum(-v.signed) filter (where v.kind = 'dispute'), 0) as disputed,
           -- Refunds that name no payment of this order (marked by hand): they give back the extra payments first.
           coalesce(sum(-v.signed) filter (where v.kind <> 'payment' and not exists (
             select 1 from mv p where p.kind = 'payment' and p.provider = v.provider and p.reference = v.reference)), 0) as loose,
           -- The order's price is one payment (the one most left of); the others are extra, unless kept.
           (select coalesce(sum(p.left_over) - max(p.left_over), 0) from payments p
             where not p.kept and p.currency is not distinct from v.currency) as extra
      from mv v
     group by v.currency
  ), totals as (
    select l.*, case when l.refunded_all then l.paid else l.refunded end as refunded_total from lines l
  )
  select jsonb_build_object(
    'lines', coalesce((
      select jsonb_agg(jsonb_build_object(
               'currency', t.currency, 'payments', t.payments, 'paid', t.paid, 'refunded', t.refunded_total,
               'refundedAll', t.refunded_all, 'disputed', t.disputed,
               'net', t.paid - t.refunded_total - t.disputed,
               -- All of a cancelled order's money; otherwise what is left of the payments beyond the first.
               'due', case when m.status = 'cancelled' then greatest(0, t.paid - t.refunded_total - t.disputed)
                           when t.refunded_all then 0
                           else least(greatest(0, t.extra - t.loose), greatest(0, t.paid - t.refunded_total - t.disputed)) end)
               order by t.currency nulls last)
        from totals t), '[]'::jsonb),
    'movements', coalesce((
      select jsonb_agg(jsonb_build_object(
               'kind', v.kind, 'provider', v.provider, 'amount', v.amount, 'currency', v.currency,
               'at', v.received_at, 'status', v.status, 'reason', v.reason)
               order by v.received_at, v.event_id)
        from mv v), '[]'::jsonb)
  );
$$;
revoke execute on function public.order_money(public.mixtapes) from public, anon;
grant execute on function public.order_money(public.mixtapes) to authenticated;

-- Paid at all (the console's Unpaid filter; a computed column too).
create function public.order_paid(m public.mixtapes) returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (select 1 from public.payment_events e where e.order_id = m.id and e.kind = 'payment');
$$;
revoke execute on function public.order_paid(public.mixtapes) from public, anon;
grant execute on function public.order_paid(public.mixtapes) to authenticated;

create function public.order_refund_due(m public.mixtapes) returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select 1 from jsonb_array_elements(public.order_money(m) -> 'lines') l where (l ->> 'due')::bigint > 0
  );
$$;
revoke execute on function public.order_refund_due(public.mixtapes) from public, anon;
grant execute on function public.order_refund_due(public.mixtapes) to authenticated;

-- ---- Recording an event ------------------------------------------------------------------
-- One provider event, once, in one transaction with what it causes. Answers duplicate,
-- paid, paid_again (a payment beyond the first), refunded, disputed or unmatched.
drop function public.record_payment_event(text, text, text, text, integer, text, text);
create function public.record_payment_event(
  p_provider text, p_event_id text, p_kind text, p_code text, p_amount integer, p_currency text, p_reference text,
  p_running_total boolean, p_dispute text, p_dispute_status text, p_dispute_reason text
) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order bigint;
begin
  -- The events of one payment are recorded one at a time, so a refund and its payment
  -- arriving together always meet.
  if p_reference is not null then
    perform pg_advisory_xact_lock(hashtextextended(p_provider || ':' || p_reference, 7243035));
  end if;
  if p_kind = 'payment' then
    if p_reference is not null and exists (
      select 1 from public.payment_events e where e.provider = p_provider and e.reference = p_reference and e.kind = 'payment'
    ) then
      return 'duplicate';
    end if;
    select m.id into v_order from public.mixtapes m where m.code = upper(btrim(p_code));
  elsif p_reference is not null then
    select e.order_id into v_order from public.payment_events e
     where e.provider = p_provider and e.reference = p_reference and e.kind = 'payment'
     order by e.received_at, e.event_id limit 1;
  end if;
  insert into public.payment_events (provider, event_id, kind, code, amount, currency, reference, order_id,
                                     running_total, dispute, dispute_status, dispute_reason)
  values (p_provider, p_event_id, p_kind, p_code, p_amount, upper(p_currency), p_reference, v_order,
          coalesce(p_running_total, false), p_dispute, p_dispute_status, p_dispute_reason)
  on conflict do nothing;
  if not found then
    return 'duplicate';
  end if;
  if v_order is null then
    return 'unmatched';
  end if;
  if p_kind = 'payment' then
    -- Refunds and disputes that came first apply now.
    if p_reference is not null then
      update public.payment_events e set order_id = v_order
       where e.provider = p_provider and e.reference = p_reference and e.kind in ('refund', 'dispute') and e.order_id is null;
    end if;
    if exists (select 1 from public.payment_events e
                where e.order_id = v_order and e.kind = 'payment' and (e.provider, e.event_id) <> (p_provider, p_event_id)) then
      return 'paid_again';
    end if;
    return 'paid';
  end if;
  return case p_kind when 'refund' then 'refunded' else 'disputed' end;
end;
$$;
revoke execute on function public.record_payment_event(text, text, text, text, integer, text, text, boolean, text, text, text)
  from public, anon, authenticated;

-- A mixer attaches a payment that came with no known code to an order; its refunds and
-- disputes follow it. Answers attached, no_order, or gone (not an unattached payment).
create or replace function public.attach_payment(p_provider text, p_event_id text, p_code text) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  e public.payment_events%rowtype;
  v_order bigint;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer attaches a payment' using errcode = '42501';
  end if;
  select * into e from public.payment_events x
   where x.provider = p_provider and x.event_id = p_event_id and x.kind = 'payment' and x.order_id is null for update;
  if not found then
    return 'gone';
  end if;
  select m.id into v_order from public.mixtapes m where m.code = upper(btrim(p_code));
  if not found then
    return 'no_order';
  end if;
  update public.payment_events x set order_id = v_order where x.provider = e.provider and x.event_id = e.event_id;
  if e.reference is not null then
    update public.payment_events x set order_id = v_order
     where x.provider = e.provider and x.reference = e.reference and x.kind in ('refund', 'dispute') and x.order_id is null;
  end if;
  return 'attached';
end;
$$;

-- "Mark Paid" and "Mark Refunded" by hand, with the amount the mixer typed. The token
-- comes with the form, so a replayed or double-clicked mark is recorded once. Answers
-- paid, refunded, duplicate, no_order, or over (a refund beyond what is left).
create function public.mark_money(p_code text, p_kind text, p_amount integer, p_currency text, p_token text) returns text
language plpgsql
security definer
set search_path = ''
as $$
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
      from jsonb_array_elements(public.order_money(o) -> 'lines') l where l ->> 'currency' = p_currency;
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
$$;
revoke execute on function public.mark_money(text, text, integer, text, text) from public, anon;
grant execute on function public.mark_money(text, text, integer, text, text) to authenticated;

-- A payment beyond the first is due back until a mixer keeps it. True when it was kept now.
create function public.keep_payment(p_provider text, p_event_id text) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer keeps a payment' using errcode = '42501';
  end if;
  update public.payment_events e set kept = true
   where e.provider = p_provider and e.event_id = p_event_id and e.kind = 'payment' and not e.kept;
  return found;
end;
$$;
revoke execute on function public.keep_payment(text, text) from public, anon;
grant execute on function public.keep_payment(text, text) to authenticated;

-- The ledger page: every row, newest first, by provider and by what needs the mixer:
-- 'unmatched' (no order yet) or 'due' (its order has money to give back).
create function public.ledger_rows(p_provider text, p_filter text, p_limit integer, p_offset integer) returns table (
  provider text, event_id text, kind text, code text, amount integer, currency text, reference text, received_at timestamptz,
  order_code text, marked_by text, dispute_status text, dispute_reason text, kept boolean, running_total boolean,
  order_due boolean
)
language sql
stable
set search_path = ''
as $$
  select e.provider, e.event_id, e.kind, e.code, e.amount, e.currency, e.reference, e.received_at,
         m.code, coalesce(p.username, p.email), e.dispute_status, e.dispute_reason, e.kept, e.running_total,
         m.id is not null and public.order_refund_due(m)
    from public.payment_events e
    left join public.mixtapes m on m.id = e.order_id
    left join public.profiles p on p.id = e.marked_by
   where (p_provider is null or e.provider = p_provider)
     and case coalesce(p_filter, 'all')
           when 'unmatched' then e.order_id is null
           when 'due' then m.id is not null and public.order_refund_due(m)
           else true
         end
   order by e.received_at desc, e.seq desc
   limit least(greatest(p_limit, 1), 1000) offset greatest(p_offset, 0);
$$;
revoke execute on function public.ledger_rows(text, text, integer, integer) from public, anon;
grant execute on function public.ledger_rows(text, text, integer, integer) to authenticated;

-- ---- The order's columns no longer hold money ------------------------------------------------
drop trigger mixtapes_queue_emails on public.mixtapes;

create or replace function public.mixtapes_transition() returns trigger
language plpgsql
set search_path = ''
as $$
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

create or replace function public.erase_account() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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

alter table public.mixtapes
  drop column paid,
  drop column paid_at,
  drop column paid_by,
  drop column paid_amount,
  drop column paid_currency,
  drop column paid_via,
  drop column payment_ref,
  drop column refunded,
  drop column refunded_at,
  drop column refunded_by;

-- ---- Order emails: each payment and refund its own; messages gathered ---------------------
alter table public.order_emails
  add column entry_provider text,
  add column entry_event text,
  add constraint order_emails_entry_fkey foreign key (entry_provider, entry_event)
    references public.payment_events (provider, event_id) on delete cascade;
alter table public.order_emails drop constraint order_emails_once;
alter table public.order_emails add constraint order_emails_once
  unique nulls not distinct (order_id, kind, recipient, message_id, entry_provider, entry_event);
create index order_emails_messages_idx on public.order_emails (order_id, recipient, id) where kind = 'message';

create or replace function public.queue_order_emails() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'received', u.email from auth.users u where u.id = new.user_id and u.email is not null;
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'new_order', m.email from public.mixers m;
    return null;
  end if;
  if new.status = 'sent' and old.status is distinct from 'sent' then
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'sent', u.email from auth.users u where u.id = new.user_id and u.email is not null;
  end if;
  if new.status = 'cancelled' and old.status is distinct from 'cancelled' then
    if new.cancelled_by is not distinct from new.user_id then
      insert into public.order_emails (order_id, kind, recipient)
      select new.id, 'cancelled', m.email from public.mixers m;
    else
      insert into public.order_emails (order_id, kind, recipient)
      select new.id, 'cancelled', u.email from auth.users u where u.id = new.user_id and u.email is not null;
    end if;
  end if;
  return null;
end;
$$;
create trigger mixtapes_queue_emails
  after insert or update of status on public.mixtapes
  for each row execute function public.queue_order_emails();

-- The shopper hears of each payment and refund once it belongs to their order.
create function public.queue_money_emails() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.order_id is null or new.kind = 'dispute' or (tg_op = 'UPDATE' and old.order_id is not null) then
    return null;
  end if;
  insert into public.order_emails (order_id, kind, recipient, entry_provider, entry_event)
  select new.order_id, case new.kind when 'payment' then 'paid' else 'refunded' end, u.email, new.provider, new.event_id
    from public.mixtapes m join auth.users u on u.id = m.user_id
   where m.id = new.order_id and u.email is not null
  on conflict do nothing;
  return null;
end;
$$;
create trigger payment_events_queue_emails
  after insert or update of order_id on public.payment_events
  for each row execute function public.queue_money_emails();

-- At most 10 messages per order and side in 10 minutes.
create function public.limit_order_messages() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
create trigger order_messages_limit
  before insert on public.order_messages
  for each row execute function public.limit_order_messages();

-- A message goes to the other side: the shopper, or every mixer. A recipient gets at
-- most one message email per order in 10 minutes: an email still waiting gathers the
-- message (message_ids), and otherwise the next one waits until 10 minutes after the last.
-- The messages of one order are written one at a time (limit_order_messages locks the
-- order), so two never both start an email.
alter table public.order_emails add column message_ids bigint[] not null default '{}';
update public.order_emails set message_ids = array[message_id] where message_id is not null;

create or replace function public.queue_message_emails() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  r text;
  last_at timestamptz;
begin
  for r in
    select u.email from public.mixtapes m join auth.users u on u.id = m.user_id
     where new.from_mixer and m.id = new.order_id and u.email is not null
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
    select max(coalesce(e.sent_at, e.next_attempt_at)) into last_at from public.order_emails e
     where e.order_id = new.order_id and e.kind = 'message' and e.recipient = r;
    insert into public.order_emails (order_id, kind, recipient, message_id, message_ids, next_attempt_at)
    values (new.order_id, 'message', r, new.id, array[new.id],
            greatest(now(), coalesce(last_at + interval '10 minutes', now())));
  end loop;
  return null;
end;
$$;

-- The worker's claim answers the order with its money, the ledger row a payment or
-- refund email is about, and the messages a message email gathers (oldest first).
drop function public.claim_order_emails(integer);
create function public.claim_order_emails(batch integer) returns table (
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
         to_jsonb(m) || jsonb_build_object('money', public.order_money(m)),
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

-- ---- Insights: revenue from the ledger, net of refunds and disputes --------------------------
create or replace function public.shop_insights(p_weeks integer, p_due_days integer, p_turnaround_days integer) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
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
                 sum(v.signed) as amount, count(*) filter (where v.kind = 'payment') as payments
            from public.ledger_movements v
           where v.received_at >= first_week and v.amount is not null and v.currency is not null
           group by 1, 2
        ) r
    ),
    'unpriced', (
      select count(*) from public.ledger_movements v where v.kind = 'payment' and v.received_at >= first_week and v.amount is null
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
$$;
