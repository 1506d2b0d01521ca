// Our own banner texts per language: the defaults an owner's wording replaces, which the website
// settings show beside each text. Public, like the widget config that carries them: nothing here is
// anyone's data.
import { bannerLanguage, bannerTextKeys, shippedTexts, textDirection } from '@consentry/events';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorsFor } from '../schemas';

const bannerTextsAnswer = z
  .object({
    language: bannerLanguage,
    dir: z.enum(['ltr', 'rtl']),
    texts: z.record(z.enum(bannerTextKeys), z.string()).meta({ description: 'Every text of the banner and preference centre, `{company}` and `{purpose}` unfilled' }),
  })
  .meta({ id: 'BannerTexts' });

export const bannerTextRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/banner-texts/:language',
    {
      config: { access: 'public' },
      schema: {
        tags: ['websites'],
        summary: "Our banner texts in one of the banner's 25 languages (the defaults of an owner's own wording)",
        params: z.object({ language: bannerLanguage }),
        response: { 200: bannerTextsAnswer, ...errorsFor(400) },
      },
    },
    async (request, reply) => {
      const { language } = request.params;
      reply.header('cache-control', 'public, max-age=3600');
      return { language, dir: textDirection(language), texts: shippedTexts[language] };
    },
  );
};
