#!/usr/bin/env node
// Generates Mixtape's original SVG artwork. Deterministic, nothing fetched.
//
//   public/art/thumbs/01.svg … 30.svg   160x160 song thumbnails
//   public/art/designs/*.svg            320x200 cassette J-card designs
//   public/art/covers/bg-1..3.svg       400x250 cover-card background textures
//   public/art/hero.svg                 1440x360 hero banner
//   public/favicon.svg                  32x32 cassette icon
//
// Usage: node scripts/make-art.js
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PUBLIC = join(ROOT, "public");

// Palette
const K = "#0f0d14"; // ink
const P = "#1b1724"; // deep panel
const C = "#f4ecd8"; // cassette cream
const O = "#ff5a1f"; // signal orange
const Y = "#ffd23f"; // acid yellow
const T = "#19c2b5"; // teal
const M = "#e63e9a"; // magenta
const G = "#8b8598"; // muted grey

const MONO = "ui-monospace, monospace";
const SANS = "system-ui, sans-serif";

// ---------------------------------------------------------------- helpers

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Format a number compactly (max 1 decimal). */
const f = (n) => {
  const r = Math.round(n * 10) / 10;
  return Object.is(r, -0) ? "0" : String(r);
};

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function svg(w, h, title, body) {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<title>${esc(title)}</title>${body}</svg>\n`
  );
}

const polar = (cx, cy, r, deg) => {
  const a = (deg * Math.PI) / 180;
  return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
};

/** Arc path from angle a0 to a1 (degrees, clockwise). */
function arc(cx, cy, r, a0, a1) {
  const [x0, y0] = polar(cx, cy, r, a0);
  const [x1, y1] = polar(cx, cy, r, a1);
  const large = a1 - a0 > 180 ? 1 : 0;
  return `M${f(x0)} ${f(y0)}A${f(r)} ${f(r)} 0 ${large} 1 ${f(x1)} ${f(y1)}`;
}

/** Cassette reel: hub ring with 6 teeth. */
function reel(cx, cy, r, ring, hub, teeth = ring) {
  let d = "";
  for (let k = 0; k < 6; k++) {
    const [x, y] = polar(cx, cy, r * 0.55, k * 60);
    d += `M${f(cx)} ${f(cy)}L${f(x)} ${f(y)}`;
  }
  return (
    `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}" fill="${hub}" stroke="${ring}" stroke-width="${f(r * 0.22)}"/>` +
    `<path d="${d}" stroke="${teeth}" stroke-width="${f(Math.max(1, r * 0.12))}"/>`
  );
}

/** A stylised cassette body at (x, y) with width w (height = w * 0.63). */
function cassette(x, y, w, o) {
  const h = w * 0.63;
  const r = w * 0.04;
  const s = (n) => f(n);
  const lx = x + w * 0.08;
  const ly = y + h * 0.1;
  const lw = w * 0.84;
  const lh = h * 0.56;
  const wy = ly + lh * 0.42;
  const wh = lh * 0.42;
  const rr = wh * 0.36;
  let out =
    `<rect x="${s(x)}" y="${s(y)}" width="${s(w)}" height="${s(h)}" rx="${s(r)}" fill="${o.body}"${o.stroke ? ` stroke="${o.stroke}" stroke-width="${s(w * 0.012)}"` : ""}/>` +
    `<rect x="${s(lx)}" y="${s(ly)}" width="${s(lw)}" height="${s(lh)}" rx="${s(r * 0.6)}" fill="${o.label}"/>`;
  if (o.stripe) {
    out += `<rect x="${s(lx)}" y="${s(ly + lh * 0.14)}" width="${s(lw)}" height="${s(lh * 0.12)}" fill="${o.stripe}"/>`;
  }
  out +=
    `<rect x="${s(x + w * 0.26)}" y="${s(wy)}" width="${s(w * 0.48)}" height="${s(wh)}" rx="${s(wh / 2)}" fill="${o.window}"/>` +
    reel(x + w * 0.35, wy + wh / 2, rr, o.reel, o.window, o.reel) +
    reel(x + w * 0.65, wy + wh / 2, rr, o.reel, o.window, o.reel) +
    `<path d="M${s(x + w * 0.2)} ${s(y + h)}L${s(x + w * 0.26)} ${s(y + h * 0.8)}H${s(x + w * 0.74)}L${s(x + w * 0.8)} ${s(y + h)}Z" fill="${o.bottom || o.label}" opacity=".9"/>`;
  return out;
}

// ---------------------------------------------------------------- thumbnails

const SONGS = [
  // [title, tag, bg, a, b, c]
  ["Static Over Babylon", "BABYLON", P, O, Y, G],
  ["Pirate Frequency", "PIRATE FM", T, C, O, K],
  ["Neon Curfew", "CURFEW", K, M, T, Y],
  ["Signal Jammer", "JAMMER", Y, K, M, T],
  ["Concrete Lullaby", "CONCRETE", G, C, P, Y],
  ["Midnight Dub Relay", "DUB RELAY", K, C, O, T],
  ["Tape Hiss Heaven", "HISS", C, P, O, Y],
  ["Rebel Broadcast", "REBEL", O, Y, K, C],
  ["Underground Transit", "TRANSIT", C, M, T, O],
  ["Ghost in the Deck", "GHOST", P, G, C, T],
  ["Cassette Insurgent", "INSURGENT", M, K, C, Y],
  ["Low Battery Love", "LOW BATT", T, K, O, M],
  ["Rooftop Antenna", "ANTENNA", K, C, Y, P],
  ["Encrypted Heartbeat", "ENCRYPTED", P, T, M, C],
  ["Basement Sunrise", "SUNRISE", P, Y, O, M],
  ["Riot of Reverb", "REVERB", Y, K, M, O],
  ["Analog Resistance", "ANALOG", C, K, O, M],
  ["Velvet Blackout", "VELVET", K, M, P, C],
  ["Subway Seance", "SEANCE", K, T, C, M],
  ["Dead Air Dance", "DEAD AIR", O, K, C, Y],
  ["Warehouse Prayer", "PRAYER", P, Y, G, C],
  ["Counterfeit Moon", "MOON", K, Y, M, C],
  ["Graffiti Radio", "GRAFFITI", G, M, Y, T],
  ["Smuggled Bassline", "BASSLINE", K, T, Y, M],
  ["Sodium Streetlight", "SODIUM", P, O, Y, G],
  ["Rewind the System", "REWIND", T, K, C, O],
  ["Night Bus Anthem", "NIGHT BUS", M, Y, K, C],
  ["Off-Grid Groove", "OFF-GRID", C, K, O, T],
  ["Wiretap Waltz", "WIRETAP", O, C, K, Y],
  ["Last Transmission", "LAST TX", K, O, M, C],
];

