// The page addresses ingest keeps (a consent's and an identification's pageUrl, a page view's url and
// referrer) lose their query string, fragment and any user:password@: those are where what a visitor
// typed travels (`?email=`, `#access_token=`), and the ledger keeps where a visitor was, never what
// they typed. See docs/ingest-protocol.md, "Page addresses".

const userInfo = /^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i;

/** `address` without its query string, fragment and credentials; cut as text, so never longer. */
export function stripPageAddress(address: string): string {
  const cut = address.split(/[?#]/, 1)[0] ?? '';
  return cut.replace(userInfo, '$1');
}
