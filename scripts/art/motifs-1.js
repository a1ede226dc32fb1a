// The motifs of songs 1 to 15 (scripts/art/thumbs.js): each gets (ctx) with colours bg,a,b,c,
// a seeded rand, and an id prefix `p` for unique element ids, and returns SVG markup for a 160x160 box.
import { K, P, C, M, G, MONO, f, polar, arc, cassette } from "./svg.js";

export const MOTIFS_1 = {
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
};
