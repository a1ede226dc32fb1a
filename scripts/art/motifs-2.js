// The motifs of songs 16 to 30 (scripts/art/thumbs.js), as motifs-1.js's.
import { K, C, G, MONO, f, polar, arc } from "./svg.js";

export const MOTIFS_2 = {
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
