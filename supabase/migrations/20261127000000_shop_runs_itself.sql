-- The shop runs itself: cancellations, payments confirmed by the checkout (one row per
-- provider event), refunds, the shop's own settings (open, closed message, most open
-- orders) checked in the insert's transaction, and the order emails these changes send.

-- ---- Statuses: cancelled, from received or mixing ------------------------------------
alter table public.mixtapes drop constraint mixtapes_status;
alter table public.mixtapes add constraint mixtapes_status check (status in ('received', 'mixing', 'sent', 'cancelled'));
-- Sent and cancelled orders sort after the open ones (the queue's index is rebuilt with it).
alter table public.mixtapes drop column finished;
alter table public.mixtapes add column finished boolean generated always as (status in ('sent', 'cancelled')) stored;
create index mixtapes_queue_idx on public.mixtapes (finished, created_at, id);
-- Open orders, oldest first: the capacity count and the console's "Late" filter.
create index mixtapes_open_idx on public.mixtapes (created_at, id) where status in ('received', 'mixing');

alter table public.mixtapes
  -- The tape's codename as the shopper saw it on the cover card.
  add column codename text,
  add column cancelled_at timestamptz,
  add column cancelled_by uuid references auth.users (id) on delete set null,
  add column cancel_reason text,
  -- Payment: how much, in which currency (minor units: 1200 USD is $12.00), by whom.
  add column paid_amount integer,
  add column paid_currency text,
  add column paid_via text,
  add column payment_ref text,
  add column refunded boolean not null default false,
  add column refunded_at timestamptz,
  add column refunded_by uuid references auth.users (id) on delete set null,
  add constraint mixtapes_codename check (codename ~ '^[A-Z0-9 -]{1,60}$'),
  add constraint mixtapes_cancel_reason_length check (char_length(cancel_reason) <= 500),
  add constraint mixtapes_paid_amount check (paid_amount >= 0),
  add constraint mixtapes_paid_currency check (paid_currency ~ '^[A-Z]{3}$'),
  add constraint mixtapes_paid_via check (paid_via in ('manual', 'stripe', 'lemonsqueezy', 'checkout')),
  add constraint mixtapes_payment_ref_length check (char_length(payment_ref) <= 200);
create index mixtapes_payment_ref_idx on public.mixtapes (paid_via, payment_ref) where payment_ref is not null;

-- A shopper cancels their own order (the trigger allows nothing else); mixers cancel and refund.
create policy "mixtapes: shoppers cancel their own" on public.mixtapes
  for update to authenticated
  using ((select auth.uid()) = user_id)
  with check ((select auth.uid()) = user_id);
grant update (cancel_reason, refunded) on public.mixtapes to authenticated;
grant insert (codename) on public.mixtapes to authenticated;

create or replace function public.mixtapes_transition() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  actor uuid := auth.uid();
begin
  -- On Supabase, default privileges grant table-wide UPDATE: the column grants alone
  -- do not protect the order's contents there.
  if (new.id, new.user_id, new.code, new.tracks, new.toggles, new.note, new.design_id, new.created_at, new.codename)
     is distinct from (old.id, old.user_id, old.code, old.tracks, old.toggles, old.note, old.design_id, old.created_at, old.codename) then
    raise exception 'an order''s contents never change' using errcode = '42501';
  end if;
  if (new.mixing_at, new.mixing_by, new.sent_at, new.sent_by, new.paid_at, new.paid_by,
      new.cancelled_at, new.cancelled_by, new.refunded_at, new.refunded_by)
     is distinct from (old.mixing_at, old.mixing_by, old.sent_at, old.sent_by, old.paid_at, old.paid_by,
      old.cancelled_at, old.cancelled_by, old.refunded_at, old.refunded_by) then
    raise exception 'the times and authors of changes are recorded, never written' using errcode = '42501';
  end if;
  -- A shopper (signed in, not a mixer) only cancels their own order while it is received.
  if actor is not null and not public.is_mixer() then
    if not (actor = old.user_id and old.status = 'received' and new.status = 'cancelled')
       or (new.paid, new.paid_via, new.paid_amount, new.paid_currency, new.payment_ref, new.refunded,
           new.delivery_url, new.mixer_message)
          is distinct from (old.paid, old.paid_via, old.paid_amount, old.paid_currency, old.payment_ref, old.refunded,
           old.delivery_url, old.mixer_message) then
      raise exception 'a shopper only cancels their own order, while it is received' using errcode = '42501';
    end if;
  end if;
  if new.status is distinct from old.status then
    if not ((old.status = 'received' and new.status in ('mixing', 'cancelled'))
            or (old.status = 'mixing' and new.status in ('sent', 'cancelled'))) then
      raise exception 'an order cannot go from % to %', old.status, new.status using errcode = '23514';
    end if;
    if new.status = 'mixing' then
      new.mixing_at := now();
      new.mixing_by := actor;
    elsif new.status = 'sent' then
      new.sent_at := now();
      new.sent_by := actor;
    else
      new.cancelled_at := now();
      new.cancelled_by := actor;
    end if;
  end if;
  if (new.delivery_url, new.mixer_message) is distinct from (old.delivery_url, old.mixer_message)
     and not (old.status = 'mixing' and new.status = 'sent') then
    raise exception 'the delivery link and message are set when the order is sent' using errcode = '23514';
  end if;
  if new.cancel_reason is distinct from old.cancel_reason and not (new.status = 'cancelled' and old.status <> 'cancelled') then
    raise exception 'the reason comes with the cancellation' using errcode = '23514';
  end if;
  if (new.paid, new.paid_via, new.paid_amount, new.paid_currency, new.payment_ref)
     is distinct from (old.paid, old.paid_via, old.paid_amount, old.paid_currency, old.payment_ref) then
    if old.paid then
      raise exception 'a payment mark cannot be taken back or changed' using errcode = '23514';
    end if;
    if not new.paid then
      raise exception 'payment details come with the payment mark' using errcode = '23514';
    end if;
    new.paid_via := coalesce(new.paid_via, 'manual');
    new.paid_at := now();
    new.paid_by := actor;
  end if;
  if new.refunded is distinct from old.refunded then
    if old.refunded or not old.paid then
      raise exception 'only a paid order is refunded, once' using errcode = '23514';
    end if;
    new.refunded_at := now();
    new.refunded_by := actor;
  end if;
  return new;
end;
$$;

-- ---- The shop's settings: one row ----------------------------------------------------
create table public.shop_settings (
  id boolean primary key default true,
  open boolean not null default true,
  closed_message text not null default '',
  -- Received plus mixing; null: no limit.
  max_open_orders integer,
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null,
  constraint shop_settings_one_row check (id),
  constraint shop_settings_closed_message_length check (char_length(closed_message) <= 200),
  constraint shop_settings_max_open_orders check (max_open_orders between 0 and 100000)
);
insert into public.shop_settings default values;
alter table public.shop_settings enable row level security;
create policy "shop_settings: everyone reads" on public.shop_settings for select to anon, authenticated using (true);
create policy "shop_settings: mixers change" on public.shop_settings
  for update to authenticated
  using ((select public.is_mixer()))
  with check ((select public.is_mixer()));
revoke all on public.shop_settings from anon, authenticated;
grant select on public.shop_settings to anon, authenticated;
grant update (open, closed_message, max_open_orders) on public.shop_settings to authenticated;

create function public.shop_settings_stamp() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.id := true;
  new.updated_at := now();
  new.updated_by := auth.uid();
  return new;
end;
$$;
create trigger shop_settings_stamp before update on public.shop_settings
  for each row execute function public.shop_settings_stamp();

-- What the storefront shows: open or not, the message, and whether the queue is full.
create function public.shop_status() returns table (open boolean, closed_message text, is_full boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select s.open, s.closed_message,
         s.max_open_orders is not null
           and (select count(*) from public.mixtapes m where m.status in ('received', 'mixing')) >= s.max_open_orders
    from public.shop_settings s;
$$;
revoke execute on function public.shop_status() from public;
grant execute on function public.shop_status() to anon, authenticated;

-- Every new order passes the shop's settings in its own transaction. The settings row is
-- locked while a limit is set, so concurrent transmits count one at a time.
create function public.mixtapes_admit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  s public.shop_settings%rowtype;
  n bigint;
begin
  select * into s from public.shop_settings;
  if not found then
    return new;
  end if;
  if not s.open then
    raise exception 'The shop is closed' using errcode = 'MXCLS', hint = s.closed_message;
  end if;
  if s.max_open_orders is not null then
    select * into s from public.shop_settings for update;
    select count(*) into n from public.mixtapes where status in ('received', 'mixing');
    if n >= s.max_open_orders then
      raise exception 'The queue is full' using errcode = 'MXFUL';
    end if;
  end if;
  return new;
end;
$$;
create trigger mixtapes_admit before insert on public.mixtapes
  for each row execute function public.mixtapes_admit();

-- ---- Payment events: each provider event once ---------------------------------------
create table public.payment_events (
  provider text not null,
  event_id text not null,
  kind text not null,
  -- The order code the checkout gave (anything, as sent), the amount in minor units.
  code text,
  amount integer,
  currency text,
  reference text,
  order_id bigint references public.mixtapes (id) on delete set null,
  received_at timestamptz not null default now(),
  primary key (provider, event_id),
  constraint payment_events_provider check (provider in ('stripe', 'lemonsqueezy', 'checkout')),
  constraint payment_events_kind check (kind in ('payment', 'refund')),
  constraint payment_events_lengths check (
    char_length(event_id) <= 200 and char_length(code) <= 100 and char_length(currency) <= 10 and char_length(reference) <= 200
  )
);
create index payment_events_unmatched_idx on public.payment_events (received_at desc) where order_id is null and kind = 'payment';
alter table public.payment_events enable row level security;
create policy "payment_events: mixers read" on public.payment_events for select to authenticated using ((select public.is_mixer()));
revoke all on public.payment_events from anon, authenticated;
grant select on public.payment_events to authenticated;

-- One provider event, in one transaction with the order change it causes. Answers what
-- happened: duplicate, paid, already_paid, unmatched, refunded, already_refunded.
create function public.record_payment_event(
  p_provider text, p_event_id text, p_kind text, p_code text, p_amount integer, p_currency text, p_reference text
) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  o public.mixtapes%rowtype;
begin
  insert into public.payment_events (provider, event_id, kind, code, amount, currency, reference)
  values (p_provider, p_event_id, p_kind, p_code, p_amount, upper(p_currency), p_reference)
  on conflict do nothing;
  if not found then
    return 'duplicate';
  end if;
  if p_kind = 'payment' then
    select * into o from public.mixtapes where code = upper(btrim(p_code)) for update;
  else
    select * into o from public.mixtapes
     where paid_via = p_provider and payment_ref = p_reference and p_reference is not null for update;
    if not found then
      select * into o from public.mixtapes where code = upper(btrim(p_code)) for update;
    end if;
  end if;
  if not found then
    return 'unmatched';
  end if;
  update public.payment_events set order_id = o.id where provider = p_provider and event_id = p_event_id;
  if p_kind = 'payment' then
    if o.paid then
      return 'already_paid';
    end if;
    update public.mixtapes
       set paid = true, paid_via = p_provider, paid_amount = p_amount, paid_currency = upper(p_currency), payment_ref = p_reference
     where id = o.id;
    return 'paid';
  end if;
  if o.refunded or not o.paid then
    return 'already_refunded';
  end if;
  update public.mixtapes set refunded = true where id = o.id;
  return 'refunded';
end;
$$;
revoke execute on function public.record_payment_event(text, text, text, text, integer, text, text) from public, anon, authenticated;

-- A mixer attaches a payment that came without a known code to an order: attached,
-- no_order, already_paid, or gone (not an unattached payment).
create function public.attach_payment(p_provider text, p_event_id text, p_code text) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  e public.payment_events%rowtype;
  o public.mixtapes%rowtype;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer attaches a payment' using errcode = '42501';
  end if;
  select * into e from public.payment_events
   where provider = p_provider and event_id = p_event_id and kind = 'payment' and order_id is null for update;
  if not found then
    return 'gone';
  end if;
  select * into o from public.mixtapes where code = upper(btrim(p_code)) for update;
  if not found then
    return 'no_order';
  end if;
  if o.paid then
    return 'already_paid';
  end if;
  update public.payment_events set order_id = o.id where provider = e.provider and event_id = e.event_id;
  update public.mixtapes
     set paid = true, paid_via = e.provider, paid_amount = e.amount, paid_currency = e.currency, payment_ref = e.reference
   where id = o.id;
  return 'attached';
end;
$$;
revoke execute on function public.attach_payment(text, text, text) from public, anon;
grant execute on function public.attach_payment(text, text, text) to authenticated;

-- ---- Order emails: paid, refunded, cancelled ----------------------------------------
alter table public.order_emails drop constraint order_emails_kind;
alter table public.order_emails add constraint order_emails_kind
  check (kind in ('received', 'new_order', 'sent', 'paid', 'refunded', 'cancelled'));

create or replace function public.queue_order_emails() returns trigger
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
    return null;
  end if;
  if new.status = 'sent' and old.status is distinct from 'sent' then
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'sent', u.email from auth.users u where u.id = new.user_id and u.email is not null;
  end if;
  if new.status = 'cancelled' and old.status is distinct from 'cancelled' then
    if new.cancelled_by is not distinct from new.user_id then
      insert into public.order_emails (order_id, kind, recipient)
      select new.id, 'cancelled', m.email from public.mixers m;
    else
      insert into public.order_emails (order_id, kind, recipient)
      select new.id, 'cancelled', u.email from auth.users u where u.id = new.user_id and u.email is not null;
    end if;
  end if;
  if new.paid and not old.paid then
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'paid', u.email from auth.users u where u.id = new.user_id and u.email is not null;
  end if;
  if new.refunded and not old.refunded then
    insert into public.order_emails (order_id, kind, recipient)
    select new.id, 'refunded', u.email from auth.users u where u.id = new.user_id and u.email is not null;
  end if;
  return null;
end;
$$;

drop trigger mixtapes_queue_emails on public.mixtapes;
create trigger mixtapes_queue_emails
  after insert or update of status, paid, refunded on public.mixtapes
  for each row execute function public.queue_order_emails();

-- The worker's claim answers the whole order row, so a new column never changes its shape.
drop function public.claim_order_emails(integer);
create function public.claim_order_emails(batch integer) returns table (
  id bigint, kind text, recipient text, attempts integer, order_row jsonb, username text, email text
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
  select c.id, c.kind, c.recipient, c.attempts, to_jsonb(m), p.username, p.email
    from claimed c
    join public.mixtapes m on m.id = c.order_id
    left join public.profiles p on p.id = m.user_id
   order by c.id;
$$;
revoke execute on function public.claim_order_emails(integer) from public, anon, authenticated;
