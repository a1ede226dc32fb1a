-- Seed data for `supabase start` / `supabase db reset`. The catalogue of 30 songs
-- and 4 designs is fixed in the app (app/domain/catalogue.ts), and shoppers sign up
-- through the app, so nothing needs seeding. This file exists so the CLI finds it.
select 1;
