// No recommendation may advise a dark pattern: pre-ticked boxes, hiding or de-emphasising Decline,
// emphasising Accept over Decline, cookie walls, or asking again and again. Every rule runs over a
// grid of metrics that triggers each of its branches, and every sentence of every text is scanned.
// A sentence may name a dark pattern only to rule it out: a negation must come before it.
import { describe, expect, it } from 'vitest';
import type { RecommendationMetrics } from './metrics';
import { recommendationRules, type RecommendationDraft } from './rules';
import { choices, metricsWith } from './testing';

const darkPatterns: ReadonlyArray<readonly [string, RegExp]> = [
  ['pre-ticked boxes', /\bpre-?(?:tick|check|select)|\bticked by default|\bchecked by default|\bopt-?out by default/gi],
  ['consent by inaction', /\b(?:scroll(?:ing)?|clos(?:e|ing)|continu(?:e|ing) to browse)\b[^.]*\b(?:as|counts? as|means?) (?:consent|agreement|accept)/gi],
  [
    'hiding or de-emphasising Decline',
    /\b(?:hid(?:e|ing)|remov(?:e|ing)|shrink(?:ing)?|de-?emphasi[sz](?:e|ing)|grey(?:ing)? out|gray(?:ing)? out|bury|burying|tuck(?:ing)? away|mov(?:e|ing) [^.]*(?:behind|into|to a) (?:a )?(?:settings|second|link))\b[^.]*\b(?:decline|reject|refuse|refusal|no thanks)\b|\b(?:decline|reject|refuse)\b[^.]*\b(?:smaller|less (?:visible|prominent)|hidden|harder to (?:find|see|click)|a (?:small |plain )?(?:text )?link|grey|gray|behind|second (?:layer|screen|page))\b/gi,
  ],
  [
    'emphasising Accept over Decline',
    /\b(?:accept)\b[^.]*\b(?:bigger|larger|brighter|bolder|more (?:prominent|visible|attractive)|stand out|highlight(?:ed)?|primary colou?r)\b/gi,
  ],
  ['cookie walls', /\bcookie ?walls?\b|\bblock(?:ing)? (?:the )?(?:site|page|content|access)\b|\buntil (?:they|visitors?|users?) (?:accept|agree|answer)/gi],
  [
    'nagging',
    /\bnag(?:ging)?\b|\bre-?prompt|\bask(?:ing)? (?:[a-z]+ )*again\b|\bshow(?:ing)? the banner again\b|\bremind (?:visitors|them) to accept|\bafter (?:every|each) (?:page|visit)/gi,
  ],
];

const negation = /\b(?:never|not|don't|do not|must not|mustn't|no|avoid|without|instead of|rather than)\b/i;

/** The dark patterns a text advises: sentences that name one with no negation before it. */
function findDarkPatternAdvice(text: string): string[] {
  const findings: string[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    for (const [name, pattern] of darkPatterns) {
      for (const match of sentence.matchAll(pattern)) {
        if (!negation.test(sentence.slice(0, match.index))) findings.push(`${name}: "${sentence}"`);
      }
    }
  }
  return findings;
}

function textsOf(draft: RecommendationDraft): string[] {
  return [draft.title, draft.description, draft.impact, draft.estimatedImprovement, draft.timeToImplement, ...draft.actionItems];
}

/** Metrics that reach every branch of every rule (each rule's own tests cover the thresholds). */
function metricsGrid(): RecommendationMetrics[] {
  const grid: RecommendationMetrics[] = [metricsWith()];
  for (const rate of [5, 25, 45, 70]) {
    for (const [mobileRate, desktopRate] of [[10, 60], [60, 10], [50, 50]] as const) {
      for (const [impressions, answered] of [[1000, 100], [1000, 500], [1000, 950]] as const) {
        grid.push(
          metricsWith({
            consent: choices(1000, rate),
            mobile: choices(300, mobileRate),
            desktop: choices(300, desktopRate),
            bySource: { banner: choices(600, rate), gpc: { accepted: 0, declined: 400 }, reopened: choices(10, 50) },
            impressions,
            bannerChoices: answered,
            currentVariant: { position: 'bottom', theme: 'light' },
            bannerVariants: [
              { position: 'bottom', theme: 'light', days: 5, impressions: 500, answers: 100, accepted: 50 },
              { position: 'top', theme: 'dark', days: 5, impressions: 500, answers: 450, accepted: 200 },
            ],
            lastEventDay: rate === 5 ? null : rate === 25 ? '2026-06-01' : '2026-06-30',
            scan: {
              completedAt: '2026-06-29T10:00:00.000Z',
              findings: [
                { code: 'set_before_consent', subject: '_ga', purpose: 'analytics', platform: 'Google Analytics', pageCount: 12 },
                { code: 'set_after_reject', subject: '_fbp', purpose: 'marketing', platform: null, pageCount: 1 },
                { code: 'banner_missing', subject: null, purpose: null, platform: null, pageCount: 2 },
              ],
            },
            purposes: [
              { purpose: 'analytics', offered: 1000, granted: rate / 2 },
              { purpose: 'identification', offered: 500, granted: 0 },
            ],
            website: { retentionMonths: 60, ipAddressMode: 'full', privacyPolicyUrl: null },
          }),
        );
      }
    }
  }
  return grid;
}

describe('the dark-pattern scan', () => {
  it.each([
    'Hide the Decline button on mobile.',
    'Make Decline a small grey link.',
    'Pre-tick the analytics checkbox.',
    'Show the banner again on every page until they accept.',
    'Make Accept bigger and brighter than the other button.',
    'Block the site until visitors accept.',
    'Treat scrolling as consent.',
    'Move Decline behind a settings link.',
    'Hide Decline, not Accept.',
  ])('catches advice like "%s"', (text) => {
    expect(findDarkPatternAdvice(text)).not.toEqual([]);
  });

  it.each([
    'Never pre-tick boxes, and never treat scrolling or closing the banner as consent.',
    'Do not respond by hiding Decline, shrinking it or moving it behind a settings link.',
    'Keep Accept and Decline equally visible: same size, same style, side by side.',
  ])('lets a warning through: "%s"', (text) => {
    expect(findDarkPatternAdvice(text)).toEqual([]);
  });
});

describe('every rule', () => {
  const grid = metricsGrid();

  it('is triggered by the grid, so its texts are scanned', () => {
    const triggered = new Set(recommendationRules.filter((rule) => grid.some((metrics) => rule.evaluate(metrics).length > 0)).map((rule) => rule.id));
    expect([...triggered].sort()).toEqual(recommendationRules.map((rule) => rule.id).sort());
  });

  it.each(recommendationRules.map((rule) => [rule.id, rule] as const))('%s advises no dark pattern', (_id, rule) => {
    const findings = grid.flatMap((metrics) => rule.evaluate(metrics).flatMap(textsOf).flatMap(findDarkPatternAdvice));
    expect([...new Set(findings)]).toEqual([]);
  });
});
