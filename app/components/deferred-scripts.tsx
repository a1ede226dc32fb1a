import { Scripts } from "react-router";

/**
 * React Router's <Scripts/> inert in a <noscript>; a boot script runs its classic scripts at
 * once and adds the module scripts once the hero image has painted, or after 1.5 s: on a slow
 * phone the page paints before the JavaScript competes for the line (docs/decisions/002-deferred-scripts.md).
 * It relies on <Scripts/> rendering only <script> and <link rel="modulepreload"> elements:
 * tests/system/deferred-scripts.test.ts fails when a React Router upgrade changes that.
 */
export const BOOT = `(() => {
  const me = document.currentScript;
  const parsed = document.createElement("template");
  parsed.innerHTML = me.previousElementSibling.textContent;
  const add = (el) => {
    const copy = document.createElement(el.localName);
    for (const a of el.attributes) copy.setAttribute(a.name, a.value);
    copy.textContent = el.textContent;
    copy.nonce = me.nonce;
    document.body.append(copy);
  };
  const later = [];
  for (const el of parsed.content.children) {
    if (el.localName === "script" && el.type !== "module") add(el);
    else later.push(el);
  }
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    later.forEach(add);
  };
  const afterPaint = () => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start)));
  const hero = document.querySelector("img[fetchpriority=high]");
  if (hero && !hero.complete) {
    hero.addEventListener("load", afterPaint);
    hero.addEventListener("error", afterPaint);
  } else afterPaint();
  setTimeout(start, 1500);
})()`;

/** The page's scripts: deferred as above, or React Router's own <Scripts/> when DEFER_SCRIPTS=0. */
export function PageScripts({ nonce, deferred }: { nonce: string; deferred: boolean }) {
  if (!deferred) return <Scripts nonce={nonce} />;
  return (
    <>
      <noscript>
        <Scripts nonce={nonce} />
      </noscript>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: BOOT }} />
    </>
  );
}
