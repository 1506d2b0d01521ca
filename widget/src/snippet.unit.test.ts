import { afterEach, describe, expect, it } from 'vitest';
import { findWidgetScript, readSnippet } from './snippet';

const PAGE = 'https://shop.example.com/products/1';

function scriptTag(attrs: Record<string, string>): HTMLScriptElement {
  const s = document.createElement('script');
  for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
  return s;
}

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('readSnippet', () => {
  it('reads the snippet as written in the installation guide', () => {
    const s = scriptTag({
      src: 'https://consent.example.net/widget.js',
      'data-embed-code': 'emb_12345678',
      'data-position': 'top',
      'data-theme': 'dark',
      defer: '',
    });
    expect(readSnippet(s, PAGE)).toEqual({
      host: 'https://consent.example.net',
      embedCode: 'emb_12345678',
      position: 'top',
      theme: 'dark',
    });
  });

  it('defaults to bottom and light', () => {
    const s = scriptTag({ src: 'https://consent.example.net/widget.js', 'data-embed-code': 'emb_12345678' });
    expect(readSnippet(s, PAGE)).toMatchObject({ position: 'bottom', theme: 'light' });
  });

  it('treats unknown position and theme values as the defaults', () => {
    const s = scriptTag({
      src: 'https://consent.example.net/widget.js',
      'data-embed-code': 'emb_12345678',
      'data-position': 'left',
      'data-theme': 'Dark',
    });
    expect(readSnippet(s, PAGE)).toMatchObject({ position: 'bottom', theme: 'light' });
  });

  it('accepts data-consentry-id as an alias of data-embed-code', () => {
    const s = scriptTag({ src: 'https://consent.example.net/widget.js', 'data-consentry-id': 'emb_alias_01' });
    expect(readSnippet(s, PAGE)?.embedCode).toBe('emb_alias_01');
  });

  it('prefers data-embed-code when both are present', () => {
    const s = scriptTag({
      src: 'https://consent.example.net/widget.js',
      'data-embed-code': 'emb_primary',
      'data-consentry-id': 'emb_alias_01',
    });
    expect(readSnippet(s, PAGE)?.embedCode).toBe('emb_primary');
  });

  it('derives the host from src: port kept, query dropped, relative src resolved against the page', () => {
    const at = (src: string) => readSnippet(scriptTag({ src, 'data-embed-code': 'emb_12345678' }), PAGE)?.host;
    expect(at('http://localhost:3000/widget.js?v=2')).toBe('http://localhost:3000');
    expect(at('/widget.js')).toBe('https://shop.example.com');
    expect(at('//cdn.example.org/widget.js')).toBe('https://cdn.example.org');
    expect(at('https://example.org/consentry/widget.js')).toBe('https://example.org/consentry');
  });

  it('gives up without src or embed code', () => {
    expect(readSnippet(null, PAGE)).toBeNull();
    expect(readSnippet(scriptTag({ 'data-embed-code': 'emb_12345678' }), PAGE)).toBeNull();
    expect(readSnippet(scriptTag({ src: 'https://x.example/widget.js' }), PAGE)).toBeNull();
    expect(readSnippet(scriptTag({ src: 'https://x.example/widget.js', 'data-embed-code': '  ' }), PAGE)).toBeNull();
  });
});

describe('findWidgetScript', () => {
  it('uses currentScript when it carries an embed code', () => {
    const s = scriptTag({ src: '/widget.js', 'data-embed-code': 'emb_current' });
    expect(findWidgetScript(document, s)).toBe(s);
  });

  it('falls back to the first script tag with an embed code or its alias', () => {
    const other = scriptTag({ src: '/app.js' });
    const widget = scriptTag({ src: '/widget.js', 'data-consentry-id': 'emb_alias_01' });
    document.head.append(other, widget);
    expect(findWidgetScript(document, null)).toBe(widget);
    // currentScript without the attribute (re-created by a tag manager): also the fallback.
    expect(findWidgetScript(document, other)).toBe(widget);
  });

  it('finds nothing on a page without the snippet', () => {
    expect(findWidgetScript(document, null)).toBeNull();
  });
});
