// The 320x200 cassette J-card designs.
import { K, C, O, Y, T, M, MONO, SANS, f, svg, arc } from "./svg.js";
import { mulberry32 } from "./random.js";

function spine(text, bg, fg) {
  return (
    `<rect width="30" height="200" fill="${bg}"/>` +
    `<text transform="translate(19 186) rotate(-90)" font-family="${MONO}" font-size="10" font-weight="700" letter-spacing="1.5" fill="${fg}">${text}</text>`
  );
}

export function designIceCold() {
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

export function designSystemBurnout() {
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

export function designHighVoltage() {
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

export function designUnicornMix() {
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
