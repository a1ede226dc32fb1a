-- Supabase shim, second part: the embedded auth's one-time tokens also serve password
-- recovery (GoTrue keeps a recovery token beside the confirmation token). Applied once,
-- after db/shim.sql, on new and existing data dirs alike.

alter table auth.one_time_tokens drop constraint if exists one_time_tokens_token_type_check;
alter table auth.one_time_tokens
  add constraint one_time_tokens_token_type_check check (token_type in ('signup', 'recovery'));

-- Issuing a token removes the user's older unused ones of the same type.
create index if not exists one_time_tokens_user_type_idx on auth.one_time_tokens (user_id, token_type);
