-- The shop is the DJ's: the songs, the cover designs, the cover card's three backgrounds and the
-- shop's words are rows the mixers edit in the console, seeded with the spec's library (ids "1"
-- to "30", its previews and thumbnails under public/) and its four designs, so a fresh shop looks
-- as it did. Everyone, signed out too, reads them; only mixers write. An order keeps the design it
-- was sold with (its name and image), as its tracks already keep their title, thumbnail and preview.

-- A media path: this site's own file (public/ or /media/ from the Storage port), never a URL of
-- another site or a scheme.
create function public.is_media_path(p text) returns boolean
language sql
immutable
set search_path = ''
as $$
  select p ~ '^/[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)*$' and position('..' in p) = 0 and char_length(p) <= 300;
$$;

-- ---- Songs ---------------------------------------------------------------------------
create sequence public.songs_id_seq start with 31;
create table public.songs (
  id text primary key default nextval('public.songs_id_seq')::text,
  -- The mixer's order on the storefront (Move up / Move down swap two songs).
  position integer not null,
  title text not null,
  thumbnail text not null,
  preview_url text not null,
  active boolean not null default true,
  -- Bumped by every change of what a shopper sees, so a save made from an older page is refused.
  version integer not null default 1,
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null,
  constraint songs_id check (id ~ '^[1-9][0-9]{0,8}$'),
  constraint songs_title check (char_length(btrim(title)) between 1 and 80 and title !~ '[[:cntrl:]]'),
  constraint songs_thumbnail check (public.is_media_path(thumbnail)),
  constraint songs_preview_url check (public.is_media_path(preview_url))
);
alter sequence public.songs_id_seq owned by public.songs.id;

insert into public.songs (id, position, title, thumbnail, preview_url)
select n::text, n, t.title, format('/art/thumbs/%s.svg', lpad(n::text, 2, '0')), format('/previews/%s.mp3', lpad(n::text, 2, '0'))
  from unnest(array[
    'Static Over Babylon', 'Pirate Frequency', 'Neon Curfew', 'Signal Jammer', 'Concrete Lullaby',
    'Midnight Dub Relay', 'Tape Hiss Heaven', 'Rebel Broadcast', 'Underground Transit', 'Ghost in the Deck',
    'Cassette Insurgent', 'Low Battery Love', 'Rooftop Antenna', 'Encrypted Heartbeat', 'Basement Sunrise',
    'Riot of Reverb', 'Analog Resistance', 'Velvet Blackout', 'Subway Seance', 'Dead Air Dance',
    'Warehouse Prayer', 'Counterfeit Moon', 'Graffiti Radio', 'Smuggled Bassline', 'Sodium Streetlight',
    'Rewind the System', 'Night Bus Anthem', 'Off-Grid Groove', 'Wiretap Waltz', 'Last Transmission'
  ]) with ordinality as t(title, n);

