-- A deleted account's messages leave no unread count behind in the console (its erased messages count as read).
create or replace function public.erase_account() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  claims text := current_setting('request.jwt.claims', true);
  claim_sub text := current_setting('request.jwt.claim.sub', true);
begin
  -- Cancelled as the shopper would (the mixers get the usual email).
  perform set_config('request.jwt.claims', json_build_object('sub', old.id, 'role', 'authenticated')::text, true),
          set_config('request.jwt.claim.sub', '', true);
  update public.mixtapes set status = 'cancelled' where user_id = old.id and status = 'received' and not paid;
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
