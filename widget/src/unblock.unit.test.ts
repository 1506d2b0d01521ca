import { afterEach, describe, expect, it } from 'vitest';
import { grant, PURPOSES } from './purposes';
import { activateBlockedScripts, applyToEmbeds } from './unblock';

const ALL = grant(PURPOSES, true);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('activateBlockedScripts', () => {
  it('turns each blocked script into a real one with the same attributes except type', () => {
    document.body.innerHTML = `
      <div id="slot"><script type="text/plain" data-consentry-category="analytics" id="ga" data-x="1">window.__ga = 1;</script></div>
      <script type="text/plain" data-consentry-category="marketing" src="https://ads.example.com/px.js" crossorigin="anonymous"></script>
      <script type="text/plain" data-consentry-category="marketing" src="https://ads.example.com/a.js" async></script>`;
    expect(activateBlockedScripts(document, ALL)).toBe(3);

    const inline = document.getElementById('ga') as HTMLScriptElement;
    expect(inline.parentElement?.id).toBe('slot');
    expect(inline.hasAttribute('type')).toBe(false);
    expect(inline.getAttribute('data-consentry-category')).toBe('analytics');
    expect(inline.getAttribute('data-x')).toBe('1');
    expect(inline.text).toBe('window.__ga = 1;');

    const [px, a] = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]'));
    expect(px?.getAttribute('src')).toBe('https://ads.example.com/px.js');
    expect(px?.getAttribute('crossorigin')).toBe('anonymous');
    expect(px?.hasAttribute('type')).toBe(false);
    // Page order is kept between external scripts unless the owner asked for async.
    expect(px?.async).toBe(false);
    expect(a?.async).toBe(true);
    expect(document.querySelectorAll('script[type="text/plain"]')).toHaveLength(0);
  });

  it('activates each script only once', () => {
    document.body.innerHTML = '<script type="text/plain" data-consentry-category="analytics">1</script>';
    const before = document.querySelector('script');
    expect(activateBlockedScripts(document, ALL)).toBe(1);
    const after = document.querySelector('script');
    expect(after).not.toBe(before);
    expect(activateBlockedScripts(document, ALL)).toBe(0);
    expect(document.querySelector('script')).toBe(after);
    expect(document.querySelectorAll('script')).toHaveLength(1);
  });

  it('leaves other scripts and text/plain scripts without a category alone', () => {
    document.body.innerHTML =
      '<script type="text/plain" id="notes">x</script><script type="application/ld+json" data-consentry-category="analytics">{}</script>';
    expect(activateBlockedScripts(document, ALL)).toBe(0);
    expect(document.getElementById('notes')?.getAttribute('type')).toBe('text/plain');
  });
});

describe('per purpose', () => {
  it('runs only the scripts whose purpose is granted, and necessary ones always', () => {
    document.body.innerHTML =
      '<script type="text/plain" data-consentry-category="analytics" id="a">1</script>' +
      '<script type="text/plain" data-consentry-category="marketing" id="m">2</script>' +
      '<script type="text/plain" data-consentry-category="necessary" id="n">3</script>' +
      '<script type="text/plain" data-consentry-category="unknown" id="u">4</script>';
    expect(activateBlockedScripts(document, null)).toBe(1);
    expect(document.getElementById('n')?.hasAttribute('type')).toBe(false);
    expect(activateBlockedScripts(document, grant(PURPOSES, (p) => p === 'analytics'))).toBe(1);
    expect(document.getElementById('a')?.hasAttribute('type')).toBe(false);
    expect(document.getElementById('m')?.getAttribute('type')).toBe('text/plain');
    expect(document.getElementById('u')?.getAttribute('type')).toBe('text/plain');
  });

  it('puts one placeholder before each blocked embed and loads it once its purpose is granted', () => {
    document.body.innerHTML =
      '<embed id="v" data-consentry-category="marketing" data-consentry-src="https://video.example.net/e/1">' +
      '<embed id="m" data-consentry-category="preferences" data-consentry-src="https://maps.example.net/x">';
    const made: string[] = [];
    const placeholder = (purpose: string): HTMLElement => {
      made.push(purpose);
      return document.createElement('consentry-placeholder');
    };
    applyToEmbeds(document, null, placeholder);
    applyToEmbeds(document, null, placeholder);
    expect(made).toEqual(['marketing', 'preferences']);
    expect(document.querySelectorAll('consentry-placeholder')).toHaveLength(2);
    expect(document.getElementById('v')?.hasAttribute('src')).toBe(false);

    applyToEmbeds(document, grant(PURPOSES, (p) => p === 'marketing'), placeholder);
    expect(document.getElementById('v')?.getAttribute('src')).toBe('https://video.example.net/e/1');
    expect(document.getElementById('v')?.hasAttribute('data-consentry-src')).toBe(false);
    expect(document.getElementById('m')?.hasAttribute('src')).toBe(false);
    expect(document.querySelectorAll('consentry-placeholder')).toHaveLength(1);
  });
});
