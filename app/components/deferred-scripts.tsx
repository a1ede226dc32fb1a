import { Scripts } from "react-router";

/** Defers the JavaScript until the hero paints (docs/decisions/002-deferred-scripts.md); tests/system/deferred-scripts.test.ts guards the markup it assumes. */
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

export function PageScripts({ nonce, deferred }: { nonce: string; deferred: boolean }) {
  if (!deferred) return <Scripts nonce={nonce} />;
  return (
    <>
      <noscript>
        <Scripts nonce={nonce} />
      </noscript>
      {/* Hydration leaves a script's text as the server wrote it, so the browser bundle need not carry it. */}
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? BOOT : "" }} />
    </>
  );
}
