-- A dispute's deadline for the shop's evidence, as the provider sends it (Stripe's
-- evidence_details.due_by), is kept with the dispute: the console says "Respond by …" while the
-- dispute needs a response. An event of the dispute without one (the evidence sent, say) keeps the
-- newest it had. record_payment_event takes it; ledger_movements and order_money carry it.
alter table public.payment_events add column dispute_due_by timestamptz;

-- ---- Each movement once: a dispute with its deadline (the view as before, one column more) ----
create or replace view public.ledger_movements with (security_invoker = true) as
select p.*, p.amount as signed, false as flagged, null::timestamptz as due_by from (
  select distinct on (e.order_id, e.provider, coalesce(e.reference, e.event_id))
         e.order_id, e.provider, e.event_id, e.kind, e.amount, e.currency, e.reference, e.received_at, e.kept,
         null::text as status, null::text as reason, e.test, e.seq
    from public.payment_events e
   where e.kind = 'payment'
   order by e.order_id, e.provider, coalesce(e.reference, e.event_id), e.received_at, e.event_id
) p
union all
select r.order_id, r.provider, r.event_id, r.kind, r.amount, r.currency, r.reference, r.received_at, r.kept,
       r.status, r.reason, r.test, r.seq, case when r.flagged then 0 else -r.amount end, r.flagged, null::timestamptz
  from (
    select r.*,
           coalesce(pay.amount is not null and (
             r.currency is distinct from pay.currency
             or sum(r.amount) over (partition by r.order_id, r.provider, r.reference, r.currency
                                    order by r.received_at, r.event_id) > pay.amount), false) as flagged
      from (
        select distinct on (e.order_id, e.provider, case when e.running_total then coalesce(e.reference, e.event_id) else e.event_id end)
               e.order_id, e.provider, e.event_id, e.kind, e.amount, e.currency, e.reference, e.received_at, e.kept,
               null::text as status, null::text as reason, e.test, e.seq
          from public.payment_events e
         where e.kind = 'refund'
         order by e.order_id, e.provider, case when e.running_total then coalesce(e.reference, e.event_id) else e.event_id end,
                  e.amount desc, e.received_at desc, e.event_id
      ) r
      left join lateral (
        select x.amount, x.currency from public.payment_events x
         where x.kind = 'payment' and x.provider = r.provider and x.reference = r.reference and x.order_id = r.order_id
         order by x.received_at, x.event_id limit 1
      ) pay on true
  ) r
union all
select d.order_id, d.provider, d.event_id, d.kind, d.amount, d.currency, d.reference, d.received_at, d.kept,
       d.status, d.reason, d.test, d.seq,
       case when d.status = 'won' or d.status like 'warning\_%' then 0 else -d.amount end as signed, false, d.due_by from (
  select distinct on (e.order_id, e.provider, coalesce(e.dispute, e.event_id))
         e.order_id, e.provider, e.event_id, e.kind, e.amount, e.currency, e.reference, e.received_at, e.kept,
         e.dispute_status as status, e.dispute_reason as reason, e.test, e.seq,
         -- The newest deadline any event of the dispute gave: an event without one keeps it.
         (select x.dispute_due_by from public.payment_events x
           where x.kind = 'dispute' and x.provider = e.provider and x.dispute_due_by is not null
             and (x.dispute = e.dispute or x.event_id = e.event_id)
           order by x.received_at desc, x.event_id desc limit 1) as due_by
    from public.payment_events e
   where e.kind = 'dispute'
   order by e.order_id, e.provider, coalesce(e.dispute, e.event_id),
            (e.dispute_status in ('won', 'lost', 'warning_closed')) desc, e.received_at desc, e.event_id desc
) d;

-- ---- Recording an event: as before, with the dispute's deadline -------------------------
drop function public.record_payment_event(text, text, text, text, integer, text, text, text[], boolean, boolean, text, text, text);
create function public.record_payment_event(
  p_provider text, p_event_id text, p_kind text, p_code text, p_amount integer, p_currency text, p_reference text,
  p_aliases text[], p_running_total boolean, p_test boolean, p_dispute text, p_dispute_status text, p_dispute_reason text,
  p_dispute_due_by timestamptz
) returns text
language plpgsql
security definer
set search_path = ''
as $$
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
revoke execute on function public.record_payment_event(
  text, text, text, text, integer, text, text, text[], boolean, boolean, text, text, text, timestamptz
) from public, anon, authenticated;


