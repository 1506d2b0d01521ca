// Where to go after signing in. Only same-origin paths are accepted, so a crafted link cannot send a
// freshly signed-in user to another site.

export function getSafeRedirect(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  return value;
}
