import { describe, expect, it, vi } from 'vitest';
import { consentModeParams, sendConsentMode, type ConsentModeWindow } from './consent-mode';
import { grant, PURPOSES } from './purposes';

const signals = (state: 'denied' | 'granted') => ({
  ad_storage: state,
  analytics_storage: state,
  ad_user_data: state,
  ad_personalization: state,
  functionality_storage: state,
  personalization_storage: state,
  security_storage: 'granted',
});
const DENIED = signals('denied');
const GRANTED = signals('granted');
const ALL = grant(PURPOSES, true);
const NONE = grant(PURPOSES, false);

describe('consentModeParams', () => {
  it('maps each purpose to its own signals, security_storage always granted', () => {
    expect(consentModeParams(null)).toEqual(DENIED);
    expect(consentModeParams(NONE)).toEqual(DENIED);
    expect(consentModeParams(ALL)).toEqual(GRANTED);
    expect(consentModeParams(grant(PURPOSES, (p) => p === 'analytics'))).toEqual({ ...DENIED, analytics_storage: 'granted' });
    expect(consentModeParams(grant(PURPOSES, (p) => p === 'marketing'))).toEqual({
      ...DENIED,
      ad_storage: 'granted',
      ad_user_data: 'granted',
      ad_personalization: 'granted',
    });
    expect(consentModeParams(grant(PURPOSES, (p) => p === 'preferences'))).toEqual({
      ...DENIED,
      functionality_storage: 'granted',
      personalization_storage: 'granted',
    });
    // Identification has no Google signal of its own.
    expect(consentModeParams(grant(PURPOSES, (p) => p === 'identification'))).toEqual(DENIED);
  });
});

const isArguments = (v: unknown): boolean => Object.prototype.toString.call(v) === '[object Arguments]';

describe('sendConsentMode', () => {
  describe('when the page has only a dataLayer', () => {
    it('pushes consent default, all denied, as an arguments object like gtag does', () => {
      const win: ConsentModeWindow = { dataLayer: [] };
      expect(sendConsentMode(win, 'default', null)).toBe(true);
      const layer = win.dataLayer as unknown[];
      expect(layer).toHaveLength(1);
      expect(isArguments(layer[0])).toBe(true);
      expect(Array.from(layer[0] as ArrayLike<unknown>)).toEqual(['consent', 'default', DENIED]);
    });

    it('pushes consent update granted, then denied', () => {
      const win: ConsentModeWindow = { dataLayer: [{ event: 'gtm.js' }] };
      sendConsentMode(win, 'update', ALL);
      sendConsentMode(win, 'update', NONE);
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
      sendConsentMode({ dataLayer: layer }, 'default', null);
      expect(push).toHaveBeenCalledTimes(1);
    });
  });

  describe('when the page has gtag', () => {
    it('calls gtag and leaves dataLayer to it', () => {
      const gtag = vi.fn();
      const win: ConsentModeWindow = { gtag, dataLayer: [] };
      sendConsentMode(win, 'default', null);
      sendConsentMode(win, 'update', ALL);
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
      expect(sendConsentMode(win, 'default', null)).toBe(false);
      expect(win).toEqual({});
      expect(sendConsentMode({ dataLayer: 'oops' }, 'default', null)).toBe(false);
    });
  });
});
