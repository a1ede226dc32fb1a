import { createContext, useContext } from "react";

const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;

let documentNonce: string | undefined;
/** In the browser: the nonce the page's scripts carry (hydration compares it). */
const fromDocument = () =>
  typeof document === "undefined"
    ? ""
    : (documentNonce ??= document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce ?? "");

/** The request's CSP nonce: from the server's provider, else from the document. */
export const useNonce = () => useContext(NonceContext) || fromDocument();
