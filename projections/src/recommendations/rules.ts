// The recommendation rules: each a small pure function from a website's metrics to zero or more
// recommendations, with its thresholds in `thresholds`. docs/recommendations.md documents every
// rule's trigger, threshold and rationale; keep the two in step.
//
// No rule may advise a dark pattern (pre-ticked boxes, hiding or de-emphasising Decline, cookie
// walls, asking again and again). Where a low rate could tempt an owner into one, a rule says
// plainly not to. dark-patterns.unit.test.ts scans every text the rules can produce.
import type { RecommendationMetrics } from './metrics';
import { addDays, consentRateOf, noChoices, totalOf } from './metrics';

export const recommendationTypes = ['consent_rate', 'compliance', 'user_experience', 'performance', 'legal'] as const;
export type RecommendationType = (typeof recommendationTypes)[number];
export const recommendationSeverities = ['critical', 'high', 'medium', 'low'] as const;
export type RecommendationSeverity = (typeof recommendationSeverities)[number];
export const implementationDifficulties = ['easy', 'medium', 'hard'] as const;
export type ImplementationDifficulty = (typeof implementationDifficulties)[number];

/** One recommendation of the spec's Recommendation report. */
export interface Recommendation {
  /** `<rule id>:<website id>`: stable across runs, so a UI can remember dismissals. */
  readonly id: string;
  readonly type: RecommendationType;
  readonly severity: RecommendationSeverity;
  readonly title: string;
  readonly description: string;
  readonly impact: string;
  readonly actionItems: readonly string[];
  readonly estimatedImprovement: string;
  readonly timeToImplement: string;
  readonly implementationDifficulty: ImplementationDifficulty;
  /** Lower is more urgent; the report is sorted by it. */
  readonly priority: number;
  readonly relatedMetrics: readonly string[];
}

/** What a rule returns; the engine adds `id` and `priority`. */
export type RecommendationDraft = Omit<Recommendation, 'id' | 'priority'>;

export interface RecommendationRule {
  readonly id: string;
  /** Order among rules of the same severity (lower first). */
  readonly rank: number;
  readonly evaluate: (metrics: RecommendationMetrics) => readonly RecommendationDraft[];
}

export const thresholds = {
  /** Choices in the period before any rate-based rule speaks. */
  minChoices: 50,
  lowConsentRate: 50,
  veryLowConsentRate: 30,
  /** Choices per device class before the mobile–desktop gap is judged. */
  minDeviceChoices: 30,
  deviceGapPoints: 15,
  largeDeviceGapPoints: 25,
  minImpressions: 100,
  ignoreRate: 40,
  highIgnoreRate: 60,
  gpcShare: 20,
  /** Days with no event at all (today included) before an installation counts as stopped. */
  quietDays: 3,
  /** Retention the privacy text promises (spec section 9: up to 2 years). */
  maxRetentionMonths: 24,
  /** Impressions each banner variant needs (on single-variant days) before variants are compared. */
  minVariantImpressions: 300,
  variantGapPoints: 10,
  largeVariantGapPoints: 20,
  /** Choices that offered a purpose before its acceptance is judged, and the rate called "nobody". */
  minPurposeChoices: 50,
  unacceptedPurposeRate: 5,
} as const;

const purposeNames: Record<string, string> = {
  preferences: 'Preferences',
  analytics: 'Analytics',
  marketing: 'Marketing',
  identification: 'Identification',
};

const percent = (value: number) => `${value.toFixed(1)}%`;
const points = (value: number) => `${value.toFixed(1)} percentage points`;
const count = (value: number) => value.toLocaleString('en-US');
const lastDays = (metrics: RecommendationMetrics) => `the last ${metrics.days} days`;

export function lowConsentRate(metrics: RecommendationMetrics): RecommendationDraft[] {
  const rate = consentRateOf(metrics.consent);
  const total = totalOf(metrics.consent);
  if (rate === null || total < thresholds.minChoices || rate >= thresholds.lowConsentRate) return [];
  return [
    {
      type: 'consent_rate',
      severity: rate < thresholds.veryLowConsentRate ? 'high' : 'medium',
      title: 'Consent rate is low',
      description:
        `${percent(rate)} of the ${count(total)} choices in ${lastDays(metrics)} were Accept. Visitors accept more often ` +
        'when the banner says plainly who is asking, what is collected and why.',
      impact: 'Fewer accepting visitors means fewer page views in your analytics and fewer consented leads.',
      actionItems: [
        'Say in one or two plain sentences what you collect and what visitors get in return.',
        'Show your company name and logo (Settings, Branding) so visitors know who is asking.',
        'Link your privacy policy from the banner.',
        'Keep Accept All and Reject All equally visible: same size, same style, side by side (the banner does this unless its texts are changed to say otherwise).',
      ],
      estimatedImprovement: 'Clearer wording typically gains 5 to 10 percentage points; results vary by audience.',
      timeToImplement: '30 minutes',
      implementationDifficulty: 'easy',
      relatedMetrics: ['consentRate', 'totalConsents'],
    },
  ];
}