// Each motif gets (ctx) with colours bg,a,b,c, a seeded rand, and an id
// prefix `p` for unique element ids. It returns SVG markup for a 160x160 box.
const MOTIFS = {
  // 1 — stepped ziggurat under a sky of static
  "Static Over Babylon"({ a, b, c, rand }) {
    let noise = "";
    for (let i = 0; i < 70; i++) {
      noise += `M${Math.floor(rand() * 78) * 2} ${Math.floor(rand() * 48) * 2}h${rand() < 0.3 ? 6 : 2}v2h${rand() < 0.3 ? -6 : -2}z`;
    }
    let zig = "M10 160";
    const steps = 5;
    for (let s = 0; s < steps; s++) {
      const y = 150 - s * 16;
      const x = 10 + s * 14;
      zig += `V${y}H${x + 14}`;
    }
    zig += "V70H94";
    for (let s = steps - 1; s >= 0; s--) zig += `V${150 - s * 16}H${150 - s * 14}`;
    zig += "V160Z";
    return (
      `<path d="${noise}" fill="${c}" opacity=".7"/>` +
      `<circle cx="118" cy="48" r="16" fill="${b}"/>` +
      `<path d="${zig}" fill="${a}"/>` +
      `<path d="M66 100h28M52 116h56M38 132h84" stroke="${K}" stroke-width="3" opacity=".35"/>`
    );
  },
  // 2 — analogue tuning dial with a red needle and broadcast arcs
  "Pirate Frequency"({ a, b, c }) {
    let ticks = "";
    for (let i = 0; i <= 24; i++) {
      const x = 18 + i * 5.2;
      ticks += `M${f(x)} 92v${i % 4 === 0 ? -14 : -7}`;
    }
    return (
      `<path d="${arc(80, 70, 22, 200, 340)}${arc(80, 70, 36, 200, 340)}${arc(80, 70, 50, 200, 340)}" fill="none" stroke="${c}" stroke-width="5" stroke-linecap="round"/>` +
      `<rect x="10" y="68" width="140" height="56" rx="6" fill="${a}"/>` +
      `<path d="${ticks}" stroke="${c}" stroke-width="1.6"/>` +
      `<text x="80" y="114" font-family="${MONO}" font-size="11" text-anchor="middle" fill="${c}">88 · 96 · 104 · MHz</text>` +
      `<path d="M99 72v48" stroke="${b}" stroke-width="3"/>` +
      `<circle cx="80" cy="70" r="6" fill="${b}"/>`
    );
  },
  // 3 — neon diagonal stripes with a glowing bar
  "Neon Curfew"({ p, a, b, c }) {
    return (
      `<defs><pattern id="${p}s" width="24" height="24" patternUnits="userSpaceOnUse" patternTransform="rotate(-35)"><rect width="6" height="24" fill="${a}"/><rect x="12" width="3" height="24" fill="${b}"/></pattern></defs>` +
      `<rect width="160" height="160" fill="url(#${p}s)"/>` +
      `<rect x="26" y="66" width="108" height="32" rx="16" fill="${K}" stroke="${c}" stroke-width="3"/>` +
      `<text x="80" y="88" font-family="${MONO}" font-weight="700" font-size="15" text-anchor="middle" fill="${c}">00:00</text>`
    );
  },
  // 4 — glitched horizontal blocks
  "Signal Jammer"({ a, b, c, rand }) {
    let d1 = "";
    let d2 = "";
    for (let i = 0; i < 14; i++) {
      const y = 44 + i * 8;
      const x = 10 + Math.floor(rand() * 60);
      const w = 30 + Math.floor(rand() * 80);
      if (rand() < 0.7) d1 += `M${x} ${y}h${Math.min(w, 150 - x)}v5h-${Math.min(w, 150 - x)}z`;
      else d2 += `M${x} ${y}h${Math.min(w, 150 - x)}v5h-${Math.min(w, 150 - x)}z`;
    }
    return (
      `<path d="${d1}" fill="${a}"/><path d="${d2}" fill="${b}"/>` +
      `<path d="M10 24h140" stroke="${c}" stroke-width="4" stroke-dasharray="10 4 2 4"/>`
    );
  },
  // 5 — stacked concrete blocks under a small moon
  "Concrete Lullaby"({ a, b, c }) {
    let d = "";
    for (let row = 0; row < 5; row++) {
      const off = row % 2 ? -14 : 0;
      for (let col = 0; col < 6; col++) {
        const x = off + col * 30;
        d += `M${Math.max(0, x)} ${70 + row * 18}H${Math.min(160, x + 27)}v15H${Math.max(0, x)}z`;
      }
    }
    return (
      `<circle cx="118" cy="38" r="14" fill="${c}"/><circle cx="124" cy="33" r="12" fill="${G}"/>` +
      `<path d="${d}" fill="${a}" stroke="${b}" stroke-width="1" opacity=".9"/>` +
      `<path d="M0 160V70" stroke="${b}"/>`
    );
  },
  // 6 — two sound-system speakers
  "Midnight Dub Relay"({ a, b, c }) {
    const spk = (cy, r) =>
      `<circle cx="80" cy="${cy}" r="${r}" fill="${P}" stroke="${a}" stroke-width="3"/>` +
      `<circle cx="80" cy="${cy}" r="${f(r * 0.68)}" fill="none" stroke="${c}" stroke-width="2"/>` +
      `<circle cx="80" cy="${cy}" r="${f(r * 0.36)}" fill="${b}"/>` +
      `<circle cx="80" cy="${cy}" r="${f(r * 0.12)}" fill="${K}"/>`;
    return (
      `<rect x="36" y="12" width="88" height="142" rx="6" fill="${P}" stroke="${G}" stroke-width="2"/>` +
      spk(50, 30) +
      spk(120, 24)
    );
  },
  // 7 — cassette with a halo
  "Tape Hiss Heaven"({ a, b, c }) {
    return (
      `<ellipse cx="80" cy="42" rx="34" ry="9" fill="none" stroke="${c}" stroke-width="5"/>` +
      cassette(22, 62, 116, { body: a, label: C, stripe: b, window: K, reel: C, bottom: G })
    );
  },
  // 8 — sunburst with a star
  "Rebel Broadcast"({ a, b }) {
    let d = "";
    for (let k = 0; k < 16; k++) {
      const [x0, y0] = polar(80, 84, 120, k * 22.5 - 5);
      const [x1, y1] = polar(80, 84, 120, k * 22.5 + 5);
      d += `M80 84L${f(x0)} ${f(y0)}L${f(x1)} ${f(y1)}z`;
    }
    let star = "";
    for (let k = 0; k < 10; k++) {
      const [x, y] = polar(80, 86, k % 2 ? 12 : 30, k * 36 - 90);
      star += `${k ? "L" : "M"}${f(x)} ${f(y)}`;
    }
    return `<path d="${d}" fill="${a}"/>` + `<circle cx="80" cy="84" r="40" fill="${b}"/>` + `<path d="${star}z" fill="${a}"/>`;
  },
  // 9 — metro map
  "Underground Transit"({ a, b, c }) {
    return (
      `<g fill="none" stroke-width="9" stroke-linecap="round" stroke-linejoin="round">` +
      `<path d="M-5 112H50L92 70H165" stroke="${a}"/>` +
      `<path d="M60 -5V40L100 80V165" stroke="${b}"/>` +
      `<path d="M20 165V140L40 120H150" stroke="${c}"/></g>` +
      `<g fill="#fff" stroke="${K}" stroke-width="3">` +
      `<circle cx="50" cy="112" r="6"/><circle cx="96" cy="74" r="8"/><circle cx="100" cy="120" r="8"/><circle cx="60" cy="30" r="5"/><circle cx="140" cy="70" r="5"/></g>`
    );
  },
  // 10 — ghost over a record
  "Ghost in the Deck"({ a, b, c }) {
    let rings = "";
    for (let r = 62; r > 14; r -= 8)
      rings += `<circle cx="80" cy="86" r="${r}" fill="none" stroke="${a}" stroke-width="1.5" opacity=".6"/>`;
    return (
      `<circle cx="80" cy="86" r="66" fill="${K}"/>${rings}<circle cx="80" cy="86" r="12" fill="${c}"/>` +
      `<path d="M56 126V82a24 24 0 0 1 48 0v44l-8-7-8 7-8-7-8 7-8-7z" fill="${b}" opacity=".95"/>` +
      `<circle cx="71" cy="84" r="4" fill="${K}"/><circle cx="89" cy="84" r="4" fill="${K}"/>`
    );
  },
  // 11 — tilted cassette with a hazard slash
  "Cassette Insurgent"({ p, a, b, c }) {
    return (
      `<defs><pattern id="${p}h" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="16" fill="${c}"/></pattern></defs>` +
      `<path d="M0 118L160 58V90L0 150z" fill="url(#${p}h)"/>` +
      `<g transform="rotate(-14 80 84)">${cassette(26, 50, 108, { body: a, label: b, stripe: M, window: P, reel: C, bottom: G })}</g>`
    );
  },
  // 12 — battery on its last bar, with a heart
  "Low Battery Love"({ a, b, c }) {
    return (
      `<rect x="30" y="52" width="92" height="52" rx="8" fill="none" stroke="${a}" stroke-width="7"/>` +
      `<rect x="124" y="68" width="8" height="20" rx="2" fill="${a}"/>` +
      `<rect x="40" y="62" width="16" height="32" rx="2" fill="${b}"/>` +
      `<path d="M88 132c-14-9-22-17-22-25a8 8 0 0 1 22-5a8 8 0 0 1 22 5c0 8-8 16-22 25z" fill="${c}"/>`
    );
  },
  // 13 — lattice antenna on a rooftop with waves
  "Rooftop Antenna"({ a, b, c }) {
    return (
      `<path d="${arc(80, 58, 14, 200, 340)}${arc(80, 58, 27, 205, 335)}${arc(80, 58, 40, 210, 330)}" fill="none" stroke="${b}" stroke-width="4" stroke-linecap="round"/>` +
      `<path d="M80 62L62 132M80 62L98 132M68 110H92M73 88H87M66 122L94 110M71 98L90 88M80 62V52" fill="none" stroke="${a}" stroke-width="3"/>` +
      `<circle cx="80" cy="58" r="5" fill="${b}"/>` +
      `<path d="M0 132H160V160H0zM8 118h30v14H8zM112 110h10v22h-10zM128 122h22v10h-22z" fill="${c}"/>` +
      `<path d="M12 124h6M24 124h6M132 126h4" stroke="${b}" stroke-width="3"/>`
    );
  },
  // 14 — ECG line over a binary grid
  "Encrypted Heartbeat"({ a, b, c, rand }) {
    let bits = "";
    for (let r = 0; r < 4; r++) {
      let row = "";
      for (let k = 0; k < 14; k++) row += rand() < 0.5 ? "0" : "1";
      bits += `<text x="12" y="${52 + r * 24}">${row}</text>`;
    }
    return (
      `<g font-family="${MONO}" font-size="13" fill="${a}" opacity=".35">${bits}</g>` +
      `<path d="M0 94H44L52 80L60 94H68L76 44L86 130L94 94H108L114 86L120 94H160" fill="none" stroke="${b}" stroke-width="4" stroke-linejoin="round"/>` +
      `<rect x="118" y="14" width="28" height="20" rx="3" fill="${c}"/><path d="M124 14v-3a8 8 0 0 1 16 0v3" fill="none" stroke="${c}" stroke-width="3"/><circle cx="132" cy="23" r="3" fill="${K}"/>`
    );
  },
  // 15 — striped sunrise
  "Basement Sunrise"({ p, a, b, c, bg }) {
    let gaps = "";
    for (let i = 0; i < 6; i++) gaps += `M0 ${96 + i * 10 + i}h160v${2 + i}H0z`;
    return (
      `<defs><linearGradient id="${p}g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${a}"/><stop offset=".6" stop-color="${b}"/><stop offset="1" stop-color="${c}"/></linearGradient></defs>` +
      `<circle cx="80" cy="130" r="62" fill="url(#${p}g)"/>` +
      `<path d="${gaps}" fill="${bg}"/>` +
      `<path d="M0 140H160V160H0z" fill="${K}"/>`
    );
  },
  // 16 — overlapping ripples
  "Riot of Reverb"({ a, b, c }) {
    let out = "";
    const srcs = [
      [52, 70, a],
      [112, 100, b],
      [70, 130, c],
    ];
    for (const [x, y, col] of srcs) {
      for (let r = 8; r < 60; r += 10)
        out += `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${col}" stroke-width="3"/>`;
    }
    return out;
  },
  // 17 — VU meter
  "Analog Resistance"({ a, b, c }) {
    let ticks = "";
    for (let i = 0; i <= 10; i++) {
      const ang = 215 + i * 11;
      const [x0, y0] = polar(80, 124, 70, ang);
      const [x1, y1] = polar(80, 124, i % 5 === 0 ? 56 : 62, ang);
      ticks += `M${f(x0)} ${f(y0)}L${f(x1)} ${f(y1)}`;
    }
    const [nx, ny] = polar(80, 124, 74, 292);
    return (
      `<rect x="10" y="40" width="140" height="102" rx="8" fill="${C}" stroke="${a}" stroke-width="4"/>` +
      `<path d="${arc(80, 124, 66, 215, 282)}" fill="none" stroke="${a}" stroke-width="2"/>` +
      `<path d="${arc(80, 124, 66, 282, 325)}" fill="none" stroke="${c}" stroke-width="6"/>` +
      `<path d="${ticks}" stroke="${a}" stroke-width="2"/>` +
      `<text x="80" y="112" font-family="${MONO}" font-size="10" font-weight="700" text-anchor="middle" fill="${a}">VU</text>` +
      `<path d="M80 124L${f(nx)} ${f(ny)}" stroke="${b}" stroke-width="3"/><circle cx="80" cy="124" r="6" fill="${a}"/>`
    );
  },
  // 18 — velvet curtain folds
  "Velvet Blackout"({ p, a, b, c }) {
    return (
      `<defs><linearGradient id="${p}v" x1="0" x2="1"><stop offset="0" stop-color="${b}"/><stop offset=".5" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient>` +
      `<pattern id="${p}f" width="26" height="160" patternUnits="userSpaceOnUse"><rect width="26" height="160" fill="url(#${p}v)"/></pattern></defs>` +
      `<path d="M0 0H160V160C140 150 120 150 104 160V0H56V160C40 150 20 150 0 160Z" fill="url(#${p}f)" opacity=".9"/>` +
      `<path d="M0 0H160V18H0z" fill="${K}"/><path d="M0 18H160" stroke="${c}" stroke-width="2" stroke-dasharray="4 3"/>` +
      `<path d="M70 18L52 150H108L90 18Z" fill="${c}" opacity=".08"/>` +
      `<ellipse cx="80" cy="150" rx="30" ry="5" fill="${c}" opacity=".15"/>` +
      `<path d="M80 92V150M68 150H92" stroke="${c}" stroke-width="3" stroke-linecap="round"/>` +
      `<rect x="74" y="74" width="12" height="20" rx="6" fill="${c}"/>`
    );
  },
  // 19 — receding tunnel with an eye
  "Subway Seance"({ a, b, c }) {
    let out = "";
    for (let i = 0; i < 6; i++) {
      const s = 1 - i * 0.15;
      const w = 136 * s;
      const h = 120 * s;
      out += `<path d="M${f(80 - w / 2)} ${f(150 - (150 - 84) * (1 - s))}V${f(84 + (150 - 84) * s - h + h * 0.3)}a${f(w / 2)} ${f(h * 0.4)} 0 0 1 ${f(w)} 0V${f(150 - (150 - 84) * (1 - s))}" fill="none" stroke="${a}" stroke-width="${f(3 * s + 0.5)}" opacity="${f(1 - i * 0.14)}"/>`;
    }
    return (
      out +
      `<path d="M58 92Q80 72 102 92Q80 112 58 92z" fill="${b}"/><circle cx="80" cy="92" r="7" fill="${c}"/><circle cx="80" cy="92" r="3" fill="${K}"/>`
    );
  },
  // 20 — checker dance floor with a flatline
  "Dead Air Dance"({ p, a, b, c }) {
    return (
      `<defs><pattern id="${p}c" width="20" height="20" patternUnits="userSpaceOnUse"><rect width="10" height="10" fill="${a}"/><rect x="10" y="10" width="10" height="10" fill="${a}"/><rect x="10" width="10" height="10" fill="${b}"/><rect y="10" width="10" height="10" fill="${b}"/></pattern></defs>` +
      `<path d="M40 96H120L160 160H0Z" fill="url(#${p}c)"/>` +
      `<path d="M0 62H62L68 52L74 62H160" fill="none" stroke="${c}" stroke-width="4" stroke-linejoin="round"/>` +
      `<circle cx="80" cy="28" r="12" fill="${b}" stroke="${a}" stroke-width="2" stroke-dasharray="3 2"/>`
    );
  },
  // 21 — light beams in a warehouse
  "Warehouse Prayer"({ p, a, b, c }) {
    return (
      `<defs><linearGradient id="${p}b" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${a}" stop-opacity=".15"/></linearGradient></defs>` +
      `<path d="M62 0L16 140H52ZM80 0L66 140H94ZM98 0L144 140H108Z" fill="url(#${p}b)" opacity=".8"/>` +
      `<path d="M0 140H160V160H0z" fill="${b}"/>` +
      `<path d="M0 140L30 124V140M40 140L70 124V140M80 140L110 124V140M120 140L150 124V140" fill="${b}"/>` +
      `<path d="M80 20v24M68 30h24" stroke="${c}" stroke-width="4"/>`
    );
  },
  // 22 — moon and its dashed counterfeit
  "Counterfeit Moon"({ a, b, c, bg, rand }) {
    let stars = "";
    for (let i = 0; i < 14; i++) stars += `<circle cx="${f(rand() * 160)}" cy="${f(rand() * 160)}" r="${f(0.6 + rand())}"/>`;
    return (
      `<g fill="${c}" opacity=".7">${stars}</g>` +
      `<circle cx="70" cy="82" r="42" fill="${a}"/><circle cx="90" cy="70" r="36" fill="${bg}"/>` +
      `<circle cx="100" cy="92" r="42" fill="none" stroke="${b}" stroke-width="3" stroke-dasharray="7 5"/>`
    );
  },
  // 23 — paint drips
  "Graffiti Radio"({ a, b, c, rand }) {
    let d1 = "";
    let d2 = "";
    for (let i = 0; i < 9; i++) {
      const x = 14 + i * 16;
      const len = 20 + Math.floor(rand() * 80);
      d1 += `M${x} 40v${len}`;
      if (i % 2) d2 += `M${x + 8} 96v${10 + Math.floor(rand() * 40)}`;
    }
    return (
      `<path d="M0 20Q40 6 80 20T160 20V46H0z" fill="${a}"/>` +
      `<path d="${d1}" stroke="${a}" stroke-width="7" stroke-linecap="round"/>` +
      `<path d="M0 90Q40 80 80 92T160 88V104H0z" fill="${b}"/>` +
      `<path d="${d2}" stroke="${b}" stroke-width="5" stroke-linecap="round"/>` +
      `<rect x="10" y="122" width="44" height="30" rx="4" fill="${c}"/><circle cx="24" cy="137" r="8" fill="${K}"/><path d="M36 132h12M36 138h12M36 144h12M16 122L30 108" stroke="${K}" stroke-width="2"/>`
    );
  },
  // 24 — spectrum-analyser bars
  "Smuggled Bassline"({ p, a, b, c, rand }) {
    let d = "";
    for (let i = 0; i < 12; i++) {
      const h = Math.round(110 * Math.exp(-i / 5) * (0.7 + rand() * 0.3));
      d += `M${12 + i * 12} 146v-${h}h9v${h}z`;
    }
    return (
      `<defs><linearGradient id="${p}e" x1="0" y1="1" x2="0" y2="0"><stop offset="0" stop-color="${a}"/><stop offset=".7" stop-color="${b}"/><stop offset="1" stop-color="${c}"/></linearGradient></defs>` +
      `<path d="${d}" fill="url(#${p}e)"/>` +
      `<path d="M12 150h136" stroke="${G}" stroke-width="2"/>`
    );
  },
  // 25 — sodium streetlight cone
  "Sodium Streetlight"({ p, a, b, c }) {
    return (
      `<defs><linearGradient id="${p}l" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${b}" stop-opacity=".9"/><stop offset="1" stop-color="${a}" stop-opacity=".15"/></linearGradient></defs>` +
      `<path d="M92 42L40 150H150Z" fill="url(#${p}l)"/>` +
      `<path d="M40 160V30Q40 22 50 22H96" fill="none" stroke="${c}" stroke-width="6"/>` +
      `<path d="M80 34h26l-4 10H84z" fill="${b}"/>` +
      `<ellipse cx="95" cy="150" rx="55" ry="6" fill="${a}" opacity=".6"/>`
    );
  },
  // 26 — big rewind arrows over tape lines
  "Rewind the System"({ a, b, c }) {
    return (
      `<path d="M0 118H160M0 126H160M0 134H160" stroke="${b}" stroke-width="2" opacity=".6"/>` +
      `<path d="M80 46L24 82L80 118ZM136 46L80 82L136 118Z" fill="${a}"/>` +
      `<path d="M24 134h112" stroke="${c}" stroke-width="6"/><circle cx="56" cy="134" r="7" fill="${c}"/>`
    );
  },
  // 27 — night bus
  "Night Bus Anthem"({ a, b, c }) {
    let win = "";
    for (let i = 0; i < 5; i++) win += `M${24 + i * 22} 62h17v20h-17z`;
    return (
      `<path d="M0 136H160" stroke="${b}" stroke-width="10"/><path d="M0 136H160" stroke="${c}" stroke-width="2" stroke-dasharray="12 10"/>` +
      `<rect x="14" y="48" width="132" height="74" rx="10" fill="${a}"/>` +
      `<path d="${win}" fill="${b}"/><rect x="20" y="90" width="120" height="5" fill="${b}" opacity=".4"/>` +
      `<circle cx="44" cy="124" r="10" fill="${b}" stroke="${c}" stroke-width="3"/><circle cx="116" cy="124" r="10" fill="${b}" stroke="${c}" stroke-width="3"/>` +
      `<text x="80" y="60" font-family="${MONO}" font-size="8" font-weight="700" text-anchor="middle" fill="${b}">N27 · ALL NIGHT</text>`
    );
  },
  // 28 — broken grid
  "Off-Grid Groove"({ a, b, c }) {
    let grid = "";
    for (let i = 1; i < 8; i++) grid += `M${i * 20} 0V160M0 ${i * 20}H160`;
    return (
      `<path d="${grid}" stroke="${a}" stroke-width="1.2" opacity=".5"/>` +
      `<rect x="46" y="48" width="40" height="40" fill="${b}" transform="rotate(12 66 68)"/>` +
      `<rect x="88" y="86" width="40" height="40" fill="${c}" transform="rotate(-8 108 106)"/>` +
      `<rect x="60" y="100" width="20" height="20" fill="none" stroke="${a}" stroke-width="3" transform="rotate(24 70 110)"/>`
    );
  },
  // 29 — coiled phone cord (3/4 waltz loops)
  "Wiretap Waltz"({ a, b, c }) {
    let d = "M22 72V120";
    for (let i = 0; i < 9; i++) {
      const x = 10 + i * 15;
      d += `C${x + 4} 80 ${x + 22} 80 ${x + 15} 110S${x + 6} 130 ${x + 15} 120`;
    }
    return (
      `<path d="M22 62Q44 30 66 62" fill="none" stroke="${b}" stroke-width="11" stroke-linecap="round"/>` +
      `<rect x="10" y="58" width="24" height="14" rx="6" fill="${b}"/><rect x="54" y="58" width="24" height="14" rx="6" fill="${b}"/>` +
      `<path d="${d}" fill="none" stroke="${a}" stroke-width="4" stroke-linecap="round"/>` +
      `<text x="108" y="64" font-family="${MONO}" font-size="20" font-weight="700" text-anchor="middle" fill="${c}">3/4</text>`
    );
  },
  // 30 — fading transmission arcs from a mast on the horizon
  "Last Transmission"({ a, b, c }) {
    let arcs = "";
    for (let i = 0; i < 6; i++) {
      arcs += `<path d="${arc(80, 120, 18 + i * 16, 200, 340)}" fill="none" stroke="${a}" stroke-width="4" stroke-linecap="round" opacity="${f(1 - i * 0.16)}"${i > 2 ? ' stroke-dasharray="6 8"' : ""}/>`;
    }
    return (
      arcs +
      `<path d="M0 136H160" stroke="${b}" stroke-width="3"/>` +
      `<path d="M80 120L72 136M80 120L88 136M80 112V120" stroke="${c}" stroke-width="3"/><circle cx="80" cy="110" r="4" fill="${a}"/>`
    );
  },
};

