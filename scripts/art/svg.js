// The palette, fonts and drawing helpers of the artwork (scripts/make-art.js): number
// formatting, the SVG wrapper, arcs, reels and a cassette.

// Palette
export const K = "#0f0d14"; // ink
export const P = "#1b1724"; // deep panel
export const C = "#f4ecd8"; // cassette cream
export const O = "#ff5a1f"; // signal orange
export const Y = "#ffd23f"; // acid yellow
export const T = "#19c2b5"; // teal
export const M = "#e63e9a"; // magenta
export const G = "#8b8598"; // muted grey

export const MONO = "ui-monospace, monospace";
export const SANS = "system-ui, sans-serif";

/** Format a number compactly (max 1 decimal). */
export const f = (n) => {
  const r = Math.round(n * 10) / 10;
  return Object.is(r, -0) ? "0" : String(r);
};

export const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function svg(w, h, title, body) {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<title>${esc(title)}</title>${body}</svg>\n`
  );
}

export const polar = (cx, cy, r, deg) => {
  const a = (deg * Math.PI) / 180;
  return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
};

/** Arc path from angle a0 to a1 (degrees, clockwise). */
export function arc(cx, cy, r, a0, a1) {
  const [x0, y0] = polar(cx, cy, r, a0);
  const [x1, y1] = polar(cx, cy, r, a1);
  const large = a1 - a0 > 180 ? 1 : 0;
  return `M${f(x0)} ${f(y0)}A${f(r)} ${f(r)} 0 ${large} 1 ${f(x1)} ${f(y1)}`;
}

/** Cassette reel: hub ring with 6 teeth. */
export function reel(cx, cy, r, ring, hub, teeth = ring) {
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
export function cassette(x, y, w, o) {
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
