-- Supabase shim, third part: the embedded auth's email requests. "Forgot password" and
-- "resend confirmation" store a request, the same work for any address; the server's
-- email worker later looks the address up and sends the link, or nothing, retrying while
-- SMTP is down. So neither the answer nor its time says whether an address has an account.
create table if not exists auth.email_requests (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('signup', 'recovery')),
  email text not null,
  redirect_to text not null,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  done_at timestamptz,
  last_error text
);
create index if not exists email_requests_due_idx on auth.email_requests (next_attempt_at) where done_at is null;
revoke all on auth.email_requests from anon, authenticated;