/** The compliance warning that goes with a low rate: the unlawful "fixes" are named and ruled out. */
export function keepDeclineEqual(metrics: RecommendationMetrics): RecommendationDraft[] {
  const rate = consentRateOf(metrics.consent);
  if (rate === null || totalOf(metrics.consent) < thresholds.minChoices || rate >= thresholds.lowConsentRate) return [];
  return [
    {
      type: 'compliance',
      severity: 'high',
      title: 'Keep Reject All as easy as Accept All',
      description:
        `The consent rate is ${percent(rate)} over ${lastDays(metrics)}. Do not respond by hiding Reject All, shrinking it, ` +
        'moving it behind a settings link or rewording it to sound like something else: under the GDPR and the ePrivacy rules, refusing must be as easy as accepting, ' +
        'and consents collected by a lopsided banner are not valid.',
      impact: 'A banner that makes refusing harder invalidates the consents it collects and exposes you to fines.',
      actionItems: [
        'Keep Accept All and Reject All on the first screen of the banner, side by side, with the same size and style, and their texts plain.',
        'Never pre-tick boxes, and never treat scrolling or closing the banner as consent.',
        'Never block the site until visitors accept (no cookie walls).',
        'Do not ask visitors who declined again on every visit; their choice stands until your policy changes.',
      ],
      estimatedImprovement: 'Keeps every recorded consent valid.',
      timeToImplement: '5 minutes',
      implementationDifficulty: 'easy',
      relatedMetrics: ['consentRate'],
    },
  ];
}

export function mobileDesktopGap(metrics: RecommendationMetrics): RecommendationDraft[] {
  const mobileRate = consentRateOf(metrics.mobile);
  const desktopRate = consentRateOf(metrics.desktop);
  if (mobileRate === null || desktopRate === null) return [];
  if (totalOf(metrics.mobile) < thresholds.minDeviceChoices || totalOf(metrics.desktop) < thresholds.minDeviceChoices) return [];
  const gap = Math.abs(desktopRate - mobileRate);
  if (gap < thresholds.deviceGapPoints) return [];
  const mobileIsLower = mobileRate < desktopRate;
  const lower = mobileIsLower ? 'mobile' : 'desktop';
  const higher = mobileIsLower ? 'desktop' : 'mobile';
  return [
    {
      type: 'user_experience',
      severity: gap >= thresholds.largeDeviceGapPoints ? 'high' : 'medium',
      title: `Consent rate is lower on ${lower}`,
      description:
        `Visitors on ${lower} accept ${percent(Math.min(mobileRate, desktopRate))} of the time against ` +
        `${percent(Math.max(mobileRate, desktopRate))} on ${higher} (${points(gap)} apart, ${lastDays(metrics)}). ` +
        `The banner may be harder to read or to use on ${lower}.`,
      impact: `Closing the gap on ${lower} raises the overall consent rate.`,
      actionItems: mobileIsLower
        ? [
            'Open your site on a phone and check that the banner text is readable without zooming.',
            'Check that the banner does not cover the navigation or collide with the browser bars; try the other position.',
            'Give both buttons a comfortable tap size (at least 44 px high) and the same style.',
            'Shorten the text so both buttons are visible without scrolling.',
          ]
        : [
            'Check that the banner is noticeable on wide screens without covering the content.',
            'Check the banner theme against your site colours so the text is easy to read.',
            'Give both buttons the same size and style.',
          ],
      estimatedImprovement: `Up to ${points(gap)} on ${lower}.`,
      timeToImplement: '1 hour',
      implementationDifficulty: 'medium',
      relatedMetrics: ['mobileConsentRate', 'desktopConsentRate'],
    },
  ];
}

