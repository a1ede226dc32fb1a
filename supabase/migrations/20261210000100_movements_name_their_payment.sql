-- A dispute is answered on the provider's dashboard: each movement of an order's money now
-- names its payment as the provider does (the payment intent or charge, the order id), so the
-- console links to that payment. The rest of public.order_money is as before.
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
               'reference', v.reference,
               'extra', coalesce(x.extra, false),
               'undo', v.provider = 'manual' and public.hand_mark_undoable(v.provider, v.received_at, m.id, v.seq))
               order by v.received_at, v.event_id)
        from mv v left join extras x on x.provider = v.provider and x.event_id = v.event_id and v.kind = 'payment'), '[]'::jsonb)
  );
$$;
