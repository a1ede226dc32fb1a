-- The order lifecycle: mixers, order status and payment, and the order emails queue.
-- Orders placed before this migration read as received and unpaid.

-- ---- Mixers ---------------------------------------------------------------------
-- The mixer accounts, by email address (lower case). The SQL modes keep this table in
-- step with MIXER_EMAILS on start; on Supabase, insert the addresses (README).
create table public.mixers (
  email text primary key,
  constraint mixers_email_lower check (email = lower(email))
);
alter table public.mixers enable row level security;
revoke all on public.mixers from anon, authenticated;
-- No policy: nobody reads or writes it through the API.

-- True when the caller's account is a mixer.
create function public.is_mixer() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.users u join public.mixers m on m.email = lower(u.email)
     where u.id = (select auth.uid())
  );
$$;
revoke execute on function public.is_mixer() from public;
grant execute on function public.is_mixer() to authenticated;

-- ---- Profiles: the shopper's email, for the mixer's console ----------------------
alter table public.profiles add column email text;
update public.profiles p set email = u.email from auth.users u where u.id = p.id;

create or replace function public.handle_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, username, email)
  values (new.id, nullif(btrim(new.raw_user_meta_data ->> 'username'), ''), new.email);
  return new;
end;
$$;

create policy "profiles: mixers read all" on public.profiles
  for select to authenticated
  using ((select public.is_mixer()));

-- ---- Order status and payment ---------------------------------------------------
alter table public.mixtapes
  add column status text not null default 'received',
  add column finished boolean generated always as (status = 'sent') stored,
  add column mixing_at timestamptz,
  add column mixing_by uuid references auth.users (id) on delete set null,
  add column sent_at timestamptz,
  add column sent_by uuid references auth.users (id) on delete set null,
  add column paid boolean not null default false,
  add column paid_at timestamptz,
  add column paid_by uuid references auth.users (id) on delete set null,
  add column delivery_url text,
  add column mixer_message text,
  add constraint mixtapes_status check (status in ('received', 'mixing', 'sent')),
  add constraint mixtapes_delivery_url check (delivery_url ~ '^https://[^\s]+$' and char_length(delivery_url) <= 2000),
  add constraint mixtapes_mixer_message_length check (char_length(mixer_message) <= 500),
  -- The shopper's profile, for the console's embedded read (every user has one).
  add constraint mixtapes_user_profile_fkey foreign key (user_id) references public.profiles (id) on delete cascade;

create index mixtapes_queue_idx on public.mixtapes (finished, created_at);

-- A shopper inserts only the order itself; status and payment start as received, unpaid.
revoke insert on public.mixtapes from authenticated;
grant insert (user_id, code, tracks, toggles, note, design_id) on public.mixtapes to authenticated;

create policy "mixtapes: mixers read all" on public.mixtapes
  for select to authenticated
  using ((select public.is_mixer()));

create policy "mixtapes: mixers update" on public.mixtapes
  for update to authenticated
  using ((select public.is_mixer()))
  with check ((select public.is_mixer()));

grant update (status, paid, delivery_url, mixer_message) on public.mixtapes to authenticated;

