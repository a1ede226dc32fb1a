-- Payments, one order at a time. record_payment_event took one lock, on the payment's
-- provider and reference: two events of one payment met, but two payments of one order
-- (two references) did not. On PostgreSQL, where events arrive on many connections at
-- once, both could find no other payment of the order and both answer "paid"; only one
-- payment may be the order's first, the others are "paid_again". (PGlite has one
-- connection, so it never showed there.)
-- Now every write to an order's ledger holds the order's row (FOR NO KEY UPDATE: it and
-- mark_money's FOR UPDATE wait for each other, and a foreign key's check, of a row that
-- names the order, does not wait for it) and decides what it answers after taking it,
-- so it sees every event of the order that came before. The locks are always taken in
-- one order, so no two writers ever wait for each other in a circle (a deadlock):
--   1. the payment's provider and reference (an advisory lock), when there is one;
--   2. the order's row, once the order is known;
--   3. the ledger's rows.
-- attach_payment takes them too: a refund that arrived while its payment was being
-- attached found the payment with no order and was kept as unmatched, and the attach did
-- not see the refund yet, so it never followed its payment. mark_money already holds the
-- order's row (FOR UPDATE) before it checks a refund by hand against what is left; since
-- the providers' events now take that row too, the check counts every one of them.
-- keep_payment is one UPDATE whose condition is checked again on the row's newest
-- version: it decides nothing from other rows, and is unchanged.

create or replace function public.record_payment_event(
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
  -- The events of one payment one at a time, so a refund and its payment arriving together
  -- always meet (attach_payment takes this lock too).
  if p_reference is not null then
    perform pg_advisory_xact_lock(hashtextextended(p_provider || ':' || p_reference, 7243035));
  end if;
  if p_kind = 'payment' then
    if p_reference is not null and exists (
      select 1 from public.payment_events e where e.provider = p_provider and e.reference = p_reference and e.kind = 'payment'
    ) then
      return 'duplicate';
    end if;
    -- Then the events of its order one at a time, so exactly one payment is the first.
    select m.id into v_order from public.mixtapes m where m.code = upper(btrim(p_code)) for no key update;
  elsif p_reference is not null then
    -- Under the reference's lock: the payment's order cannot change until this commits.
    select e.order_id into v_order from public.payment_events e
     where e.provider = p_provider and e.reference = p_reference and e.kind = 'payment'
     order by e.received_at, e.event_id limit 1;
    if v_order is not null then
      perform 1 from public.mixtapes m where m.id = v_order for no key update;
    end if;
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
    -- A statement after the order's lock: it sees every payment of the order committed before.
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
   where x.provider = p_provider and x.event_id = p_event_id and x.kind = 'payment' and x.order_id is null;
  if not found then
    return 'gone';
  end if;
  -- The locks in record_payment_event's order: the payment's reference (a refund of it being
  -- recorded now is committed first, and seen below), then the order, then the rows.
  if e.reference is not null then
    perform pg_advisory_xact_lock(hashtextextended(e.provider || ':' || e.reference, 7243035));
  end if;
  select m.id into v_order from public.mixtapes m where m.code = upper(btrim(p_code)) for no key update;
  if not found then
    return 'no_order';
  end if;
  -- Still unattached: another mixer may have attached it meanwhile.
  perform 1 from public.payment_events x
   where x.provider = e.provider and x.event_id = e.event_id and x.order_id is null for update;
  if not found then
    return 'gone';
  end if;
  update public.payment_events x set order_id = v_order where x.provider = e.provider and x.event_id = e.event_id;
  if e.reference is not null then
    update public.payment_events x set order_id = v_order
     where x.provider = e.provider and x.reference = e.reference and x.kind in ('refund', 'dispute') and x.order_id is null;
  end if;
  return 'attached';
end;
$$;
revoke execute on function public.attach_payment(text, text, text) from public, anon;
grant execute on function public.attach_payment(text, text, text) to authenticated;
