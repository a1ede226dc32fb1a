-- My Mixtapes by cursor, as the console's queue. my_orders skipped p_offset rows to reach a page: page
-- 25 of a shopper with 500 orders read 500 rows to show 20. Now a page starts after (or before) a row's
-- place in the list's order, newest first by (created_at, id), read from mixtapes_user_created_idx
-- (user_id, created_at desc, id desc), one way or the other: any page reads its 21 rows. The cursor
-- is the one public.orders_read writes for the queue ("0_2026-12-11T09:30:00.123456Z_42"); this list
-- reads its time and id (p_after_at, p_after_id), not its first field (finished).

drop function public.my_orders(uuid, text, integer, integer);

-- A shopper's orders, newest first (ties by id), as the caller may read them (RLS): one code; or
-- p_limit of them (null: all) from the newest, or after the place (p_after_at, p_after_id), or with
-- p_backward the p_limit orders before it (the newer ones), still newest first.
create function public.my_orders(
  p_user_id uuid, p_code text, p_after_at timestamptz, p_after_id bigint, p_backward boolean, p_limit integer
) returns setof public.order_row
language plpgsql
stable
security invoker
set search_path = ''
as $$
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
revoke execute on function public.my_orders(uuid, text, timestamptz, bigint, boolean, integer) from public, anon;
grant execute on function public.my_orders(uuid, text, timestamptz, bigint, boolean, integer) to authenticated;