-- Transitions only go forward (received, mixing, sent), payment is marked once, the
-- delivery link and message come with "sent", and each change records when and by
-- whom. The order's own contents never change.
create function public.mixtapes_transition() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- On Supabase, default privileges grant table-wide UPDATE: the column grant alone
  -- does not protect the order's contents there.
  if (new.id, new.user_id, new.code, new.tracks, new.toggles, new.note, new.design_id, new.created_at)
     is distinct from (old.id, old.user_id, old.code, old.tracks, old.toggles, old.note, old.design_id, old.created_at) then
    raise exception 'an order''s contents never change' using errcode = '42501';
  end if;
  if new.status is distinct from old.status then
    if not ((old.status = 'received' and new.status = 'mixing') or (old.status = 'mixing' and new.status = 'sent')) then
      raise exception 'an order cannot go from % to %', old.status, new.status using errcode = '23514';
    end if;
    if new.status = 'mixing' then
      new.mixing_at := now();
      new.mixing_by := auth.uid();
    else
      new.sent_at := now();
      new.sent_by := auth.uid();
    end if;
  end if;
  if (new.delivery_url, new.mixer_message) is distinct from (old.delivery_url, old.mixer_message)
     and not (old.status = 'mixing' and new.status = 'sent') then
    raise exception 'the delivery link and message are set when the order is sent' using errcode = '23514';
  end if;
  if new.paid is distinct from old.paid then
    if old.paid then
      raise exception 'a payment mark cannot be taken back' using errcode = '23514';
    end if;
    new.paid_at := now();
    new.paid_by := auth.uid();
  end if;
  if (new.mixing_at, new.mixing_by, new.sent_at, new.sent_by, new.paid_at, new.paid_by)
     is distinct from (old.mixing_at, old.mixing_by, old.sent_at, old.sent_by, old.paid_at, old.paid_by)
     and new.status is not distinct from old.status and new.paid is not distinct from old.paid then
    raise exception 'the times and authors of changes are recorded, never written' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger mixtapes_transition
  before update on public.mixtapes
  for each row execute function public.mixtapes_transition();

-- ---- Order emails ----------------------------------------------------------------
-- Queued in the same transaction as the change that causes them; the server's worker
-- sends them and retries with backoff, so an SMTP outage delays an email, never an order.
create table public.order_emails (
  id bigint generated always as identity primary key,
  order_id bigint not null references public.mixtapes (id) on delete cascade,
  kind text not null,
  recipient text not null,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  sent_at timestamptz,
  last_error text,
  constraint order_emails_kind check (kind in ('received', 'new_order', 'sent')),
  constraint order_emails_once unique (order_id, kind, recipient)
);
create index order_emails_due_idx on public.order_emails (next_attempt_at) where sent_at is null;
alter table public.order_emails enable row level security;
revoke all on public.order_emails from anon, authenticated;
-- No policy: only the server's worker (the table owner, or Supabase's service role).

create function public.queue_order_emails() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'received', u.email from auth.users u where u.id = new.user_id and u.email is not null;
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'new_order', m.email from public.mixers m;
  elsif new.status = 'sent' and old.status is distinct from 'sent' then
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'sent', u.email from auth.users u where u.id = new.user_id and u.email is not null;
  end if;
  return null;
end;
$$;

create trigger mixtapes_queue_emails
  after insert or update of status on public.mixtapes
  for each row execute function public.queue_order_emails();

-- The worker's two calls. claim: up to `batch` due emails, leased for 5 minutes, with
-- what each needs to be written. finish: sent (error null) or retried later with backoff.
create function public.claim_order_emails(batch integer) returns table (
  id bigint, kind text, recipient text, attempts integer,
  code text, tracks jsonb, toggles jsonb, note text, design_id text, created_at timestamptz,
  delivery_url text, mixer_message text, username text, email text
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
    returning e.id, e.kind, e.recipient, e.attempts, e.order_id
  )
  select c.id, c.kind, c.recipient, c.attempts,
         m.code, m.tracks, m.toggles, m.note, m.design_id, m.created_at, m.delivery_url, m.mixer_message,
         p.username, p.email
    from claimed c
    join public.mixtapes m on m.id = c.order_id
    left join public.profiles p on p.id = m.user_id
   order by c.id;
$$;

create function public.finish_order_email(email_id bigint, error text) returns void
language sql
security definer
set search_path = ''
as $$
  update public.order_emails
     set sent_at = case when error is null then now() end,
         last_error = left(error, 500),
         locked_until = null,
         next_attempt_at = case when error is null then next_attempt_at
                                else now() + least(interval '5 seconds' * power(2, least(attempts - 1, 10)), interval '1 hour') end
   where id = email_id;
$$;

revoke execute on function public.claim_order_emails(integer) from public, anon, authenticated;
revoke execute on function public.finish_order_email(bigint, text) from public, anon, authenticated;
