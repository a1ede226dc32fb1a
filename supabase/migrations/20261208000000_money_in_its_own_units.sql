-- Money in its own units. A probe with the providers' real payloads found the ledger
-- wrong where the happy path never goes; each rule below is still one SQL rule, read
-- by every backend:
-- - A payment has several names: Stripe's checkout session carries its payment intent,
--   a charge (refunded or disputed) its own id and, not always, the payment intent.
--   Every name an event gives is kept (refs); a refund or dispute finds its payment by
--   any of them, and teaches it the others, so a later event naming only the charge
--   finds it too. What names no payment the shop knows can be attached by the mixer.
-- - Test-mode events (Stripe's livemode false, Lemon Squeezy's test_mode) are test
--   money: kept, shown as test, and never in the live totals (paid, refund due, the
--   queue's counts, the insights). A payment of nothing pays for nothing.
-- - Dispute inquiries (warning_*) withdraw no money.
-- - A refund in another currency than its payment's, or beyond what its payment has
--   left, is flagged for the mixer and never subtracted.
-- - The order's price is one payment whatever the currencies: in the currency paid
--   first, the one most left of. Every other live payment is extra, and due back
--   until the mixer keeps it; the ledger names it.
-- - The shopper is thanked once: a payment that joins an order already paid says so
--   (order_was_paid), and test money and payments of nothing send nothing.
-- - A hand mark can be undone by a mixer for 10 minutes, while nothing came after it;
--   its email waits for that window, so an undone mark is never announced.
-- Amounts stay integers in the providers' minor units (app/domain/currency.ts). Rows
-- recorded before keep their integers: a provider's were always in its units, and a
-- hand refund in another currency was typed against the provider's amount as the page
-- showed it, on the same integer scale, so both keep their meaning; only how they are
-- shown changes (500000 HUF, shown "HUF 500,000", is now HUF 5,000, as Stripe meant).

-- ---- The rows -----------------------------------------------------------------------
alter table public.payment_events
  add column refs text[] not null default '{}',
  add column test boolean not null default false,
  add column order_was_paid boolean not null default false,
  add constraint payment_events_refs check (cardinality(refs) <= 10 and char_length(array_to_string(refs, '')) <= 2000);
update public.payment_events set refs = array[reference] where reference is not null;
create index payment_events_refs_idx on public.payment_events using gin (refs);

-- A payment's names with an event's added, sorted; as they were if that would pass the
-- row's limit (a payment learns its charges' names, and a signed event is never refused).
create function public.merged_refs(p_refs text[], p_more text[]) returns text[]
language sql
immutable
set search_path = ''
as $$
  select case when cardinality(m) <= 10 and char_length(array_to_string(m, '')) <= 2000 then m else p_refs end
    from (select array(select distinct x from unnest(p_refs || p_more) x order by x) as m) merged;
$$;

-- How long a mark by hand can be undone, and its email waits.
create function public.hand_mark_undo_window() returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '10 minutes';
$$;

-- A row a mixer can still undo (order_money says so, the delete policy decides so): a mark
-- by hand, within the window, and the order's newest row, so a payment by hand is never
-- undone from under the refund that followed it. (Security definer: a policy cannot read
-- its own table.)
create function public.hand_mark_undoable(p_provider text, p_received_at timestamptz, p_order bigint, p_seq bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_provider = 'manual' and p_received_at > now() - public.hand_mark_undo_window()
         and not exists (select 1 from public.payment_events x where x.order_id = p_order and x.seq > p_seq);
$$;
revoke execute on function public.hand_mark_undoable(text, timestamptz, bigint, bigint) from public, anon;
grant execute on function public.hand_mark_undoable(text, timestamptz, bigint, bigint) to authenticated;

-- A payment that pays for an order: live, and of some money (an unknown amount was
-- marked by hand before amounts were kept).
create function public.counts_as_payment(p_kind text, p_test boolean, p_amount integer) returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_kind = 'payment' and not p_test and (p_amount is null or p_amount > 0);
$$;

-- ---- Each movement once ----------------------------------------------------------------
-- As before, plus: a refund flagged when its currency is not its payment's or the refunds
-- of its payment up to it exceed the payment (flagged: signed 0); an inquiry signed 0.
drop view public.ledger_movements;
create view public.ledger_movements with (security_invoker = true) as
select p.*, p.amount as signed, false as flagged from (
  select distinct on (e.order_id, e.provider, coalesce(e.reference, e.event_id))
         e.order_id, e.provider, e.event_id, e.kind, e.amount, e.currency, e.reference, e.received_at, e.kept,
         null::text as status, null::text as reason, e.test, e.seq
    from public.payment_events e
   where e.kind = 'payment'
   order by e.order_id, e.provider, coalesce(e.reference, e.event_id), e.received_at, e.event_id
) p
union all
select r.order_id, r.provider, r.event_id, r.kind, r.amount, r.currency, r.reference, r.received_at, r.kept,
       r.status, r.reason, r.test, r.seq, case when r.flagged then 0 else -r.amount end, r.flagged
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
select d.*, case when d.status = 'won' or d.status like 'warning\_%' then 0 else -d.amount end as signed, false from (
  select distinct on (e.order_id, e.provider, coalesce(e.dispute, e.event_id))
         e.order_id, e.provider, e.event_id, e.kind, e.amount, e.currency, e.reference, e.received_at, e.kept,
         e.dispute_status as status, e.dispute_reason as reason, e.test, e.seq
    from public.payment_events e
   where e.kind = 'dispute'
   order by e.order_id, e.provider, coalesce(e.dispute, e.event_id),
            (e.dispute_status in ('won', 'lost', 'warning_closed')) desc, e.received_at desc, e.event_id desc
) d;
revoke all on public.ledger_movements from anon;
grant select on public.ledger_movements to authenticated;

-- ---- The one rule -----------------------------------------------------------------------------
-- Lines per currency and mode (test money on lines of its own, never due); movements with
-- what the mixer needs to see: test, flagged, extra, and a hand mark still undoable.
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
               'extra', coalesce(x.extra, false),
               'undo', v.provider = 'manual' and public.hand_mark_undoable(v.provider, v.received_at, m.id, v.seq))
               order by v.received_at, v.event_id)
        from mv v left join extras x on x.provider = v.provider and x.event_id = v.event_id and v.kind = 'payment'), '[]'::jsonb)
  );