function thumb(id) {
  const [title, tag, bg, a, b, c] = SONGS[id - 1];
  const num = String(id).padStart(2, "0");
  const motif = MOTIFS[title];
  if (!motif) throw new Error(`no motif for ${title}`);
  const ctx = { id, p: `t${num}`, bg, a, b, c, rand: mulberry32(id * 1013904223) };
  const tagW = tag.length * 7 + 10;
  const badgeFill = bg === K ? C : K;
  const badgeText = bg === K ? K : C;
  return svg(
    160,
    160,
    `${num} — ${title}`,
    `<rect width="160" height="160" fill="${bg}"/>` +
      motif(ctx) +
      `<g font-family="${MONO}" font-weight="700">` +
      `<rect x="8" y="8" width="38" height="24" fill="${badgeFill}"/>` +
      `<text x="27" y="26" font-size="17" text-anchor="middle" fill="${badgeText}">${num}</text>` +
      `<rect x="${152 - tagW}" y="136" width="${tagW}" height="16" fill="${badgeFill}"/>` +
      `<text x="147" y="148" font-size="10" letter-spacing="1" text-anchor="end" fill="${badgeText}">${esc(tag)}</text>` +
      `</g>`,
  );
}

// ---------------------------------------------------------------- J-card designs (320x200)

