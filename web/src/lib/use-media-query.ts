// Whether a media query matches, following changes (a rotated phone, a resized window). Screens that
// would otherwise draw the same rows twice — a list for phones, a table for wider screens, one of them
// hidden by CSS — render only the one that fits, so each row exists once in the page.
import { useCallback, useSyncExternalStore } from 'react';

/** `fallback` answers where the browser has no matchMedia (tests in jsdom, server rendering). */
export function useMediaQuery(query: string, fallback = true): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const read = () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback);
  return useSyncExternalStore(subscribe, read, () => fallback);
}
