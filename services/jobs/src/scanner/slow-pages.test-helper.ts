// A browser that is slow to open pages, for the scan's deadline and abort tests: a scanning
// context's newPage() reaches Chromium only when the context is closed, just before the close. That
// is the moment a loaded machine can hit by chance (the scan stops while a page is being opened),
// made certain: Playwright (1.65) never settles a newPage that is in flight when its context closes.
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';

export interface SlowPagesBrowser {
  readonly browser: Browser;
  /** Pages asked for so far (scanning contexts only). */
  readonly pagesAsked: () => number;
}

/** Wraps `browser`; `onPageAsked` hears each page a scanning context asks for, while it is held. */
export function slowToOpenPages(browser: Browser, onPageAsked: () => void = () => undefined): SlowPagesBrowser {
  let asked = 0;
  const wrapContext = (context: BrowserContext): BrowserContext => {
    let sendHeld: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (sendHeld = resolve));
    return new Proxy(context, {
      get(target, property) {
        if (property === 'newPage') {
          return async () => {
            asked++;
            onPageAsked();
            await held;
            return target.newPage();
          };
        }
        if (property === 'close') {
          return (options?: Parameters<BrowserContext['close']>[0]) => {
            sendHeld?.();
            // The held newPage() goes out first, then the close, as when a deadline meets a page opening.
            return new Promise<void>((resolve) => setImmediate(resolve)).then(() => target.close(options));
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  const wrapped = new Proxy(browser, {
    get(target, property) {
      if (property === 'newContext') {
        return async (options?: BrowserContextOptions) => {
          const context = await target.newContext(options);
          // Only the scan's own contexts (through the guard proxy); the user-agent probe opens pages as usual.
          return options?.proxy ? wrapContext(context) : context;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { browser: wrapped, pagesAsked: () => asked };
}
