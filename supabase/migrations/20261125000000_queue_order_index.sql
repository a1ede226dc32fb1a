-- The console's two orders in full (queue: open orders first, oldest first; "sent":
-- newest first), ending in the id that breaks ties: a page streams from the index with
-- no sort step, whatever the number of orders (docs/performance.md, the /mixer profile).
drop index if exists public.mixtapes_queue_idx;
create index mixtapes_queue_idx on public.mixtapes (finished, created_at, id);
create index mixtapes_created_idx on public.mixtapes (created_at, id);
