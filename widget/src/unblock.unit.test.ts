import { afterEach, describe, expect, it } from 'vitest';
import { activateBlockedScripts } from './unblock';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('activateBlockedScripts', () => {
  it('turns each blocked script into a real one with the same attributes except type', () => {
    document.body.innerHTML = `
      <div id="slot"><script type="text/plain" data-consentry-category="analytics" id="ga" data-x="1">window.__ga = 1;</script></div>
      <script type="text/plain" data-consentry-category="marketing" src="https://ads.example.com/px.js" crossorigin="anonymous"></script>
      <script type="text/plain" data-consentry-category="marketing" src="https://ads.example.com/a.js" async></script>`;
    expect(activateBlockedScripts(document)).toBe(3);

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
    expect(activateBlockedScripts(document)).toBe(1);
    const after = document.querySelector('script');
    expect(after).not.toBe(before);
    expect(activateBlockedScripts(document)).toBe(0);
    expect(document.querySelector('script')).toBe(after);
    expect(document.querySelectorAll('script')).toHaveLength(1);
  });

  it('leaves other scripts and text/plain scripts without a category alone', () => {
    document.body.innerHTML =
      '<script type="text/plain" id="notes">x</script><script type="application/ld+json" data-consentry-category="analytics">{}</script>';
    expect(activateBlockedScripts(document)).toBe(0);
    expect(document.getElementById('notes')?.getAttribute('type')).toBe('text/plain');
  });
});