$$;

create or replace view public.paid_orders with (security_invoker = true) as
  select distinct e.order_id from public.payment_events e where public.counts_as_payment(e.kind, e.test, e.amount);

-- ---- Recording an event ------------------------------------------------------------------
-- As before (locks: the payment's names, in one order; then the order's row; then the rows),
-- with every name of the payment and its mode. Answers duplicate, paid, paid_again,
-- refunded, disputed, unmatched, test (test money) or recorded (a payment of nothing).
drop function public.record_payment_event(text, text, text, text, integer, text, text, boolean, text, text, text);
create function public.record_payment_event(
  p_provider text, p_event_id text, p_kind text, p_code text, p_amount integer, p_currency text, p_reference text,
  p_aliases text[], p_running_total boolean, p_test boolean, p_dispute text, p_dispute_status text, p_dispute_reason text
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
                                     running_total, test, dispute, dispute_status, dispute_reason)
  values (p_provider, p_event_id, p_kind, p_code, p_amount, upper(p_currency), v_reference, v_refs, v_order,
          coalesce(p_running_total, false), coalesce(p_test, false), p_dispute, p_dispute_status, p_dispute_reason)
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
revoke execute on function public.record_payment_event(text, text, text, text, integer, text, text, text[], boolean, boolean, text, text, text)
  from public, anon, authenticated;

-- A payment's refunds and disputes without an order (by any shared name) follow it into
-- its order, under its reference; it learns their other names. The caller holds the locks.
create function public.adopt_payment_events(p_provider text, p_event_id text, p_order bigint) returns void
language plpgsql
security definer
set search_path = ''
as $$
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
revoke execute on function public.adopt_payment_events(text, text, bigint) from public, anon, authenticated;

-- A payment's email: whether its order was already paid when it joined it (its email then
-- says so: the shopper is thanked once). Decided under the order's lock, which every writer
-- of the order's ledger holds.
create function public.payment_joins_order() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
create trigger payment_events_join_order
  before insert or update of order_id on public.payment_events
  for each row execute function public.payment_joins_order();

-- The shopper hears of each live payment of money and each live refund once it belongs to
-- their order; a hand mark's email waits until it can no longer be undone.
create or replace function public.queue_money_emails() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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

-- ---- The mixer's hands ------------------------------------------------------------------------
-- A mixer attaches a payment, refund or dispute that came with no known code or payment
-- to an order. A payment's refunds and disputes follow it; a refund or dispute applies to
-- the order's one payment from its provider (and teaches it its names), or, when there is
-- no single one, to the order as a refund by hand does. Answers attached, no_order or gone.
create or replace function public.attach_payment(p_provider text, p_event_id text, p_code text) returns text
language plpgsql
security definer
set search_path = ''
as $$
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

-- "Mark Paid" and "Mark Refunded" by hand, as before; a refund by hand is checked against
-- the live money left in its currency.
create or replace function public.mark_money(p_code text, p_kind text, p_amount integer, p_currency text, p_token text) returns text
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
$$;

-- A mark by hand undone: its row goes (its email, still waiting, goes with it). The policy
-- is the rule: mixers only, and a row hand_mark_undoable says they may undo.
create policy "payment_events: mixers undo their hand marks" on public.payment_events
  for delete to authenticated
  using ((select public.is_mixer()) and public.hand_mark_undoable(provider, received_at, order_id, seq));
grant delete on public.payment_events to authenticated;

create function public.undo_money_mark(p_code text, p_event_id text) returns boolean
language plpgsql
security invoker
set search_path = ''
as $$
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
revoke execute on function public.undo_money_mark(text, text) from public, anon;
grant execute on function public.undo_money_mark(text, text) to authenticated;

-- The ledger page: as before, with each row's mode, whether it is flagged, whether it is an
-- extra payment (due back, the one Keep is for), and every name it gave its payment; the
-- filter 'flagged' lists the refunds the mixer must check.
drop function public.ledger_rows(text, text, integer, integer);
create function public.ledger_rows(p_provider text, p_filter text, p_limit integer, p_offset integer) returns table (
  provider text, event_id text, kind text, code text, amount integer, currency text, reference text, received_at timestamptz,
  order_code text, marked_by text, dispute_status text, dispute_reason text, kept boolean, running_total boolean,
  order_due boolean, test boolean, flagged boolean, extra boolean, refs text[]
)
language sql
stable
set search_path = ''
as $$
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
revoke execute on function public.ledger_rows(text, text, integer, integer) from public, anon;
grant execute on function public.ledger_rows(text, text, integer, integer) to authenticated;

-- ---- Insights: live revenue only ----------------------------------------------------------
-- Net of refunds (a flagged one is not subtracted) and disputes (an inquiry withdraws nothing);
-- test money and payments of nothing are not counted.
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
$$;
