// The 400x250 cover-card background textures.
import { K, P, O, Y, T, M, G, f, svg, arc } from "./svg.js";

export function bg1() {
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

export function bg2() {
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

export function bg3() {
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