-- ---- Designs -------------------------------------------------------------------------
create sequence public.designs_id_seq start with 5;
create table public.designs (
  id text primary key default 'design-' || nextval('public.designs_id_seq'),
  position integer not null,
  name text not null,
  image text not null,
  -- One of the art's own colours, for the insights' chart.
  colour text not null default '#b9b2c7',
  active boolean not null default true,
  version integer not null default 1,
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null,
  constraint designs_id check (id ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
  constraint designs_name check (char_length(btrim(name)) between 1 and 40 and name !~ '[[:cntrl:]]'),
  constraint designs_image check (public.is_media_path(image)),
  constraint designs_colour check (colour ~ '^#[0-9a-f]{6}$')
);
alter sequence public.designs_id_seq owned by public.designs.id;

insert into public.designs (id, position, name, image, colour) values
  ('ice-cold', 1, 'ice cold', '/art/designs/ice-cold.svg', '#9fd8ff'),
  ('system-burnout', 2, 'system burnout', '/art/designs/system-burnout.svg', '#ff5a1f'),
  ('high-voltage', 3, 'high voltage', '/art/designs/high-voltage.svg', '#ffd23f'),
  ('unicorn-mix', 4, 'unicorn mix', '/art/designs/unicorn-mix.svg', '#ff8fab');

-- ---- The cover card's three backgrounds ---------------------------------------------
create table public.cover_backgrounds (
  slot smallint primary key,
  image text not null,
  version integer not null default 1,
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null,
  constraint cover_backgrounds_slot check (slot between 0 and 2),
  constraint cover_backgrounds_image check (public.is_media_path(image))
);
insert into public.cover_backgrounds (slot, image) values
  (0, '/art/covers/bg-1.svg'), (1, '/art/covers/bg-2.svg'), (2, '/art/covers/bg-3.svg');

-- ---- Versions and stamps -------------------------------------------------------------
create function public.catalogue_stamp() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    -- An author's account going (on delete set null) is not a change of the row.
    if (to_jsonb(new) - 'updated_by') = (to_jsonb(old) - 'updated_by') then
      return new;
    end if;
    new.version := old.version;
    -- A reorder moves the position only: a save typed meanwhile still goes through.
    if (to_jsonb(new) - array['position', 'version', 'updated_at', 'updated_by'])
       is distinct from (to_jsonb(old) - array['position', 'version', 'updated_at', 'updated_by']) then
      new.version := old.version + 1;
    end if;
  else
    new.version := 1;
  end if;
  new.updated_at := now();
  new.updated_by := auth.uid();
  return new;
end;
$$;
create trigger songs_stamp before insert or update on public.songs for each row execute function public.catalogue_stamp();
create trigger designs_stamp before insert or update on public.designs for each row execute function public.catalogue_stamp();
create trigger cover_backgrounds_stamp before insert or update on public.cover_backgrounds
  for each row execute function public.catalogue_stamp();

-- The shop needs at least one song on sale. Retirements wait for each other (the lock), so two
-- mixers retiring the last two songs at once cannot both succeed.
create function public.songs_keep_one() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(7243046);
  if not exists (select 1 from public.songs where active) then
    raise exception 'the shop needs at least one song' using errcode = 'MXONE';
  end if;
  return null;
end;
$$;
create trigger songs_keep_one after update of active or delete on public.songs
  for each row execute function public.songs_keep_one();

-- ---- Who reads and writes ------------------------------------------------------------
-- Everyone reads every row, retired ones too: a deck that holds a retired song still names it.
alter table public.songs enable row level security;
alter table public.designs enable row level security;
alter table public.cover_backgrounds enable row level security;
create policy "songs: everyone reads" on public.songs for select to anon, authenticated using (true);
create policy "songs: mixers add" on public.songs for insert to authenticated with check ((select public.is_mixer()));
create policy "songs: mixers change" on public.songs for update to authenticated
  using ((select public.is_mixer())) with check ((select public.is_mixer()));
create policy "designs: everyone reads" on public.designs for select to anon, authenticated using (true);
create policy "designs: mixers add" on public.designs for insert to authenticated with check ((select public.is_mixer()));
create policy "designs: mixers change" on public.designs for update to authenticated
  using ((select public.is_mixer())) with check ((select public.is_mixer()));
create policy "cover_backgrounds: everyone reads" on public.cover_backgrounds for select to anon, authenticated using (true);
create policy "cover_backgrounds: mixers change" on public.cover_backgrounds for update to authenticated
  using ((select public.is_mixer())) with check ((select public.is_mixer()));

revoke all on public.songs, public.designs, public.cover_backgrounds from anon, authenticated;
grant select on public.songs, public.designs, public.cover_backgrounds to anon, authenticated;
grant insert (position, title, thumbnail, preview_url) on public.songs to authenticated;
grant update (position, title, thumbnail, preview_url, active) on public.songs to authenticated;
grant insert (position, name, image, colour) on public.designs to authenticated;
grant update (position, name, image, colour, active) on public.designs to authenticated;
grant update (image) on public.cover_backgrounds to authenticated;
grant usage on sequence public.songs_id_seq, public.designs_id_seq to authenticated;

-- ---- The shop's words: null until a mixer saves them (the environment's then stand in) ----
alter table public.shop_settings
  add column shop_title text,
  add column tagline text,
  add column mixer_name text,
  add column product_label text,
  add column price_note text,
  add column creator_url text,
  add column checkout_url text,
  add constraint shop_settings_words check (
    char_length(btrim(shop_title)) between 1 and 60
    and char_length(tagline) <= 200
    and char_length(btrim(mixer_name)) between 1 and 40
    and char_length(btrim(product_label)) between 1 and 40
    and char_length(price_note) <= 120
    and concat(shop_title, tagline, mixer_name, product_label, price_note) !~ '[[:cntrl:]]'
  ),
  add constraint shop_settings_urls check (
    creator_url ~ '^https://[^[:space:][:cntrl:]]+$' and char_length(creator_url) <= 2000
    and checkout_url ~ '^https://[^[:space:][:cntrl:]]+$' and char_length(checkout_url) <= 2000
  );
grant update (shop_title, tagline, mixer_name, product_label, price_note, creator_url, checkout_url)
  on public.shop_settings to authenticated;

