-- Indexes in the exact order of the two pages that list orders, ending in the id that
-- breaks ties, so a page streams from the index with no sort step however many orders
-- there are: the console's queue (open orders first, oldest first) and a shopper's My
-- Mixtapes (newest first). Each replaces an index without the id: an order insert still
-- updates as many indexes as before (docs/performance.md, the /mixer profile).
drop index if exists public.mixtapes_queue_idx;
create index mixtapes_queue_idx on public.mixtapes (finished, created_at, id);
drop index if exists public.mixtapes_user_created_idx;
create index mixtapes_user_created_idx on public.mixtapes (user_id, created_at desc, id desc);
