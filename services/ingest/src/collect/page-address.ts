// The page addresses ingest keeps (a consent's and an identification's pageUrl, a page view's url and
// referrer) lose their fragment and any user:password@ always, and their query string unless the
// website's owner keeps them (keepPageQueryStrings): those are where what a visitor typed travels
// (`?email=`, `#access_token=`). See docs/ingest-protocol.md, "Page addresses".

const userInfo = /^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i;

/** `address` without its fragment and credentials; cut as text, so never longer. */
export function stripPageSecrets(address: string): string {
  const cut = address.split('#', 1)[0] ?? '';
  return cut.replace(userInfo, '$1');
}

/** `address` without its query string. */
export function stripQuery(address: string): string {
  return address.split('?', 1)[0] ?? '';
}

/** `address` without its query string, fragment and credentials. */
export function stripPageAddress(address: string): string {
  return stripQuery(stripPageSecrets(address));
}

/** A page address as a website keeps it: its query string only when the owner asked for it. */
export function pageAddressFor(address: string, website: { readonly keepPageQueryStrings: boolean }): string {
  return website.keepPageQueryStrings ? address : stripQuery(address);
}
