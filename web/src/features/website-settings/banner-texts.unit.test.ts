// The banner texts the editor offers: every text key the api takes, in its order, each labelled. (Our
// wording per language comes from GET /api/banner-texts/{language}: web-languages.e2e.test.ts.)
import { describe, expect, it } from 'vitest';
import { bannerTextKeys as apiTextKeys } from '@consentry/events';
import { bannerTextKeys, bannerTextLabels, longBannerTextKeys } from './banner-texts';

describe('the banner text keys', () => {
  it('are the api’s, in its order, each with a label of its own', () => {
    expect(bannerTextKeys).toEqual(apiTextKeys);
    const labels = bannerTextKeys.map((key) => bannerTextLabels[key]);
    expect(new Set(labels).size).toBe(bannerTextKeys.length);
    for (const key of longBannerTextKeys) expect(bannerTextKeys).toContain(key);
  });
});