/** Share of impressions without a first-banner choice, in percent; null without impressions. */
export function bannerIgnoreRateOf(metrics: RecommendationMetrics): number | null {
  if (metrics.impressions === 0) return null;
  return (Math.max(0, metrics.impressions - metrics.bannerChoices) / metrics.impressions) * 100;
}

export function bannerIgnored(metrics: RecommendationMetrics): RecommendationDraft[] {
  const ignoreRate = bannerIgnoreRateOf(metrics);
  if (ignoreRate === null || metrics.impressions < thresholds.minImpressions || ignoreRate < thresholds.ignoreRate) return [];
  return [
    {
      type: 'user_experience',
      severity: ignoreRate >= thresholds.highIgnoreRate ? 'high' : 'medium',
      title: 'Many visitors ignore the banner',
      description:
        `${percent(ignoreRate)} of the ${count(metrics.impressions)} banner impressions in ${lastDays(metrics)} got no answer. ` +
        'Visitors who do not answer are not tracked, which is right, but it often means the banner is overlooked or unclear.',
      impact: 'Unanswered banners leave visitors undecided and your analytics thinner.',
      actionItems: [
        'Check that the banner is shown above chat widgets, sticky headers and other overlays.',
        'Shorten the text to what a visitor can read in a few seconds.',
        'Try the other banner position or theme and compare the results.',
        'Do not block the page until visitors answer; cookie walls are not allowed under the GDPR.',
      ],
      estimatedImprovement: 'Often 10 to 20 percentage points more answered banners.',
      timeToImplement: '30 minutes',
      implementationDifficulty: 'easy',
      relatedMetrics: ['bannerImpressions', 'bannerIgnoreRate'],
    },
  ];
}

