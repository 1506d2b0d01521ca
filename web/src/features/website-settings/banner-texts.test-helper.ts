// Test helper: what GET /api/banner-texts/{language} answers (our texts, from events/ itself), for the
// fetch stubs of the settings tests.
import { shippedTexts, type BannerLanguage } from '@consentry/events';
import { jsonResponse, type StubbedRequest } from '../../test/render';

export const bannerTextsRoute = {
  'GET /api/banner-texts/': (request: StubbedRequest) => {
    const language = request.url.split('/').pop() as BannerLanguage;
    return jsonResponse({ language, dir: language === 'ar' ? 'rtl' : 'ltr', texts: shippedTexts[language] });
  },
};
