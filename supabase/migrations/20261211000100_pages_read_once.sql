-- Pages that read their rows once. The console's queue and My Mixtapes computed each order's money
-- (order_money) and tape (order_tape) with a call per row: with 5,000 orders the console's first page
-- spent 43 % of its time in PGlite on them, /my-mixtapes 46 %. Now a page's orders are chosen first
-- (queue_page: 25 a page, by a cursor on the queue's order (finished, created_at, id); my_orders: the
-- shopper's, by page), then read in one query (orders_read), their money and tapes each one
-- set-based query over the page (orders_money, orders_tape). The money rule keeps its one home:
-- order_money(m) is orders_money over the one order.

-- ---- A typed code, forgiving its look-alikes ----------------------------------------------
-- Codes are made without O, I and L (ORDER_CODE_ALPHABET of app/domain/order-code.ts); codes stored
-- before may hold them. A search folds both sides alike: O as 0, I and L as 1 (codeSearchKey of
-- app/domain/order-code.ts folds the typed text the same way, for the search box). A search reads each order the caller may read: RLS
-- keeps a clause that is not leakproof (LIKE) from any index; a few milliseconds for 5,000 orders.
create function public.order_code_key(p_code text) returns text
language sql
immutable
parallel safe
as $$
  select pg_catalog.translate(p_code, 'OIL', '011');
$$;

-- As before, inlined now (no SET clause): paid_orders evaluated it as a call per payment, each
-- with its own search_path, about half of queue_counts' time on 5,000 orders. Only operators of
-- pg_catalog, which is searched first.
create or replace function public.counts_as_payment(p_kind text, p_test boolean, p_amount integer) returns boolean
language sql
immutable
parallel safe
as $$
  select p_kind = 'payment' and not p_test and (p_amount is null or p_amount > 0);
$$;

-- ---- An index for the queue's order and each filter ----------------------------------------
-- All and Unpaid: mixtapes_queue_idx (finished, created_at, id); Late: mixtapes_open_idx. Added: each
-- status in the queue's order (newest first: read backward), and an order's payments that pay (the
-- Unpaid filter's look-up per order, and paid_orders).
create index mixtapes_status_queue_idx on public.mixtapes (status, finished, created_at, id);
create index payment_events_paid_idx on public.payment_events (order_id)
  where public.counts_as_payment(kind, test, amount);

-- ---- The money of many orders at once ------------------------------------------------------
-- The one money rule, for every order of p_ids the caller may read: its lines per currency and
-- mode (paid, refunded, disputed, net, due) and its movements, each order's movements read once
-- (public.ledger_movements). As order_money was, per order: partitioned by order here.
create function public.orders_money(p_ids bigint[]) returns table (order_id bigint, money jsonb)
language sql
stable
set search_path = ''
as $$
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
revoke execute on function public.orders_money(bigint[]) from public, anon;
grant execute on function public.orders_money(bigint[]) to authenticated;

-- The one rule for one order (a computed column, `money:order_money` in PostgREST; the emails and
-- the ledger's pages): the set's, over this order.
create or replace function public.order_money(m public.mixtapes) returns jsonb
language sql
stable
set search_path = ''
as $$
  select o.money from public.orders_money(array[m.id]) o;
$$;

-- ---- The tapes of many orders at once ------------------------------------------------------
-- For each order of p_ids with a tape the caller may hear (the draft rule, may_hear_tape), its
-- facts as the pages show them (tape_facts: the file's own name for the mixers only).
create function public.orders_tape(p_ids bigint[]) returns table (order_id bigint, tape jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select t.order_id, public.tape_facts(t.order_id, (select public.is_mixer()))
    from public.tapes t
   where t.order_id = any(p_ids) and public.may_hear_tape(t.order_id);
$$;
revoke execute on function public.orders_tape(bigint[]) from public, anon;
grant execute on function public.orders_tape(bigint[]) to authenticated;

-- ---- A page of orders, read once -----------------------------------------------------------
-- An order as the pages read it: its columns, its money and tape, its shopper's name and email
-- (the profiles the caller may read), and its place in the queue's order as a cursor: finished,
-- the time placed to the microsecond in UTC, and the id ("0_2026-12-11T09:30:00.123456Z_42";
-- readQueueCursor of app/domain/queue.ts reads it back).
create type public.order_row as (
  id text, user_id uuid, code text, tracks jsonb, toggles jsonb, note text, design_id text, design_name text,
  design_image text, codename text, created_at timestamptz, status text, delivery_url text, mixer_message text,
  cancel_reason text, mixing_at timestamptz, sent_at timestamptz, cancelled_at timestamptz, cancelled_by uuid,
  money jsonb, tape jsonb, username text, email text, cursor text
);

-- The orders of p_ids the caller may read (RLS), in the order of p_ids.
create function public.orders_read(p_ids bigint[]) returns setof public.order_row
language sql
stable
set search_path = ''
as $$
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
revoke execute on function public.orders_read(bigint[]) from public, anon;
grant execute on function public.orders_read(bigint[]) to authenticated;

-- The console's queue a page at a time: the orders of a filter (a status, unpaid, late; the codes
-- whose folded form starts with p_code's), in the queue's order (finished, created_at, id), oldest
-- first or p_newest_first; after the cursor (p_after_*: a row's finished, created_at and id), or
-- with p_backward the p_limit orders before it, still in the list's order. No cursor: the first
-- page. Only the clauses a filter needs are planned, each with its index (above).
create function public.queue_page(
  p_status text, p_unpaid boolean, p_late boolean, p_code text, p_due_days integer, p_newest_first boolean,
  p_after_finished boolean, p_after_at timestamptz, p_after_id bigint, p_backward boolean, p_limit integer
) returns setof public.order_row
language plpgsql
stable
set search_path = ''
as $$
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
$$;
revoke execute on function public.queue_page(text, boolean, boolean, text, integer, boolean, boolean, timestamptz, bigint, boolean, integer)
  from public, anon;
grant execute on function public.queue_page(text, boolean, boolean, text, integer, boolean, boolean, timestamptz, bigint, boolean, integer)
  to authenticated;

-- A shopper's orders, newest first (ties by id), p_limit from p_offset (null: all); one code, or every one.
create function public.my_orders(p_user_id uuid, p_code text, p_limit integer, p_offset integer) returns setof public.order_row
language sql
stable
set search_path = ''
as $$
  select r.* from public.orders_read(array(
    select m.id from public.mixtapes m
     where m.user_id = p_user_id and (p_code is null or m.code = p_code)
     order by m.created_at desc, m.id desc
     limit p_limit offset coalesce(p_offset, 0)
  )) r;
$$;
revoke execute on function public.my_orders(uuid, text, integer, integer) from public, anon;
grant execute on function public.my_orders(uuid, text, integer, integer) to authenticated;

-- ---- The counts, searching as the queue does -----------------------------------------------
-- As before (one scan; "unpaid" joined to paid_orders), with the search's look-alikes folded.
create or replace function public.queue_counts(p_code text, p_due_days integer) returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
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
  )
    from public.mixtapes m
    left join public.paid_orders p on p.order_id = m.id
   where p_code is null or public.order_code_key(m.code) like public.order_code_key(p_code) || '%';
$$;
