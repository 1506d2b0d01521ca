// The site-content stream family: the texts and hero image of the public marketing site, which admins
// edit in the website editor. The editor and the landing page start from `defaultSiteContent`.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import { actor, displayText, imageDataUrl, isoDateTime } from './fields';

/** Hero background uploads are larger than logos: a full-width photo. */
export const maxHeroBackgroundBytes = 5 * 1024 * 1024;

const sectionTitle = displayText(120);
const buttonText = displayText(40);
const shortText = z.string().max(500);

/** Every field of spec section 3 "Website content"; the editor always saves all of them. */
export const SiteContent = z.strictObject({
  heroTitle: sectionTitle,
  heroSubtitle: shortText,
  heroButtonText: buttonText,
  aboutTitle: sectionTitle,
  aboutText: z.string().max(2000),
  featuresTitle: sectionTitle,
  feature1Title: displayText(80),
  feature1Text: shortText,
  feature2Title: displayText(80),
  feature2Text: shortText,
  feature3Title: displayText(80),
  feature3Text: shortText,
  ctaTitle: sectionTitle,
  ctaText: shortText,
  ctaButtonText: buttonText,
  footerText: shortText,
  /** An image data URL of at most 5 MB decoded, or null for the plain background. */
  heroBackgroundImage: imageDataUrl(maxHeroBackgroundBytes).nullable(),
});
export type SiteContent = z.infer<typeof SiteContent>;

/** The landing page's copy until an admin changes it (spec section 1: three steps, five-minute setup). */
export const defaultSiteContent: SiteContent = Object.freeze({
  heroTitle: 'Turn anonymous visitors into consented leads',
  heroSubtitle:
    'Consentry asks every visitor for consent with a clear, compliant banner, records each choice in a ' +
    'tamper-evident ledger and helps you identify up to 40% of your visitors: only the ones who said yes. ' +
    'Set up in 5 minutes, tracked in real time.',
  heroButtonText: 'Get Started',
  aboutTitle: 'Consent first, growth second',
  aboutText:
    'Most visitors leave without a trace, and most cookie banners are an afterthought. Consentry puts ' +
    'consent at the centre: one small script on your site asks each visitor plainly, records the answer ' +
    'together with the policy they saw, and keeps that record for as long as you need to prove it. ' +
    'Visitors who accept become leads you can reach; visitors who decline are respected. Either way you ' +
    'stay on the right side of GDPR and CCPA, and you can show it years later.',
  featuresTitle: 'From visitor to lead in three steps',
  feature1Title: 'Add it to your site',
  feature1Text:
    "Paste one line of script into your site's HTML and you are live in about 5 minutes. It works with " +
    'plain HTML, WordPress, Shopify and React, and you can manage every one of your sites from one dashboard.',
  feature2Title: 'Capture visitors ethically',
  feature2Text:
    'A customizable consent prompt in your colours and with your logo asks every visitor. Each choice is ' +
    'recorded with the policy version, time and location, ready for any GDPR or CCPA audit.',
  feature3Title: 'Convert with consent',
  feature3Text:
    'Reach the visitors who said yes by email, ads or LinkedIn, and follow consent rates, traffic and ' +
    'tailored recommendations in real-time analytics.',
  ctaTitle: 'Start collecting consent the right way',
  ctaText:
    'Add your first website in 5 minutes and watch every visitor choice arrive as it happens. Compliant ' +
    'from the first click.',
  ctaButtonText: 'Get Started',
  footerText: 'Consentry: consent-based visitor identification and cookie-consent management for GDPR and CCPA.',
  heroBackgroundImage: null,
});

export const SiteContentChangedData = SiteContent.extend({
  /** The admin's username. */
  changedBy: actor,
  changedAt: isoDateTime,
});
export type SiteContentChangedData = z.infer<typeof SiteContentChangedData>;
export const SiteContentChanged = defineEvent({
  type: 'SiteContentChanged',
  version: 1,
  category: 'site-content',
  schema: SiteContentChangedData,
});
export type SiteContentChanged = EventOf<typeof SiteContentChanged>;

export type SiteContentEvent = SiteContentChanged;
export const siteContentEventTypes = ['SiteContentChanged'] as const satisfies readonly SiteContentEvent['type'][];
