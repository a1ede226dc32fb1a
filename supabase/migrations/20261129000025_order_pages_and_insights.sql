-- Order pages and insights: read marks by the page's side, unread counts kept
-- per order, and the mixer's insights as one aggregate query.

-- ---- Read marks and unread counts, per order and side ----------------------------------
-- Each side's row in order_reads also counts the other side's messages since it last read
-- the order (a trigger per message), so the console's count reads only the orders with
-- something unread, however many messages the shop has.
alter table public.order_reads
  alter column read_at drop not null,
  alter column read_at drop default,
  add column unread integer not null default 0,
  -- The oldest unread message's time; null when nothing is unread.
  add column since timestamptz;
create index order_reads_unread_idx on public.order_reads (reader, since) where unread > 0;

insert into public.order_reads as r (order_id, reader, read_at, unread, since)
select msg.order_id, case when msg.from_mixer then 'shopper' else 'mixer' end, null, count(*), min(msg.created_at)
  from public.order_messages msg
  left join public.order_reads seen
    on seen.order_id = msg.order_id and seen.reader = case when msg.from_mixer then 'shopper' else 'mixer' end
 where seen.read_at is null or msg.created_at > seen.read_at
 group by 1, 2
on conflict (order_id, reader) do update set unread = excluded.unread, since = excluded.since;

create function public.count_unread_message() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.order_reads as r (order_id, reader, read_at, unread, since)
  values (new.order_id, case when new.from_mixer then 'shopper' else 'mixer' end, null, 1, new.created_at)
  on conflict (order_id, reader) do update set unread = r.unread + 1, since = coalesce(r.since, excluded.since);
  return null;
end;
$$;
create trigger order_messages_count_unread
  after insert on public.order_messages
  for each row execute function public.count_unread_message();

-- Opening an order's page marks it read for the side of that page: a mixer who also
-- ordered a tape reads that order as its shopper on /my-mixtapes/{CODE} and as a mixer in
-- the console. True when the caller is on that side of the order.
drop function public.mark_order_read(text);
create function public.mark_order_read(p_code text, p_side text) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
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
revoke execute on function public.mark_order_read(text, text) from public, anon;
grant execute on function public.mark_order_read(text, text) to authenticated;

-- Each order with unread messages for this side: how many, and the oldest one's time. A
-- mixer sees every order's, a shopper their own orders'; runs as the caller (RLS too).
create function public.unread_messages(p_side text) returns table (code text, unread integer, since timestamptz)
language sql
stable
set search_path = ''
as $$
  select m.code, r.unread, r.since
    from public.order_reads r
    join public.mixtapes m on m.id = r.order_id
   where r.reader = p_side and r.unread > 0
     and ((p_side = 'mixer' and (select public.is_mixer())) or (p_side = 'shopper' and m.user_id = (select auth.uid())));
$$;
revoke execute on function public.unread_messages(text) from public, anon;
grant execute on function public.unread_messages(text) to authenticated;

-- ---- Insights ------------------------------------------------------------------------
-- The shop at a glance, for mixers only, as aggregates (never the orders themselves):
-- orders per week of the last p_weeks weeks (Monday 00:00 UTC; cancelled apart), revenue
-- per week and currency from recorded payments (refunded ones left out), payments marked
-- by hand without an amount, the top 10 songs and each design's orders over the same
-- weeks, the median and 90th percentile days from placed to sent over the last
-- p_turnaround_days days against the p_due_days promise, and the open and late orders now.
create function public.shop_insights(p_weeks integer, p_due_days integer, p_turnaround_days integer) returns jsonb
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
          select date_bin('7 days', m.paid_at, timestamptz '2001-01-01 00:00+00') as week, m.paid_currency as currency,
                 sum(m.paid_amount) as amount, count(*) as payments
            from public.mixtapes m
           where m.paid and m.paid_at >= first_week and m.paid_amount is not null and m.paid_currency is not null
             and not m.refunded
           group by 1, 2
        ) r
    ),
    'unpriced', (
      select count(*) from public.mixtapes m where m.paid and m.paid_at >= first_week and m.paid_amount is null
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
revoke execute on function public.shop_insights(integer, integer, integer) from public, anon;
grant execute on function public.shop_insights(integer, integer, integer) to authenticated;
