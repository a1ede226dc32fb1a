-- The shopper owns the account: an account can be deleted, its email changed,
-- and its data read in one go.
--
-- Deleting an account (auth.users: the SQL modes' own delete, or Supabase's admin API)
-- keeps what the mixer's books need and erases the person, in the delete's transaction:
-- - every order still received and unpaid is cancelled by its shopper (the mixers are told);
-- - every order stays, anonymised: code, tracks, options, design, codename, amounts and
--   dates are kept; the link to the account (user_id) and the note are cleared, and the
--   profile (username, email) is deleted, so the console shows "Deleted account";
-- - the conversations on those orders, the shopper's read marks, and every queued or sent
--   order email to the account's address are deleted; sessions, email links and reset
--   windows go with the account (their keys cascade).

-- ---- Orders outlive their shopper's account ------------------------------------------
alter table public.mixtapes alter column user_id drop not null;
alter table public.mixtapes drop constraint mixtapes_user_id_fkey;
alter table public.mixtapes
  add constraint mixtapes_user_id_fkey foreign key (user_id) references auth.users (id) on delete set null;
-- Kept under its name: the console's embedded read (profiles(username, email)) goes through it.
alter table public.mixtapes drop constraint mixtapes_user_profile_fkey;
alter table public.mixtapes
  add constraint mixtapes_user_profile_fkey foreign key (user_id) references public.profiles (id) on delete set null;

-- The lifecycle's rules, as in 20261127000000_shop_runs_itself.sql, plus the erasure: as the
-- owner (never as an API role), the link to a person (the shopper, the authors of changes)
-- and the note may be cleared, and nothing else changes with them.
create or replace function public.mixtapes_transition() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  actor uuid := auth.uid();
  erasable constant text[] := array['user_id', 'note', 'mixing_by', 'sent_by', 'paid_by', 'cancelled_by', 'refunded_by', 'finished'];
begin
  if current_user not in ('anon', 'authenticated', 'service_role')
     and (to_jsonb(new) - erasable) = (to_jsonb(old) - erasable)
     and (new.user_id is null or new.user_id = old.user_id)
     and (new.note = '' or new.note = old.note)
     and (new.mixing_by is null or new.mixing_by = old.mixing_by)
     and (new.sent_by is null or new.sent_by = old.sent_by)
     and (new.paid_by is null or new.paid_by = old.paid_by)
     and (new.cancelled_by is null or new.cancelled_by = old.cancelled_by)
     and (new.refunded_by is null or new.refunded_by = old.refunded_by) then
    return new;
  end if;
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

-- ---- Deleting an account --------------------------------------------------------------
create function public.erase_account() returns trigger
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
  delete from public.order_emails where lower(recipient) = lower(old.email);
  update public.mixtapes set user_id = null, note = '' where user_id = old.id;
  return old;
end;
$$;

create trigger on_auth_user_deleted
  before delete on auth.users
  for each row execute function public.erase_account();

-- ---- Changing an email: the console's copy follows the account's address ---------------
create function public.handle_user_email_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set email = new.email where id = new.id;
  return null;
end;
$$;

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row
  when (old.email is distinct from new.email)
  execute function public.handle_user_email_change();

-- ---- The shopper's data: the order emails sent to their address, about their orders -----
create function public.my_order_emails() returns table (kind text, code text, created_at timestamptz, sent_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select e.kind, m.code, e.created_at, e.sent_at
    from public.order_emails e
    join public.mixtapes m on m.id = e.order_id
    join auth.users u on u.id = m.user_id
   where m.user_id = (select auth.uid()) and lower(e.recipient) = lower(u.email)
   order by e.created_at, e.id;
$$;
revoke execute on function public.my_order_emails() from public, anon;
grant execute on function public.my_order_emails() to authenticated;