function spine(text, bg, fg) {
  return (
    `<rect width="30" height="200" fill="${bg}"/>` +
    `<text transform="translate(19 186) rotate(-90)" font-family="${MONO}" font-size="10" font-weight="700" letter-spacing="1.5" fill="${fg}">${text}</text>`
  );
}

function designIceCold() {
  const rand = mulberry32(101);
  // one snowflake arm, reused with rotations
  const flake = (x, y, s, op) =>
    `<g transform="translate(${f(x)} ${f(y)}) scale(${f(s)})" opacity="${f(op)}">` +
    [0, 60, 120, 180, 240, 300].map((r) => `<use href="#ia" transform="rotate(${r})"/>`).join("") +
    `</g>`;
  let flakes = "";
  const spots = [
    [272, 140, 1.2, 0.95],
    [296, 34, 0.6, 0.8],
    [70, 150, 0.7, 0.7],
    [196, 150, 0.5, 0.6],
    [150, 28, 0.45, 0.55],
  ];
  for (const [x, y, s, op] of spots) flakes += flake(x, y, s, op);
  let shards = "";
  for (let i = 0; i < 7; i++) {
    const x = 30 + i * 44 + rand() * 10;
    const h = 40 + rand() * 50;
    shards += `M${f(x)} 200L${f(x + 14 + rand() * 8)} ${f(200 - h)}L${f(x + 34)} 200Z`;
  }
  return svg(
    320,
    200,
    "Ice Cold — cassette J-card design",
    `<defs><linearGradient id="ig" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b2545"/><stop offset=".55" stop-color="#1d5f8a"/><stop offset="1" stop-color="#bfe6ff"/></linearGradient>` +
      `<linearGradient id="is" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#9fd8ff" stop-opacity=".4"/></linearGradient>` +
      `<g id="ia" stroke="#ffffff" stroke-width="3" stroke-linecap="round" fill="none"><path d="M0 0V-30M0 -12L-8 -20M0 -12L8 -20M0 -22L-5 -27M0 -22L5 -27"/></g></defs>` +
      `<rect width="320" height="200" fill="url(#ig)"/>` +
      `<path d="M30 70L140 0H200L30 130ZM30 170L250 0H270L30 190Z" fill="#ffffff" opacity=".08"/>` +
      flakes +
      `<path d="${shards}" fill="url(#is)" opacity=".75"/>` +
      `<path d="M30 200L56 120L80 200ZM270 200L292 130L320 170V200Z" fill="#e8f7ff" opacity=".6"/>` +
      spine("MIXTAPE · C60 · ICE", "#e8f7ff", "#0b2545") +
      `<g font-family="${SANS}" font-weight="900" font-style="italic">` +
      `<text x="48" y="92" font-size="42" fill="#0b2545" opacity=".5">ICE COLD</text>` +
      `<text x="46" y="89" font-size="42" fill="#ffffff">ICE COLD</text></g>` +
      `<text x="48" y="112" font-family="${MONO}" font-size="11" letter-spacing="3" fill="#d6f1ff">SIDE A · −40° FM</text>`,
  );
}

