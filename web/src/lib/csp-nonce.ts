// The Content-Security-Policy nonce of this page: the server puts it in
// `<meta property="csp-nonce" nonce="…">` of index.html (services/api/src/web-app.ts), and the CSP
// allows inline <style> elements only with it. Two libraries insert such elements at run time:
// react-remove-scroll (under Radix dialogs, menus and selects), which reads the global
// `__webpack_nonce__` (its get-nonce convention), and Radix Select, which takes a `nonce` prop.

/** The page's nonce; undefined outside a page served by the api (tests, the Vite dev server). */
export function getCspNonce(): string | undefined {
  // Browsers hide the attribute's value once the page loaded (nonce hiding); the property keeps it.
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  return meta?.nonce || undefined;
}

/** Hands the nonce to libraries that read it from a global. Call once, before the app renders. */
export function exposeCspNonceToLibraries(): void {
  const nonce = getCspNonce();
  if (nonce !== undefined) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;
}
