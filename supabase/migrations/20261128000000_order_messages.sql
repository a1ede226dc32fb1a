-- Every order has a conversation: messages between its shopper and the mixers, read
-- marks for each side, and an email for each message through the one durable queue.

create table public.order_messages (
  id bigint generated always as identity primary key,
  order_id bigint not null references public.mixtapes (id) on delete cascade,
  author_id uuid default auth.uid() references auth.users (id) on delete set null,
  from_mixer boolean not null,
  body text not null,
  created_at timestamptz not null default now(),
  -- 1 to 1,000 characters; no control character but the newline.
  constraint order_messages_body check (
    char_length(body) between 1 and 1000 and translate(body, E'\n', '') !~ '[[:cntrl:]]'
  )
);
create index order_messages_order_idx on public.order_messages (order_id, created_at, id);

-- The order's shopper and the mixers read its messages; each writes as themselves, while
-- the conversation is open (until 30 days after the order is sent or cancelled).
create function public.order_conversation_open(p_order_id bigint) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.mixtapes m
     where m.id = p_order_id
       and (m.status not in ('sent', 'cancelled') or coalesce(m.sent_at, m.cancelled_at, m.created_at) > now() - interval '30 days')
  );
$$;
revoke execute on function public.order_conversation_open(bigint) from public;
grant execute on function public.order_conversation_open(bigint) to authenticated;

alter table public.order_messages enable row level security;
create policy "order_messages: the order's shopper and the mixers read" on public.order_messages
  for select to authenticated
  using (
    (select public.is_mixer())
    or exists (select 1 from public.mixtapes m where m.id = order_id and m.user_id = (select auth.uid()))
  );
create policy "order_messages: the order's shopper and the mixers write, while it is open" on public.order_messages
  for insert to authenticated
  with check (
    author_id = (select auth.uid())
    and public.order_conversation_open(order_id)
    and (
      (from_mixer and (select public.is_mixer()))
      or (not from_mixer and exists (select 1 from public.mixtapes m where m.id = order_id and m.user_id = (select auth.uid())))
    )
  );
revoke all on public.order_messages from anon, authenticated;
grant select on public.order_messages to authenticated;
grant insert (order_id, from_mixer, body) on public.order_messages to authenticated;

-- When each side last read an order's conversation: the shopper's, and the mixers' (shared).
create table public.order_reads (
  order_id bigint not null references public.mixtapes (id) on delete cascade,
  reader text not null,
  read_at timestamptz not null default now(),
  primary key (order_id, reader),
  constraint order_reads_reader check (reader in ('shopper', 'mixer'))
);
alter table public.order_reads enable row level security;
create policy "order_reads: the order's shopper and the mixers read" on public.order_reads
  for select to authenticated
  using (
    (select public.is_mixer())
    or exists (select 1 from public.mixtapes m where m.id = order_id and m.user_id = (select auth.uid()))
  );
revoke all on public.order_reads from anon, authenticated;
grant select on public.order_reads to authenticated;

-- Opening an order's page marks its conversation read for the caller's side. True when
-- the caller may read the order (a mixer, or its shopper).
create function public.mark_order_read(p_code text) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  o public.mixtapes%rowtype;
  side text;
begin
  select * into o from public.mixtapes where code = p_code;
  if not found then
    return false;
  end if;
  if public.is_mixer() then
    side := 'mixer';
  elsif o.user_id = auth.uid() then
    side := 'shopper';
  else
    return false;
  end if;
  insert into public.order_reads (order_id, reader, read_at) values (o.id, side, now())
  on conflict (order_id, reader) do update set read_at = excluded.read_at;
  return true;
end;
$$;
revoke execute on function public.mark_order_read(text) from public;
grant execute on function public.mark_order_read(text) to authenticated;

-- ---- Message emails --------------------------------------------------------------------
alter table public.order_emails add column message_id bigint references public.order_messages (id) on delete cascade;
alter table public.order_emails drop constraint order_emails_once;
alter table public.order_emails add constraint order_emails_once unique nulls not distinct (order_id, kind, recipient, message_id);
alter table public.order_emails drop constraint order_emails_kind;
alter table public.order_emails add constraint order_emails_kind
  check (kind in ('received', 'new_order', 'sent', 'paid', 'refunded', 'cancelled', 'message'));

-- A message from the shopper goes to every mixer; one from a mixer, to the shopper.
create function public.queue_message_emails() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.from_mixer then
    insert into public.order_emails (order_id, kind, recipient, message_id)
    select new.order_id, 'message', u.email, new.id
      from public.mixtapes m join auth.users u on u.id = m.user_id
     where m.id = new.order_id and u.email is not null;
  else
    insert into public.order_emails (order_id, kind, recipient, message_id)
    select new.order_id, 'message', x.email, new.id from public.mixers x;
  end if;
  return null;
end;
$$;
create trigger order_messages_queue_emails
  after insert on public.order_messages
  for each row execute function public.queue_message_emails();

-- The worker's claim also answers the message an email is about (null for the others).
drop function public.claim_order_emails(integer);
create function public.claim_order_emails(batch integer) returns table (
  id bigint, kind text, recipient text, attempts integer, order_row jsonb, username text, email text, message jsonb
)
language sql
security definer
set search_path = ''
as $$
  with due as (
    select e.id from public.order_emails e
     where e.sent_at is null and e.next_attempt_at <= now() and (e.locked_until is null or e.locked_until < now())
     order by e.id
     limit least(greatest(batch, 1), 100)
     for update skip locked
  ), claimed as (
    update public.order_emails e
       set locked_until = now() + interval '5 minutes', attempts = e.attempts + 1
      from due where e.id = due.id
    returning e.id, e.kind, e.recipient, e.attempts, e.order_id, e.message_id
  )
  select c.id, c.kind, c.recipient, c.attempts, to_jsonb(m), p.username, p.email, to_jsonb(msg)
    from claimed c
    join public.mixtapes m on m.id = c.order_id
    left join public.profiles p on p.id = m.user_id
    left join public.order_messages msg on msg.id = c.message_id
   order by c.id;
$$;
revoke execute on function public.claim_order_emails(integer) from public, anon, authenticated;
