// The 1440x360 hero banner and the 32x32 cassette favicon.
import { K, P, C, O, Y, T, M, G, SANS, f, svg, arc, cassette } from "./svg.js";
import { mulberry32 } from "./random.js";

export function hero() {
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

export function favicon() {
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
