// The banner texts the editor offers: every text key the api takes (@consentry/events/contracts),
// each labelled once. (Our wording per language comes from GET /api/banner-texts/{language}:
// web-languages.e2e.test.ts.)
import { describe, expect, it } from 'vitest';
import { bannerTextKeys, bannerTextLabels, longBannerTextKeys } from './banner-texts';

describe('the banner text keys', () => {
  it('each have a label of their own', () => {
    const labels = bannerTextKeys.map((key) => bannerTextLabels[key]);
    expect(new Set(labels).size).toBe(bannerTextKeys.length);
    for (const key of longBannerTextKeys) expect(bannerTextKeys).toContain(key);
  });
});
