-- The queue's counts, kept as orders and payments change. queue_counts read every order and joined
-- the ledger (paid_orders) on each console page: with 5,000 orders, 10-16 ms of PGlite a request,
-- the largest part of the page. The shop's open orders (shop_status on every visit to /, and the
-- limit checked at each transmit) were a count of every open order too. Now triggers keep a tally
-- per (status, paid) and each order's paid mark; the counts read 8 rows. Late depends on the clock:
-- the open orders less those placed within the due days (mixtapes_open_idx). A search counts the
-- orders found, as before. paid_orders stays the rule of what counts as paid; the mark follows it.

-- ---- What the tallies count ----------------------------------------------------------------
create table public.queue_tallies (
  status text not null,
  paid boolean not null,
  n bigint not null default 0 check (n >= 0),
  primary key (status, paid)
);

-- The orders the tallies count as paid (a row while paid_orders holds the order).
create table public.queue_paid_marks (
  order_id bigint primary key
);

alter table public.queue_tallies enable row level security;
alter table public.queue_paid_marks enable row level security;
-- Written only by the triggers below (as the owner); the mixers read the tallies through queue_counts.
revoke all on public.queue_tallies from anon, authenticated;
revoke all on public.queue_paid_marks from anon, authenticated;
grant select on public.queue_tallies to authenticated;
create policy "queue_tallies: mixers read" on public.queue_tallies
  for select to authenticated using ((select public.is_mixer()));

-- ---- Keeping them ----------------------------------------------------------------------------
-- One order's move from one tally to another (a null side: the order arrives or goes). The two rows
-- are locked in the key's order, so two moves between the same tallies never wait in a circle.
create function public.queue_tally_move(p_from_status text, p_from_paid boolean, p_to_status text, p_to_paid boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
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

create function public.mixtapes_tally() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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

create trigger mixtapes_tally after insert or delete or update of status on public.mixtapes
  for each row execute function public.mixtapes_tally();

-- Each order a payment named before or names now: its mark made to agree with paid_orders' rule.
-- The mark's own insert or delete says whether it changed, so two payments at once move an order once.
create function public.payment_events_tally() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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

create trigger payment_events_tally after insert or delete or update of order_id, kind, test, amount
  on public.payment_events for each row execute function public.payment_events_tally();

-- Counted again from the orders and the ledger: here, and after rows were written with the
-- triggers off (the bench's seeding of thousands of orders). The owner's only.
create function public.queue_recount() returns void
language plpgsql
security definer
set search_path = ''
as $$
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

revoke all on function public.queue_tally_move(text, boolean, text, boolean) from public, anon, authenticated;
revoke all on function public.queue_recount() from public, anon, authenticated;

select public.queue_recount();

-- ---- Reading them ----------------------------------------------------------------------------
-- The shop's open orders (received and mixing), for the limit: the tallies.
create function public.open_orders() returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(t.n), 0)::bigint from public.queue_tallies t where t.status in ('received', 'mixing');
$$;

revoke all on function public.open_orders() from public, anon, authenticated;

create or replace function public.shop_status() returns table (open boolean, closed_message text, is_full boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select s.open, s.closed_message, s.max_open_orders is not null and public.open_orders() >= s.max_open_orders
    from public.shop_settings s;
$$;

create or replace function public.mixtapes_admit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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

-- A mixer's counts of the whole shop are the tallies (a mixer reads every order); a search, or
-- anyone else, counts the orders they can read, as before.
create or replace function public.queue_counts(p_code text, p_due_days integer) returns jsonb
language plpgsql
stable
security invoker
set search_path = ''
as $$
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
