-- One trip per request (docs/decisions/017-one-trip.md): an order's messages are read, and a
-- message is written, by the order's code, so a page can ask for the order and its conversation
-- at once (one transaction), with no call waiting for the order's id. Both run as the caller: the
-- policies decide.

create function public.order_messages_of(p_code text)
returns table (id text, from_mixer boolean, body text, created_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select m.id::text, m.from_mixer, m.body, m.created_at
    from public.order_messages m
    join public.mixtapes o on o.id = m.order_id
   where o.code = p_code
   order by m.created_at, m.id;
$$;
revoke execute on function public.order_messages_of(text) from public;
grant execute on function public.order_messages_of(text) to authenticated;

-- The new message's id. The policies refuse a closed conversation (42501); so is an order the
-- caller cannot see, as inserting with its id would be.
create function public.post_order_message(p_code text, p_from_mixer boolean, p_body text) returns text
language plpgsql
volatile
security invoker
set search_path = ''
as $$
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
revoke execute on function public.post_order_message(text, boolean, text) from public;
grant execute on function public.post_order_message(text, boolean, text) to authenticated;
