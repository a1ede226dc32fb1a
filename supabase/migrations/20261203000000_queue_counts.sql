-- The console's filters say how many orders each holds. One row of counts for the
-- orders whose code starts with p_code (all when null), by the filters of /mixer: status,
-- unpaid (the ledger's one rule, public.order_paid) and late (open past p_due_days).
-- security invoker: the policies decide what is counted (a mixer reads every order).
create function public.queue_counts(p_code text, p_due_days integer) returns jsonb
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
    'unpaid', count(*) filter (where not public.order_paid(m)),
    'late', count(*) filter (
      where m.status in ('received', 'mixing') and m.created_at < now() - make_interval(days => p_due_days)
    )
  )
    from public.mixtapes m
   where p_code is null or m.code like p_code || '%';
$$;
revoke execute on function public.queue_counts(text, integer) from public, anon;
grant execute on function public.queue_counts(text, integer) to authenticated;