export function largeGpcShare(metrics: RecommendationMetrics): RecommendationDraft[] {
  const total = totalOf(metrics.consent);
  const gpcChoices = metrics.bySource.gpc ?? noChoices;
  const gpc = totalOf(gpcChoices);
  if (total < thresholds.minChoices) return [];
  const share = (gpc / total) * 100;
  if (share < thresholds.gpcShare) return [];
  const withoutGpc = consentRateOf({
    accepted: metrics.consent.accepted - gpcChoices.accepted,
    declined: metrics.consent.declined - gpcChoices.declined,
  });
  return [
    {
      type: 'legal',
      severity: 'low',
      title: 'Many visitors send Global Privacy Control',
      description:
        `${percent(share)} of the choices in ${lastDays(metrics)} were automatic refusals from browsers that send the ` +
        'Global Privacy Control signal. Consentry honours them, as the CCPA and several US state laws require. ' +
        (withoutGpc === null ? 'No other choices were recorded.' : `Without them, your consent rate is ${percent(withoutGpc)}.`),
      impact: 'These refusals lower the overall consent rate without saying anything about your banner.',
      actionItems: [
        'Judge the banner by the consent rate without Global Privacy Control refusals.',
        'Keep honouring the signal: do not ask these visitors to override it.',
        'Mention Global Privacy Control in your privacy policy.',
      ],
      estimatedImprovement: 'No change to the rate; keeps you within opt-out laws.',
      timeToImplement: '15 minutes',
      implementationDifficulty: 'easy',
      relatedMetrics: ['gpcShare', 'consentRate'],
    },
  ];
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

export function installationStopped(metrics: RecommendationMetrics): RecommendationDraft[] {
  const last = metrics.lastEventDay;
  if (!metrics.website.isActive || last === null) return [];
  // Quiet on `quietDays` days: today and the days before it.
  if (last >= addDays(metrics.today, -(thresholds.quietDays - 1))) return [];
  const quiet = daysBetween(last, metrics.today);
  return [
    {
      type: 'performance',
      severity: 'critical',
      title: 'No events received recently',
      description:
        `The last banner impression, choice or page view arrived on ${last}, ${quiet} days ago. The snippet may have been ` +
        'removed, changed or blocked, so visitors\' choices are not being recorded.',
      impact: 'While the banner is missing, choices are not recorded and you cannot prove consent.',
      actionItems: [
        'Open your website in a private window and check that the banner appears.',
        'Check that the snippet is still in the page HTML with the right data-embed-code.',
        'Run Verify Installation on the Installation page.',
        'Check that a content security policy or a script blocker does not block widget.js.',
      ],
      estimatedImprovement: 'Restores consent recording.',
      timeToImplement: '15 minutes',
      implementationDifficulty: 'easy',
      relatedMetrics: ['lastEventDay'],
    },
  ];
}

export function installationMissing(metrics: RecommendationMetrics): RecommendationDraft[] {
  if (!metrics.website.isActive || metrics.lastEventDay !== null) return [];
  // A website added today gets the day to be installed.
  if (metrics.website.createdAt.slice(0, 10) >= metrics.today) return [];
  return [
    {
      type: 'performance',
      severity: 'high',
      title: 'The banner is not installed yet',
      description: 'No banner impression, choice or page view has ever arrived for this website.',
      impact: 'Until the snippet is on your site, no consent is recorded and no analytics are collected.',
      actionItems: [
        'Copy the snippet from the Installation page into the HTML body of your site.',
        'Open your site in a private window and check that the banner appears.',
        'Run Verify Installation on the Installation page.',
      ],
      estimatedImprovement: 'Starts consent recording.',
      timeToImplement: '5 minutes',
      implementationDifficulty: 'easy',
      relatedMetrics: ['lastEventDay'],
    },
  ];
}

export function retentionBeyondPrivacyText(metrics: RecommendationMetrics): RecommendationDraft[] {
  const months = metrics.website.retentionMonths;
  if (months <= thresholds.maxRetentionMonths) return [];
  return [
    {
      type: 'legal',
      severity: 'high',
      title: 'Data is kept longer than the privacy text says',
      description:
        `Consent data of this website is kept for ${months} months, but the privacy text promises at most ` +
        `${thresholds.maxRetentionMonths} months (2 years).`,
      impact: "Keeping data longer than you tell visitors breaks the GDPR's storage-limitation and transparency principles.",
      actionItems: [
        `Set the retention period to ${thresholds.maxRetentionMonths} months or less in the website settings.`,
        'If you must keep it longer, update your privacy policy first and state the reason.',
      ],
      estimatedImprovement: 'Brings storage in line with what you promise visitors.',
      timeToImplement: '5 minutes',
      implementationDifficulty: 'easy',
      relatedMetrics: ['retentionMonths'],
    },
  ];
}

export function fullIpAddresses(metrics: RecommendationMetrics): RecommendationDraft[] {
  if (metrics.website.ipAddressMode !== 'full') return [];
  return [
    {
      type: 'compliance',
      severity: 'medium',
      title: 'Full IP addresses are stored',
      description:
        "This website stores visitors' full IP addresses with each choice. A truncated address is enough to prove a choice " +
        'and is far less personal.',
      impact: 'Storing less personal data lowers the risk of a leak and keeps access requests simple (GDPR data minimisation).',
      actionItems: [
        'Switch IP address storage to truncated in the website settings.',
        'Say in your privacy policy how IP addresses are stored.',
      ],
      estimatedImprovement: 'Less personal data stored for every new choice.',
      timeToImplement: '5 minutes',
      implementationDifficulty: 'easy',
      relatedMetrics: ['ipAddressMode'],
    },
  ];
}

export function missingPrivacyPolicyLink(metrics: RecommendationMetrics): RecommendationDraft[] {
  if (metrics.website.privacyPolicyUrl !== null) return [];
  return [
    {
      type: 'legal',
      severity: 'medium',
      title: 'The banner does not link to a privacy policy',
      description:
        'Visitors cannot open your privacy policy from the banner. Before they choose, they should be able to find out who ' +
        'processes their data and why.',
      impact: 'Consent is only informed when visitors can read what they agree to (GDPR transparency).',
      actionItems: ['Add your privacy policy URL in the website settings; the banner then links to it.'],
      estimatedImprovement: 'Informed choices, and often more trust.',
      timeToImplement: '5 minutes',
      implementationDifficulty: 'easy',
      relatedMetrics: ['privacyPolicyUrl'],
    },
  ];
}

/** Answered share of a variant's impressions, in percent (capped at 100: queued answers can lag a day). */
const answerRateOf = (variant: { impressions: number; answers: number }) =>
  Math.min(100, (variant.answers / variant.impressions) * 100);

export function underperformingBannerVariant(metrics: RecommendationMetrics): RecommendationDraft[] {
  const current = metrics.currentVariant;
  if (current === null) return [];
  const measured = metrics.bannerVariants.filter((variant) => variant.impressions >= thresholds.minVariantImpressions);
  const currentVariant = measured.find((variant) => variant.position === current.position && variant.theme === current.theme);
  if (currentVariant === undefined) return [];
  const best = measured
    .filter((variant) => variant !== currentVariant)
    .sort((a, b) => answerRateOf(b) - answerRateOf(a) || `${a.position}/${a.theme}`.localeCompare(`${b.position}/${b.theme}`))[0];
  if (best === undefined) return [];
  const gap = answerRateOf(best) - answerRateOf(currentVariant);
  if (gap < thresholds.variantGapPoints) return [];
  return [
    {
      type: 'performance',
      severity: gap >= thresholds.largeVariantGapPoints ? 'medium' : 'low',
      title: `Try the banner at the ${best.position} with the ${best.theme} theme`,
      description:
        `On days it was shown alone, the ${best.position} ${best.theme} banner was answered ${percent(answerRateOf(best))} of ` +
        `the time against ${percent(answerRateOf(currentVariant))} for the current ${current.position} ${current.theme} one ` +
        `(${count(best.impressions)} and ${count(currentVariant.impressions)} impressions in ${lastDays(metrics)}).`,
      impact: 'A banner that visitors answer, either way, leaves fewer visitors undecided.',
      actionItems: [
        `Set data-position="${best.position}" and data-theme="${best.theme}" in the snippet (Installation, Advanced).`,
        'Compare again after a week with enough visitors.',
        'Keep Accept All and Reject All identical in both variants.',
      ],
      estimatedImprovement: `About ${points(gap)} more answered banners.`,
      timeToImplement: '10 minutes',
      implementationDifficulty: 'easy',
      relatedMetrics: ['bannerImpressions', 'bannerAnswerRate'],
    },
  ];
}

/**
 * A purpose almost nobody allows: asking for it costs every visitor a decision and earns nothing. The
 * honest fixes are to stop asking for it or to explain it better, never to push for it.
 */
export function unacceptedPurpose(metrics: RecommendationMetrics): RecommendationDraft[] {
  return metrics.purposes
    .filter((p) => p.offered >= thresholds.minPurposeChoices && (p.granted / p.offered) * 100 < thresholds.unacceptedPurposeRate)
    .map((p) => {
      const name = purposeNames[p.purpose] ?? p.purpose;
      const rate = (p.granted / p.offered) * 100;
      return {
        type: 'user_experience',
        severity: 'low',
        title: `Almost nobody allows ${name}`,
        description:
          `${percent(rate)} of the visitors asked allowed ${name} in ${lastDays(metrics)} ` +
          `(${count(p.granted)} of ${count(p.offered)}). A purpose that visitors refuse this consistently ` +
          'is either not needed or not explained.',
        impact: 'Every purpose on the banner is one more decision for each visitor; one that is always refused only adds friction.',
        actionItems: [
          `If the site can do without ${name}, stop asking for it: Website settings, Consent purposes.`,
          `If it cannot, say plainly in the preference centre what ${name} is for and list its services and cookies.`,
          'Keep its switch off until the visitor turns it on, and never make the site depend on it.',
        ],
        estimatedImprovement: 'A shorter, clearer preference centre.',
        timeToImplement: '15 minutes',
        implementationDifficulty: 'easy',
        relatedMetrics: ['purposeAcceptance'],
      };
    });
}

const pagesOf = (pageCount: number) => (pageCount === 1 ? '1 page' : `${count(pageCount)} pages`);
const blockedTag = (purpose: string) => `<script type="text/plain" data-consentry-category="${purpose}" src="…"></script>`;

/**
 * What the latest cookie scan found set before consent or left after Reject All, one recommendation
 * per item or host, with the exact change to the snippet that loads it; and pages without the banner.
 */
export function scanFindings(metrics: RecommendationMetrics): RecommendationDraft[] {
  if (!metrics.scan) return [];
  const drafts: RecommendationDraft[] = [];
  for (const finding of metrics.scan.findings) {
    const subject = finding.subject ?? 'An item';
    const what = finding.platform ? `${finding.platform} (${subject})` : subject;
    const purpose = finding.purpose && finding.purpose !== 'necessary' ? finding.purpose : 'marketing';
    if (finding.code === 'set_before_consent') {
      drafts.push({
        type: 'compliance',
        severity: 'critical',
        title: `${subject} is set before consent on ${pagesOf(finding.pageCount)}`,
        description:
          `The latest cookie scan (${metrics.scan.completedAt.slice(0, 10)}) found ${what} before the visitor chose anything, on ` +
          `${pagesOf(finding.pageCount)}. Under the GDPR and the ePrivacy rules, ${purpose} cookies need consent first.`,
        impact: 'Setting such items before consent breaches the ePrivacy rules by itself, and it makes the banner\'s answer meaningless.',
        actionItems: [
          `Load ${finding.platform ?? 'the script that sets it'} through a blocked script tag, so it runs only once ${purpose} is allowed: ${blockedTag(purpose)} (keep its own src).`,
          'For a tag manager, block the tag manager itself the same way, or give its tags the consent checks of Google Consent Mode.',
          'Scan again to confirm it is gone.',
        ],
        estimatedImprovement: 'No tracking before consent.',
        timeToImplement: '15 minutes',
        implementationDifficulty: 'easy',
        relatedMetrics: ['scanFindings'],
      });
    } else if (finding.code === 'set_after_reject') {
      drafts.push({
        type: 'compliance',
        severity: 'high',
        title: `${subject} stays after Reject All on ${pagesOf(finding.pageCount)}`,
        description:
          `After a visitor rejected everything, the latest cookie scan still found ${what} on ${pagesOf(finding.pageCount)}: ` +
          'something sets it whatever the visitor chose.',
        impact: 'A refusal that changes nothing is not a choice: the consents the banner collects are not valid either.',
        actionItems: [
          `Block what sets it until ${purpose} is allowed: ${blockedTag(purpose)}.`,
          'If it is needed for the site to work, say so: mark it Necessary on the website\'s Cookie scan page.',
        ],
        estimatedImprovement: 'Reject All works as visitors expect.',
        timeToImplement: '15 minutes',
        implementationDifficulty: 'easy',
        relatedMetrics: ['scanFindings'],
      });
    } else if (finding.code === 'banner_missing') {
      drafts.push({
        type: 'compliance',
        severity: 'medium',
        title: `The banner is missing on ${pagesOf(finding.pageCount)}`,
        description: `The latest cookie scan found pages without the consent banner (${pagesOf(finding.pageCount)}): visitors who land there cannot choose.`,
        impact: 'A visitor who lands on such a page is never asked, and nothing there is blocked by the banner.',
        actionItems: ['Add the snippet to the template every page shares (usually the site\'s layout or footer).', 'Scan again to confirm.'],
        estimatedImprovement: 'Every page asks.',
        timeToImplement: '10 minutes',
        implementationDifficulty: 'easy',
        relatedMetrics: ['scanFindings'],
      });
    }
  }
  return drafts;
}

export const recommendationRules: readonly RecommendationRule[] = [
  { id: 'installation-stopped', rank: 1, evaluate: installationStopped },
  { id: 'installation-missing', rank: 2, evaluate: installationMissing },
  { id: 'keep-decline-equal', rank: 3, evaluate: keepDeclineEqual },
  { id: 'retention-beyond-privacy-text', rank: 4, evaluate: retentionBeyondPrivacyText },
  { id: 'full-ip-addresses', rank: 5, evaluate: fullIpAddresses },
  { id: 'low-consent-rate', rank: 6, evaluate: lowConsentRate },
  { id: 'mobile-desktop-gap', rank: 7, evaluate: mobileDesktopGap },
  { id: 'banner-ignored', rank: 8, evaluate: bannerIgnored },
  { id: 'missing-privacy-policy-link', rank: 9, evaluate: missingPrivacyPolicyLink },
  { id: 'large-gpc-share', rank: 10, evaluate: largeGpcShare },
  { id: 'underperforming-banner-variant', rank: 11, evaluate: underperformingBannerVariant },
  { id: 'unaccepted-purpose', rank: 12, evaluate: unacceptedPurpose },
  { id: 'scan-finding', rank: 0, evaluate: scanFindings },
];

const severityWeight: Record<RecommendationSeverity, number> = { critical: 1, high: 2, medium: 3, low: 4 };

/** Runs every rule and returns the recommendations sorted by priority (most urgent first). */
export function runRecommendationRules(
  metrics: RecommendationMetrics,
  rules: readonly RecommendationRule[] = recommendationRules,
): Recommendation[] {
  const recommendations: Recommendation[] = [];
  for (const rule of rules) {
    rule.evaluate(metrics).forEach((draft, index) => {
      recommendations.push({
        id: index === 0 ? `${rule.id}:${metrics.websiteId}` : `${rule.id}-${index + 1}:${metrics.websiteId}`,
        ...draft,
        priority: severityWeight[draft.severity] * 100 + rule.rank,
      });
    });
  }
  return recommendations.sort((a, b) => a.priority - b.priority || a.id.localeCompare(b.id));
}
