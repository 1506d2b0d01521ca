import { describe, expect, it } from 'vitest';
import { pageAddressFor, stripPageAddress, stripPageSecrets } from './page-address';

describe('a page address as ingest keeps it', () => {
  it.each([
    ['https://shop.example/pricing', 'https://shop.example/pricing'],
    ['https://shop.example/signup?email=ada%40example.com&plan=pro', 'https://shop.example/signup'],
    ['https://shop.example/callback#access_token=secret', 'https://shop.example/callback'],
    ['https://shop.example/a?b#c?d', 'https://shop.example/a'],
    ['https://ada:hunter2@shop.example/account?x=1', 'https://shop.example/account'],
    ['https://shop.example:8443/?q=ada@example.com', 'https://shop.example:8443/'],
    ['https://shop.example/naïve/path', 'https://shop.example/naïve/path'],
    ['/relative/path?email=ada@example.com', '/relative/path'],
    ['not a url ?email=ada@example.com', 'not a url '],
    ['', ''],
  ])('keeps %j as %j', (address, kept) => {
    expect(stripPageAddress(address)).toBe(kept);
  });
});

describe('a page address as a website that keeps query strings has it', () => {
  it.each([
    ['https://shop.example/landing?utm_source=news#top', 'https://shop.example/landing?utm_source=news'],
    ['https://ada:hunter2@shop.example/a?b=1', 'https://shop.example/a?b=1'],
    ['https://shop.example/callback#access_token=secret', 'https://shop.example/callback'],
  ])('keeps %j as %j', (address, kept) => {
    expect(pageAddressFor(stripPageSecrets(address), { keepPageQueryStrings: true })).toBe(kept);
    expect(pageAddressFor(stripPageSecrets(address), { keepPageQueryStrings: false })).toBe(stripPageAddress(address));
  });
});
