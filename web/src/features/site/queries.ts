// Branding and public-site content. The landing page reads the public, read-only copies
// (/api/site/*); admins read and write the installation's through /api/admin/*, owners their own
// banner branding through /api/branding. Keys share the entity prefix so saving the installation's
// branding or content invalidates the public copy too.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiSchemas } from '../../lib/api-types';

/** The company name, primary colour (#rrggbb) and logo (an image data URL, or null) the banner and the site show. */
export type Branding = ApiSchemas['Branding'];
/** Every text of the public site and its hero background (an image data URL, or null). */
export type WebsiteContent = ApiSchemas['SiteContent'];

export const productName = 'Consentry';
export const defaultPrimaryColor = '#2563eb';

/** The marketing copy shown until an admin edits it, or when the content cannot be loaded. */
export const defaultWebsiteContent: WebsiteContent = {
  heroTitle: 'Turn anonymous visitors into consented leads',
  heroSubtitle:
    'Identify up to 40% of your website visitors with consent-based identification that stays GDPR and CCPA compliant. Set up in 5 minutes and watch consents arrive in real time.',
  heroButtonText: 'Get Started',
  aboutTitle: 'Consent you can prove',
  aboutText:
    'Every visitor choice is recorded in an append-only ledger with its time, location and device, so you can show years later exactly what each visitor agreed to.',
  featuresTitle: 'How it works',
  feature1Title: 'Add to your site',
  feature1Text: 'Paste one small script into your website and your consent banner is live in minutes.',
  feature2Title: 'Capture visitors ethically',
  feature2Text: 'Compliant, customizable prompts ask for consent clearly and record every choice.',
  feature3Title: 'Convert',
  feature3Text: 'Reach consented visitors by email, ads or LinkedIn and turn them into customers.',
  ctaTitle: 'Ready to grow with consent?',
  ctaText: 'Start with the free plan and upgrade when your traffic grows.',
  ctaButtonText: 'Get Started',
  footerText: 'Consent-based visitor identification and cookie-consent management for website owners.',
  heroBackgroundImage: null,
};

/** Fills empty fields from the defaults, so a half-edited content record never shows blank headings. */
export function withDefaultContent(content: Partial<WebsiteContent> | null | undefined): WebsiteContent {
  const merged: WebsiteContent = { ...defaultWebsiteContent };
  if (!content) return merged;
  for (const key of Object.keys(defaultWebsiteContent) as (keyof WebsiteContent)[]) {
    const value = content[key];
    if (typeof value === 'string' && value.trim() !== '') merged[key] = value;
  }
  return merged;
}

export function getCompanyName(branding: Branding | null | undefined): string {
  return branding?.companyName?.trim() || productName;
}

export function publicBrandingQueryOptions() {
  return queryOptions({
    queryKey: ['branding', 'public'],
    queryFn: () => getJson<Branding>('/api/site/branding'),
  });
}

export function publicWebsiteContentQueryOptions() {
  return queryOptions({
    queryKey: ['website-content', 'public'],
    queryFn: () => getJson<Partial<WebsiteContent>>('/api/site/content'),
  });
}

export function adminBrandingQueryOptions() {
  return queryOptions({
    queryKey: ['branding', 'admin'],
    queryFn: () => getJson<Branding>('/api/admin/branding'),
  });
}

/** The signed-in owner's own branding, shown on the banner of their websites (owners only). */
export function ownerBrandingQueryOptions() {
  return queryOptions({
    queryKey: ['branding', 'owner'],
    queryFn: () => getJson<Branding>('/api/branding'),
  });
}

export function adminWebsiteContentQueryOptions() {
  return queryOptions({
    queryKey: ['website-content', 'admin'],
    queryFn: () => getJson<Partial<WebsiteContent>>('/api/admin/website-content'),
  });
}
