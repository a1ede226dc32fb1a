-- Usernames are unique whatever their case: "ALICE_A" can no longer sign up beside
-- "alice_a", and the login lookup ignores case.
-- Accounts that already clash keep their usernames and log in as before: the earliest
-- keeps the name, each later one is flagged (username_clash) and left out of the
-- unique index. README, "Usernames", says how to settle a flagged clash.
alter table public.profiles add column username_clash boolean not null default false;

update public.profiles p
   set username_clash = true
 where p.username is not null
   and exists (
     select 1 from public.profiles q
      where lower(q.username) = lower(p.username)
        and (q.created_at, q.id) < (p.created_at, p.id)
   );

create unique index profiles_username_lower_key on public.profiles (lower(username)) where not username_clash;

create or replace function public.username_exists(p_username text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.profiles where lower(username) = lower(p_username));
$$;