function designSystemBurnout() {
  const rand = mulberry32(202);
  let glitch = "";
  for (let i = 0; i < 16; i++) {
    const y = Math.floor(rand() * 190);
    const x = 30 + Math.floor(rand() * 200);
    const w = 20 + Math.floor(rand() * 120);
    const h = 2 + Math.floor(rand() * 8);
    glitch += `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${[O, "#ff2d2d", Y, T][i % 4]}" opacity="${f(0.35 + rand() * 0.5)}"/>`;
  }
  return svg(
    320,
    200,
    "System Burnout — cassette J-card design",
    `<defs><radialGradient id="sg" cx=".75" cy="1" r="1"><stop offset="0" stop-color="#ff5a1f"/><stop offset=".35" stop-color="#b3190f"/><stop offset=".8" stop-color="#2a0a0c"/><stop offset="1" stop-color="${K}"/></radialGradient>` +
      `<pattern id="sl" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="4" height="2" fill="#000" opacity=".35"/></pattern></defs>` +
      `<rect width="320" height="200" fill="url(#sg)"/>` +
      `<path d="M30 200C60 150 90 170 110 120C125 150 150 140 160 90C180 130 210 120 230 70C240 110 270 120 320 100V200Z" fill="${K}" opacity=".55"/>` +
      glitch +
      `<rect x="52" y="40" width="216" height="92" fill="${K}" stroke="${O}" stroke-width="2"/>` +
      `<rect x="52" y="40" width="216" height="16" fill="${O}"/>` +
      `<text x="60" y="52" font-family="${MONO}" font-size="10" font-weight="700" fill="${K}">FATAL_ERROR.EXE</text>` +
      `<text x="258" y="52" font-family="${MONO}" font-size="10" font-weight="700" text-anchor="end" fill="${K}">✕</text>` +
      `<g font-family="${SANS}" font-weight="900" font-size="27">` +
      `<text x="63" y="94" fill="${T}" opacity=".8">SYSTEM</text><text x="57" y="92" fill="#ff2d2d" opacity=".9">SYSTEM</text><text x="60" y="93" fill="${C}">SYSTEM</text>` +
      `<text x="63" y="121" fill="${T}" opacity=".8">BURNOUT</text><text x="57" y="119" fill="#ff2d2d" opacity=".9">BURNOUT</text><text x="60" y="120" fill="${C}">BURNOUT</text></g>` +
      `<text x="60" y="150" font-family="${MONO}" font-size="10" fill="${Y}">ERR 0x5A · TAPE OVERHEAT · 99°C</text>` +
      `<rect width="320" height="200" fill="url(#sl)"/>` +
      spine("MIXTAPE · C60 · ERR", O, K),
  );
}

