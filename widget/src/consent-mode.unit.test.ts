import { describe, expect, it, vi } from 'vitest';
import { sendConsentMode, type ConsentModeWindow } from './consent-mode';

const DENIED = { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' };
const GRANTED = { ad_storage: 'granted', analytics_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted' };

const isArguments = (v: unknown): boolean => Object.prototype.toString.call(v) === '[object Arguments]';

describe('sendConsentMode', () => {
  describe('when the page has only a dataLayer', () => {
    it('pushes consent default, all denied, as an arguments object like gtag does', () => {
      const win: ConsentModeWindow = { dataLayer: [] };
      expect(sendConsentMode(win, 'default', false)).toBe(true);
      const layer = win.dataLayer as unknown[];
      expect(layer).toHaveLength(1);
      expect(isArguments(layer[0])).toBe(true);
      expect(Array.from(layer[0] as ArrayLike<unknown>)).toEqual(['consent', 'default', DENIED]);
    });

    it('pushes consent update granted, then denied', () => {
      const win: ConsentModeWindow = { dataLayer: [{ event: 'gtm.js' }] };
      sendConsentMode(win, 'update', true);
      sendConsentMode(win, 'update', false);
      const layer = win.dataLayer as unknown[];
      expect(layer[0]).toEqual({ event: 'gtm.js' });
      expect(Array.from(layer[1] as ArrayLike<unknown>)).toEqual(['consent', 'update', GRANTED]);
      expect(Array.from(layer[2] as ArrayLike<unknown>)).toEqual(['consent', 'update', DENIED]);
      expect(isArguments(layer[1])).toBe(true);
    });

    it('calls a replaced push (GTM swaps dataLayer.push for its own) with dataLayer as this', () => {
      const layer: unknown[] = [];
      const push = vi.fn(function (this: unknown) {
        expect(this).toBe(layer);
        return 0;
      });
      Object.defineProperty(layer, 'push', { value: push });
      sendConsentMode({ dataLayer: layer }, 'default', false);
      expect(push).toHaveBeenCalledTimes(1);
    });
  });

  describe('when the page has gtag', () => {
    it('calls gtag and leaves dataLayer to it', () => {
      const gtag = vi.fn();
      const win: ConsentModeWindow = { gtag, dataLayer: [] };
      sendConsentMode(win, 'default', false);
      sendConsentMode(win, 'update', true);
      expect(gtag.mock.calls).toEqual([
        ['consent', 'default', DENIED],
        ['consent', 'update', GRANTED],
      ]);
      expect(win.dataLayer).toEqual([]);
    });
  });

  describe('when the page has neither', () => {
    it('does nothing and creates no dataLayer', () => {
      const win: ConsentModeWindow = {};
      expect(sendConsentMode(win, 'default', false)).toBe(false);
      expect(win).toEqual({});
      expect(sendConsentMode({ dataLayer: 'oops' }, 'default', false)).toBe(false);
    });
  });
});
