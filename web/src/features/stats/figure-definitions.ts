// What each consent figure counts, defined once for every card that shows it (the dashboard, a
// website's Consent tab) and for docs/analytics.md, "What each consent figure counts". A figure's
// title is the spec's; `counts` names its unit under the number, so a count of choices is not read
// as a count of people; `explanation` is what the (i) beside it says on hover and focus.
import type { FigureDefinition } from '../../components/figure-help';

export const figureDefinitions = {
  totalConsents: {
    counts: 'choices, all time',
    explanation:
      'Every choice visitors made on your banners, all time. A visitor who changes their mind makes a second choice, and a visitor who never answers makes none, so this counts choices, not people.',
  },
  consentRate: {
    counts: 'of choices allowed a purpose',
    explanation:
      'The share of all choices that allowed at least one optional purpose: Accept All, or a custom choice with any purpose on. How often visitors pressed Accept All itself, and each purpose’s own rate, are under Consent by purpose.',
  },
  declined: {
    counts: 'choices that allowed nothing, all time',
    explanation: 'Choices that allowed no optional purpose: Reject All, a custom choice with every purpose off, or a browser’s Global Privacy Control signal.',
  },
  activeWebsites: {
    counts: 'websites with the banner on',
    explanation: 'Websites whose banner is switched on. A website that is switched off keeps its data but records nothing new.',
  },
  lastConsent: {
    counts: 'the newest choice',
    explanation: 'When a visitor of this website last made a choice on its banner, in your time zone.',
  },
} as const satisfies Record<string, FigureDefinition>;

export type FigureName = keyof typeof figureDefinitions;