function designHighVoltage() {
  return svg(
    320,
    200,
    "High Voltage — cassette J-card design",
    `<defs><pattern id="hz" width="28" height="28" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="28" height="28" fill="${K}"/><rect width="14" height="28" fill="${Y}"/></pattern>` +
      `<radialGradient id="hg" cx=".62" cy=".45" r=".6"><stop offset="0" stop-color="#3a3214"/><stop offset="1" stop-color="${K}"/></radialGradient></defs>` +
      `<rect width="320" height="200" fill="url(#hg)"/>` +
      `<rect x="30" y="0" width="290" height="20" fill="url(#hz)"/><rect x="30" y="180" width="290" height="20" fill="url(#hz)"/>` +
      `<path d="M60 60L110 80L90 100L150 130M250 40L220 90L260 110L230 160" fill="none" stroke="${Y}" stroke-width="2" opacity=".5"/>` +
      `<path d="M212 24L150 108H190L164 176L246 84H202L232 24Z" fill="${Y}" stroke="${K}" stroke-width="4" stroke-linejoin="round"/>` +
      `<path d="M46 118L70 76L94 118Z" fill="${Y}" stroke="${K}" stroke-width="2"/>` +
      `<path d="M72 86L64 102H74L68 112L80 98H70L76 86Z" fill="${K}"/>` +
      `<g font-family="${SANS}" font-weight="900" font-style="italic">` +
      `<text x="46" y="60" font-size="34" fill="${Y}">HIGH</text>` +
      `<text x="46" y="150" font-size="34" fill="${Y}">VOLTAGE</text></g>` +
      `<text x="46" y="168" font-family="${MONO}" font-size="10" letter-spacing="2" fill="${C}">DANGER · 10 000 WATTS</text>` +
      spine("MIXTAPE · C60 · HV", Y, K),
  );
}

