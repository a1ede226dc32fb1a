-- Supabase shim, fourth part: what the embedded auth needs for the shopper's own account
-- (deleting it, changing its email). An email change waits in auth.users.email_change
-- (GoTrue's column) until the link sent to the new address is opened; that link is an
-- 'email_change' one-time token (1 hour, SHA-256 only, single use). The email worker sends
-- the link and the notice to the old address from an 'email_change' request, so the answer
-- is the same work for an address that belongs to another account.
alter table auth.users add column if not exists email_change text;

alter table auth.one_time_tokens drop constraint if exists one_time_tokens_token_type_check;
alter table auth.one_time_tokens
  add constraint one_time_tokens_token_type_check check (token_type in ('signup', 'recovery', 'email_change'));

alter table auth.email_requests drop constraint if exists email_requests_kind_check;
alter table auth.email_requests add constraint email_requests_kind_check check (kind in ('signup', 'recovery', 'email_change'));
-- The account an email change belongs to (the request's email is the new address).
alter table auth.email_requests add column if not exists user_id uuid references auth.users (id) on delete cascade;
-- When the change was asked for: it waits for one hour (its link's lifetime), as GoTrue's column.
alter table auth.users add column if not exists email_change_sent_at timestamptz;