-- ---- What every page reads, in one call (the caller's role: the policies decide) ----------
create function public.shop_catalogue() returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select jsonb_build_object(
    'songs', coalesce((
      select jsonb_agg(jsonb_build_object('id', s.id, 'title', s.title, 'thumbnail', s.thumbnail,
               'previewUrl', s.preview_url, 'active', s.active, 'version', s.version) order by s.position, s.id::bigint)
        from public.songs s), '[]'::jsonb),
    'designs', coalesce((
      select jsonb_agg(jsonb_build_object('id', d.id, 'name', d.name, 'image', d.image, 'colour', d.colour,
               'active', d.active, 'version', d.version) order by d.position, d.id)
        from public.designs d), '[]'::jsonb),
    'backgrounds', coalesce((
      select jsonb_agg(jsonb_build_object('slot', b.slot, 'image', b.image, 'version', b.version) order by b.slot)
        from public.cover_backgrounds b), '[]'::jsonb),
    'words', (
      select jsonb_build_object('title', w.shop_title, 'tagline', w.tagline, 'mixerName', w.mixer_name,
               'productLabel', w.product_label, 'priceNote', w.price_note, 'creatorUrl', w.creator_url,
               'checkoutUrl', w.checkout_url)
        from public.shop_settings w)
  );
$$;
revoke execute on function public.shop_catalogue() from public;
grant execute on function public.shop_catalogue() to anon, authenticated;

-- ---- The mixers' changes: each answers what happened --------------------------------
-- saved; changed (saved by someone else since the page was read: nothing is written); missing.
create function public.save_song(p_id text, p_version integer, p_title text, p_thumbnail text, p_preview_url text)
returns text
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  update public.songs
     set title = p_title, thumbnail = coalesce(p_thumbnail, thumbnail), preview_url = coalesce(p_preview_url, preview_url)
   where id = p_id and version = p_version;
  if found then
    return 'saved';
  end if;
  return case when exists (select 1 from public.songs where id = p_id) then 'changed' else 'missing' end;
end;
$$;

-- The new song's id; it comes last in the mixer's order.
create function public.add_song(p_title text, p_thumbnail text, p_preview_url text) returns text
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_id text;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  insert into public.songs (position, title, thumbnail, preview_url)
  values ((select coalesce(max(position), 0) + 1 from public.songs), p_title, p_thumbnail, p_preview_url)
  returning id into v_id;
  return v_id;
end;
$$;

-- saved, changed, missing, or last (the shop's only song on sale is never retired).
create function public.set_song_active(p_id text, p_version integer, p_active boolean) returns text
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  begin
    update public.songs set active = p_active where id = p_id and version = p_version;
  exception when sqlstate 'MXONE' then
    return 'last';
  end;
  if found then
    return 'saved';
  end if;
  return case when exists (select 1 from public.songs where id = p_id) then 'changed' else 'missing' end;
end;
$$;

create function public.save_design(p_id text, p_version integer, p_name text, p_image text, p_colour text) returns text
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  update public.designs
     set name = p_name, image = coalesce(p_image, image), colour = coalesce(p_colour, colour)
   where id = p_id and version = p_version;
  if found then
    return 'saved';
  end if;
  return case when exists (select 1 from public.designs where id = p_id) then 'changed' else 'missing' end;
end;
$$;

create function public.add_design(p_name text, p_image text, p_colour text) returns text
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_id text;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  insert into public.designs (position, name, image, colour)
  values ((select coalesce(max(position), 0) + 1 from public.designs), p_name, p_image, p_colour)
  returning id into v_id;
  return v_id;
end;
$$;

create function public.set_design_active(p_id text, p_version integer, p_active boolean) returns text
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  update public.designs set active = p_active where id = p_id and version = p_version;
  if found then
    return 'saved';
  end if;
  return case when exists (select 1 from public.designs where id = p_id) then 'changed' else 'missing' end;
end;
$$;

create function public.save_cover_background(p_slot integer, p_version integer, p_image text) returns text
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  update public.cover_backgrounds set image = p_image where slot = p_slot and version = p_version;
  if found then
    return 'saved';
  end if;
  return case when exists (select 1 from public.cover_backgrounds where slot = p_slot) then 'changed' else 'missing' end;
end;
$$;

-- Moves a song (p_kind 'song') or a design ('design') one place up (p_by -1) or down (+1) in the
-- mixer's order by swapping it with its neighbour; false when there is none.
create function public.move_in_catalogue(p_kind text, p_id text, p_by integer) returns boolean
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_me record;
  v_other record;
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the catalogue' using errcode = '42501';
  end if;
  if p_kind = 'song' then
    select id, position into v_me from public.songs where id = p_id for update;
    if not found then
      return false;
    end if;
    select id, position into v_other from public.songs
     where case when p_by < 0 then (position, id::bigint) < (v_me.position, v_me.id::bigint)
                else (position, id::bigint) > (v_me.position, v_me.id::bigint) end
     order by case when p_by < 0 then -position else position end,
              case when p_by < 0 then -id::bigint else id::bigint end
     limit 1 for update;
    if not found then
      return false;
    end if;
    -- Equal positions (never written by these functions) still come apart.
    update public.songs set position = case when id = v_me.id then v_other.position else v_me.position end
     where id in (v_me.id, v_other.id);
    if v_me.position = v_other.position then
      update public.songs set position = position + sign(p_by)::integer where id = v_me.id;
    end if;
    return true;
  elsif p_kind = 'design' then
    select id, position into v_me from public.designs where id = p_id for update;
    if not found then
      return false;
    end if;
    select id, position into v_other from public.designs
     where case when p_by < 0 then (position, id) < (v_me.position, v_me.id) else (position, id) > (v_me.position, v_me.id) end
     order by case when p_by < 0 then -position else position end,
              case when p_by < 0 then id end desc, case when p_by >= 0 then id end
     limit 1 for update;
    if not found then
      return false;
    end if;
    update public.designs set position = case when id = v_me.id then v_other.position else v_me.position end
     where id in (v_me.id, v_other.id);
    if v_me.position = v_other.position then
      update public.designs set position = position + sign(p_by)::integer where id = v_me.id;
    end if;
    return true;
  end if;
  raise exception 'no such kind: %', p_kind using errcode = '22023';
end;
$$;

create function public.save_shop_words(
  p_title text, p_tagline text, p_mixer_name text, p_product_label text, p_price_note text, p_creator_url text, p_checkout_url text
) returns boolean
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  if not public.is_mixer() then
    raise exception 'only a mixer changes the shop''s words' using errcode = '42501';
  end if;
  update public.shop_settings
     set shop_title = p_title, tagline = p_tagline, mixer_name = p_mixer_name, product_label = p_product_label,
         price_note = p_price_note, creator_url = p_creator_url, checkout_url = p_checkout_url;
  return found;
end;
$$;

revoke execute on function public.save_song(text, integer, text, text, text) from public;
revoke execute on function public.add_song(text, text, text) from public;
revoke execute on function public.set_song_active(text, integer, boolean) from public;
revoke execute on function public.save_design(text, integer, text, text, text) from public;
revoke execute on function public.add_design(text, text, text) from public;
revoke execute on function public.set_design_active(text, integer, boolean) from public;
revoke execute on function public.save_cover_background(integer, integer, text) from public;
revoke execute on function public.move_in_catalogue(text, text, integer) from public;
revoke execute on function public.save_shop_words(text, text, text, text, text, text, text) from public;
grant execute on function public.save_song(text, integer, text, text, text) to authenticated;
grant execute on function public.add_song(text, text, text) to authenticated;
grant execute on function public.set_song_active(text, integer, boolean) to authenticated;
grant execute on function public.save_design(text, integer, text, text, text) to authenticated;
grant execute on function public.add_design(text, text, text) to authenticated;
grant execute on function public.set_design_active(text, integer, boolean) to authenticated;
grant execute on function public.save_cover_background(integer, integer, text) to authenticated;
grant execute on function public.move_in_catalogue(text, text, integer) to authenticated;
grant execute on function public.save_shop_words(text, text, text, text, text, text, text) to authenticated;

-- ---- Orders keep the design they were sold with ------------------------------------
alter table public.mixtapes add column design_name text, add column design_image text;
-- Orders placed before: the design they name, as seeded (the same names and images they were sold with).
update public.mixtapes m set design_name = d.name, design_image = d.image from public.designs d where d.id = m.design_id;

-- Taken from the catalogue at insert, never from the caller (no role may write these columns).
create function public.mixtapes_design_snapshot() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    select d.name, d.image into new.design_name, new.design_image from public.designs d where d.id = new.design_id;
    if not found then
      new.design_name := null;
      new.design_image := null;
    end if;
  elsif (new.design_name, new.design_image) is distinct from (old.design_name, old.design_image) then
    raise exception 'an order''s contents never change' using errcode = '42501';
  end if;
  return new;
end;
$$;
create trigger mixtapes_design_snapshot before insert or update on public.mixtapes
  for each row execute function public.mixtapes_design_snapshot();