function designUnicornMix() {
  const bands = ["#ff8fab", "#ffc58f", "#fff3a0", "#a8f0c6", "#9fd3ff", "#c9a7ff"];
  let rainbow = "";
  bands.forEach((col, i) => {
    rainbow += `<path d="${arc(200, 200, 150 - i * 14, 180, 360)}" fill="none" stroke="${col}" stroke-width="14"/>`;
  });
  const spark = (x, y, s, col) =>
    `<path transform="translate(${x} ${y}) scale(${s})" d="M0 -10Q1 -1 10 0Q1 1 0 10Q-1 1 -10 0Q-1 -1 0 -10Z" fill="${col}"/>`;
  return svg(
    320,
    200,
    "Unicorn Mix — cassette J-card design",
    `<defs><linearGradient id="ug" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffd6ec"/><stop offset=".5" stop-color="#e9d7ff"/><stop offset="1" stop-color="#c8f5ea"/></linearGradient>` +
      `<linearGradient id="uh" x1="0" y1="1" x2="0" y2="0"><stop offset="0" stop-color="#fff3a0"/><stop offset="1" stop-color="#ff8fab"/></linearGradient></defs>` +
      `<rect width="320" height="200" fill="url(#ug)"/>` +
      rainbow +
      `<path d="M282 16L256 126H306Z" fill="url(#uh)" stroke="${M}" stroke-width="3" stroke-linejoin="round"/>` +
      `<path d="M272 60L293 52M266 84L299 72M260 108L304 94M277 38L288 34" stroke="${M}" stroke-width="3" stroke-linecap="round"/>` +
      spark(232, 34, 1.4, "#ffffff") +
      spark(286, 150, 1, M) +
      spark(150, 30, 0.9, "#c9a7ff") +
      spark(70, 160, 0.8, "#ffffff") +
      spark(168, 160, 0.7, M) +
      spine("MIXTAPE · C60 · ✦", M, "#ffffff") +
      `<g font-family="${SANS}" font-weight="900">` +
      `<text x="46" y="88" font-size="36" fill="#ffffff" stroke="${M}" stroke-width="6" stroke-linejoin="round" paint-order="stroke">UNICORN</text>` +
      `<text x="46" y="130" font-size="36" fill="#ffffff" stroke="#8a5cf6" stroke-width="6" stroke-linejoin="round" paint-order="stroke">MIX</text></g>` +
      `<text x="48" y="150" font-family="${MONO}" font-size="10" letter-spacing="2" fill="${M}">100% MAGIC · SIDE A</text>`,
  );
}

// ---------------------------------------------------------------- cover backgrounds (400x250)

function bg1() {
  // Halftone dots fading in from the bottom-right corner, with a big ring.
  return svg(
    400,
    250,
    "Halftone cover background",
    `<defs><pattern id="d1" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(30)"><circle cx="6" cy="6" r="2.6" fill="${M}"/></pattern>` +
      `<pattern id="d2" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(30)"><circle cx="6" cy="6" r="4.6" fill="${M}"/></pattern>` +
      `<radialGradient id="f1" cx="1" cy="1" r="1.1"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>` +
      `<radialGradient id="f2" cx="1" cy="1" r=".55"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>` +
      `<mask id="m1"><rect width="400" height="250" fill="url(#f1)"/></mask><mask id="m2"><rect width="400" height="250" fill="url(#f2)"/></mask></defs>` +
      `<rect width="400" height="250" fill="${P}"/>` +
      `<rect width="400" height="250" fill="url(#d1)" mask="url(#m1)" opacity=".55"/>` +
      `<rect width="400" height="250" fill="url(#d2)" mask="url(#m2)" opacity=".45"/>` +
      `<circle cx="330" cy="70" r="110" fill="none" stroke="${O}" stroke-width="22" opacity=".18"/>` +
      `<circle cx="330" cy="70" r="60" fill="none" stroke="${Y}" stroke-width="2" opacity=".25"/>` +
      `<rect width="400" height="250" fill="${K}" opacity=".25"/>`,
  );
}

function bg2() {
  // Two giant tape reels with tape running between them.
  const bigReel = (cx, cy, rTape, col) => {
    let spokes = "";
    for (let k = 0; k < 3; k++) {
      const a0 = k * 120 + 20;
      spokes += `<path d="M${f(cx)} ${f(cy)}${arc(cx, cy, 34, a0, a0 + 70).replace("M", "L")}Z" fill="${K}"/>`;
    }
    let grooves = "";
    for (let r = 40; r < rTape; r += 7)
      grooves += `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${col}" stroke-width="1" opacity=".25"/>`;
    return (
      `<circle cx="${cx}" cy="${cy}" r="${rTape}" fill="#2a2233"/>` +
      grooves +
      `<circle cx="${cx}" cy="${cy}" r="40" fill="${G}" opacity=".35"/>` +
      spokes +
      `<circle cx="${cx}" cy="${cy}" r="10" fill="${P}" stroke="${G}" stroke-width="2" opacity=".8"/>`
    );
  };
  return svg(
    400,
    250,
    "Tape reels cover background",
    `<rect width="400" height="250" fill="${P}"/>` +
      `<path d="M0 222H400" stroke="${O}" stroke-width="3" opacity=".35"/>` +
      `<path d="M20 250L90 220H310L380 250" fill="none" stroke="#3a2f2a" stroke-width="8"/>` +
      bigReel(90, 110, 92, T) +
      bigReel(318, 132, 62, M) +
      `<path d="M30 190Q200 250 370 180" fill="none" stroke="#3a2f2a" stroke-width="6"/>` +
      `<rect width="400" height="250" fill="${K}" opacity=".35"/>`,
  );
}

function bg3() {
  // Scanlines over a dusky gradient with a signal waveform.
  let d = "M0 150";
  for (let x = 0; x <= 400; x += 8) {
    const y = 150 + 26 * Math.sin(x / 23) * Math.sin(x / 97) + 8 * Math.sin(x / 5.3);
    d += `L${x} ${f(y)}`;
  }
  return svg(
    400,
    250,
    "Scanline cover background",
    `<defs><linearGradient id="g3" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${K}"/><stop offset=".6" stop-color="#2b1433"/><stop offset="1" stop-color="#4a1a2a"/></linearGradient>` +
      `<pattern id="s3" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="4" height="1.5" fill="#000" opacity=".45"/></pattern>` +
      `<radialGradient id="r3" cx=".9" cy=".1" r=".7"><stop offset="0" stop-color="${O}" stop-opacity=".45"/><stop offset="1" stop-color="${O}" stop-opacity="0"/></radialGradient></defs>` +
      `<rect width="400" height="250" fill="url(#g3)"/>` +
      `<rect width="400" height="250" fill="url(#r3)"/>` +
      `<path d="${d}" fill="none" stroke="${T}" stroke-width="2.5" opacity=".4"/>` +
      `<path d="M0 60H400M0 200H400" stroke="${G}" stroke-width="1" stroke-dasharray="2 6" opacity=".35"/>` +
      `<rect width="400" height="250" fill="url(#s3)"/>`,
  );
}

// ---------------------------------------------------------------- hero (1440x360)