-- ---- The one rule: as before, each movement with its deadline (a dispute's) ------------------
create or replace function public.order_money(m public.mixtapes) returns jsonb
language sql
stable
set search_path = ''
as $$
  with mv as (
    select v.* from public.ledger_movements v where v.order_id = m.id
  ), payments as (
    select p.*, public.counts_as_payment(p.kind, p.test, p.amount) and not p.kept as candidate,
           greatest(0, coalesce(p.amount, 0) + coalesce((
             select sum(r.signed) from mv r
              where r.kind <> 'payment' and r.provider = p.provider and r.reference = p.reference), 0)) as left_over
      from mv p where p.kind = 'payment'
  ), firsts as (
    select p.*, min(p.received_at) filter (where p.candidate) over (partition by p.currency) as currency_first from payments p
  ), ranked as (
    -- The price: in the currency paid first, the payment most left of; the rest with money left is extra.
    select f.*, f.candidate and row_number() over (
             order by f.candidate desc, f.currency_first nulls last, f.left_over desc, f.received_at, f.event_id) = 1 as price
      from firsts f
  ), extras as (
    select r.provider, r.event_id, r.test, r.currency, r.left_over,
           r.candidate and not r.price and r.left_over > 0 as extra
      from ranked r
  ), lines as (
    select v.test, v.currency,
           count(*) filter (where v.kind = 'payment' and (v.amount is null or v.amount > 0)) as payments,
           coalesce(sum(v.amount) filter (where v.kind = 'payment'), 0) as paid,
           coalesce(bool_or(v.kind = 'refund' and v.amount is null), false) as refunded_all,
           coalesce(sum(v.amount) filter (where v.kind = 'refund' and not v.flagged), 0) as refunded,
           coalesce(sum(v.amount) filter (where v.flagged), 0) as flagged,
           coalesce(sum(-v.signed) filter (where v.kind = 'dispute'), 0) as disputed,
           -- Refunds that name no payment of this order (marked by hand): they give back the extra payments first.
           coalesce(sum(-v.signed) filter (where v.kind <> 'payment' and not exists (
             select 1 from mv p where p.kind = 'payment' and p.provider = v.provider and p.reference = v.reference)), 0) as loose,
           (select coalesce(sum(x.left_over), 0) from extras x
             where x.extra and x.test = v.test and x.currency is not distinct from v.currency) as extra
      from mv v
     group by v.test, v.currency
  ), totals as (
    select l.*, case when l.refunded_all then l.paid else l.refunded end as refunded_total from lines l
  )
  select jsonb_build_object(
    'lines', coalesce((
      select jsonb_agg(jsonb_build_object(
               'currency', t.currency, 'test', t.test, 'payments', t.payments, 'paid', t.paid, 'refunded', t.refunded_total,
               'refundedAll', t.refunded_all, 'disputed', t.disputed, 'flagged', t.flagged,
               'net', t.paid - t.refunded_total - t.disputed,
               -- Test money is never due. All of a cancelled order's money; otherwise what is left of the extra payments.
               'due', case when t.test then 0
                           when m.status = 'cancelled' then greatest(0, t.paid - t.refunded_total - t.disputed)
                           when t.refunded_all then 0
                           else least(greatest(0, t.extra - t.loose), greatest(0, t.paid - t.refunded_total - t.disputed)) end)
               order by t.test, t.currency nulls last)
        from totals t), '[]'::jsonb),
    'movements', coalesce((
      select jsonb_agg(jsonb_build_object(
               'kind', v.kind, 'provider', v.provider, 'event', v.event_id, 'amount', v.amount, 'currency', v.currency,
               'at', v.received_at, 'status', v.status, 'reason', v.reason, 'test', v.test, 'flagged', v.flagged,
               'reference', v.reference, 'dueBy', v.due_by,
               'extra', coalesce(x.extra, false),
               'undo', v.provider = 'manual' and public.hand_mark_undoable(v.provider, v.received_at, m.id, v.seq))
               order by v.received_at, v.event_id)
        from mv v left join extras x on x.provider = v.provider and x.event_id = v.event_id and v.kind = 'payment'), '[]'::jsonb)
  );
$$;