function hero() {
  const rand = mulberry32(1440);
  // starfield
  let stars = "";
  for (let i = 0; i < 60; i++) {
    stars += `M${f(rand() * 1440)} ${f(rand() * 220)}h${rand() < 0.15 ? 2.5 : 1.5}v${rand() < 0.15 ? 2.5 : 1.5}h-${1.5}z`;
  }
  // skyline: one path of blocks across the width, lower in the centre
  let sky = "M0 360";
  let lit = "";
  let x = 0;
  while (x < 1440) {
    const w = 30 + Math.floor(rand() * 60);
    const centre = Math.abs(x + w / 2 - 720) < 300;
    const h = (centre ? 40 : 70) + Math.floor(rand() * (centre ? 40 : 120));
    const top = 360 - h;
    sky += `V${top}H${Math.min(1440, x + w)}`;
    if (rand() < 0.3) {
      // a rooftop antenna
      const ax = x + Math.floor(w / 2);
      lit += `<path d="M${ax} ${top}v-${20 + Math.floor(rand() * 20)}" stroke="#2a2336" stroke-width="3"/>`;
    }
    for (let k = 0; k < 3; k++) {
      if (rand() < 0.5) {
        const wx = x + 6 + Math.floor(rand() * (w - 14));
        const wy = top + 10 + Math.floor(rand() * (h - 20));
        lit += `<rect x="${wx}" y="${wy}" width="5" height="7" fill="${rand() < 0.7 ? Y : O}" opacity=".7"/>`;
      }
    }
    x += w;
  }
  sky += "V360Z";
  // broadcast rings around the central cassette
  let rings = "";
  for (let i = 0; i < 5; i++) {
    const r = 250 + i * 70;
    const col = [O, M, T, Y, O][i];
    rings += `<path d="${arc(720, 200, r, 200, 340)}" fill="none" stroke="${col}" stroke-width="${6 - i}" stroke-linecap="round" opacity="${f(0.75 - i * 0.12)}"${i % 2 ? ' stroke-dasharray="18 12"' : ""}/>`;
  }
  // a tower on each side, away from the centre
  const tower = (tx, ty, h) =>
    `<path d="M${tx} ${ty}L${tx - 16} ${ty + h}M${tx} ${ty}L${tx + 16} ${ty + h}M${tx - 10} ${ty + h * 0.6}H${tx + 10}M${tx - 6} ${ty + h * 0.35}H${tx + 6}M${tx - 12} ${ty + h * 0.8}L${tx + 8} ${ty + h * 0.45}" fill="none" stroke="#2a2336" stroke-width="4"/>` +
    `<circle cx="${tx}" cy="${ty - 4}" r="5" fill="${O}"/>` +
    `<path d="${arc(tx, ty - 4, 16, 200, 340)}${arc(tx, ty - 4, 28, 205, 335)}" fill="none" stroke="${O}" stroke-width="3" opacity=".7"/>`;
  const cw = 400;
  const cx = 720 - cw / 2;
  const cy = 64;
  return svg(
    1440,
    360,
    "Mixtape — pirate radio cassette over a night skyline",
    `<defs><linearGradient id="hs" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${K}"/><stop offset=".7" stop-color="#241a33"/><stop offset="1" stop-color="#3a1a33"/></linearGradient>` +
      `<radialGradient id="hglow" cx=".5" cy=".62" r=".5"><stop offset="0" stop-color="${O}" stop-opacity=".35"/><stop offset="1" stop-color="${O}" stop-opacity="0"/></radialGradient>` +
      `<pattern id="hscan" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="4" height="1" fill="#000" opacity=".22"/></pattern></defs>` +
      `<rect width="1440" height="360" fill="url(#hs)"/>` +
      `<path d="${stars}" fill="${C}" opacity=".55"/>` +
      `<ellipse cx="720" cy="230" rx="620" ry="230" fill="url(#hglow)"/>` +
      rings +
      `<path d="${sky}" fill="#17121f"/>` +
      lit +
      tower(250, 150, 110) +
      tower(1190, 130, 120) +
      // the cassette, tilted slightly, centred
      `<g transform="rotate(-4 720 190)">` +
      `<rect x="${cx + 10}" y="${cy + 14}" width="${cw}" height="${cw * 0.63}" rx="16" fill="#000" opacity=".45"/>` +
      cassette(cx, cy, cw, { body: K, stroke: "#3a3148", label: C, stripe: O, window: P, reel: C, bottom: "#2a2336" }) +
      `<path d="M${cx + 50} ${cy + 36}h170M${cx + 236} ${cy + 36}h60" stroke="${G}" stroke-width="3" stroke-linecap="round" opacity=".7"/>` +
      `<circle cx="${cx + 66}" cy="${cy + 114}" r="18" fill="${M}"/>` +
      `<text x="${cx + 66}" y="${cy + 121}" font-family="${SANS}" font-size="20" font-weight="900" text-anchor="middle" fill="${C}">A</text>` +
      `<path d="M${cx + 320} ${cy + 104}h28M${cx + 320} ${cy + 114}h28M${cx + 320} ${cy + 124}h18" stroke="${P}" stroke-width="3" stroke-linecap="round" opacity=".5"/>` +
      `<circle cx="${cx + 26}" cy="${cy + 228}" r="6" fill="#2a2336"/><circle cx="${cx + cw - 26}" cy="${cy + 228}" r="6" fill="#2a2336"/>` +
      `</g>` +
      `<rect width="1440" height="360" fill="url(#hscan)"/>`,
  );
}

// ---------------------------------------------------------------- favicon (32x32)

function favicon() {
  return svg(
    32,
    32,
    "Mixtape",
    `<rect x="1" y="5" width="30" height="22" rx="3" fill="${O}"/>` +
      `<rect x="4" y="8" width="24" height="12" rx="1.5" fill="${C}"/>` +
      `<rect x="9" y="11" width="14" height="6" rx="3" fill="${K}"/>` +
      `<circle cx="12" cy="14" r="2" fill="${C}"/><circle cx="20" cy="14" r="2" fill="${C}"/>` +
      `<path d="M8 27l2-4h12l2 4z" fill="${K}"/>`,
  );
}

// ---------------------------------------------------------------- write

const files = [];
const put = (rel, content, limit) => {
  const full = join(PUBLIC, rel);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
  files.push([rel, Buffer.byteLength(content), limit]);
};

for (let id = 1; id <= 30; id++) put(`art/thumbs/${String(id).padStart(2, "0")}.svg`, thumb(id), 3072);
put("art/designs/ice-cold.svg", designIceCold(), 12288);
put("art/designs/system-burnout.svg", designSystemBurnout(), 12288);
put("art/designs/high-voltage.svg", designHighVoltage(), 12288);
put("art/designs/unicorn-mix.svg", designUnicornMix(), 12288);
put("art/covers/bg-1.svg", bg1(), 12288);
put("art/covers/bg-2.svg", bg2(), 12288);
put("art/covers/bg-3.svg", bg3(), 12288);
put("art/hero.svg", hero(), 12288);
put("favicon.svg", favicon(), 12288);

let over = false;
for (const [rel, size, limit] of files) {
  const bad = size > limit;
  if (bad) over = true;
  console.log(`public/${rel}  ${size} B${bad ? `  !! over ${limit} B` : ""}`);
}
if (over) {
  console.error("Some SVGs exceed their size budget.");
  process.exit(1);
}
