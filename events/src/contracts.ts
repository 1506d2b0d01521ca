// The names and limits of the api's contract that the browser needs at run time: banner texts and
// languages, purposes, and the website settings' choices and bounds. Plain constants, no zod and
// nothing Node-only, so the web app (`@consentry/events/contracts`) ships them without the schemas;
// the schemas in the rest of events/ are built from these same constants (docs/architecture.md).

// Banner texts (banner-texts/): every text of the banner and preference centre, in a fixed order.
export const bannerTextKeys = [
  'title',
  'notice',
  'privacyPolicy',
  'acceptAll',
  'rejectAll',
  'customize',
  'settings',
  'centreTitle',
  'centreIntro',
  'save',
  'close',
  'alwaysOn',
  'services',
  'necessary',
  'necessaryDescription',
  'preferences',
  'preferencesDescription',
  'analytics',
  'analyticsDescription',
  'marketing',
  'marketingDescription',
  'identification',
  'identificationDescription',
  'doNotSell',
  'optedOut',
  'blocked',
  'enable',
] as const;
export type BannerTextKey = (typeof bannerTextKeys)[number];
export type BannerTexts = Readonly<Record<BannerTextKey, string>>;
/** The longest text an owner may write in place of one of ours. */
export const maxBannerTextLength = 600;

/** The 24 official EU languages, plus Arabic to keep right-to-left layout working. */
export const bannerLanguages = [
  'bg', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'fi', 'fr', 'ga', 'hr', 'hu',
  'it', 'lt', 'lv', 'mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'sl', 'sv', 'ar',
] as const;
export type BannerLanguage = (typeof bannerLanguages)[number];
export const defaultBannerLanguage: BannerLanguage = 'en';

const rightToLeft: ReadonlySet<BannerLanguage> = new Set(['ar']);
export const textDirection = (language: BannerLanguage): 'ltr' | 'rtl' => (rightToLeft.has(language) ? 'rtl' : 'ltr');

// Purposes (purposes.ts).

/** The purposes a visitor may grant or refuse one by one, in the canonical order. */
export const optionalPurposes = ['preferences', 'analytics', 'marketing', 'identification'] as const;
export type OptionalPurpose = (typeof optionalPurposes)[number];

/** How the purposes were chosen. */
export const consentMethods = ['accept_all', 'reject_all', 'custom', 'gpc', 'jurisdiction_default'] as const;
export type ConsentMethod = (typeof consentMethods)[number];

/** The rule a visitor's region gets (purposes.ts says which regions get which by default). */
export const consentRules = ['opt_in', 'opt_out', 'notice_only'] as const;
export type ConsentRule = (typeof consentRules)[number];

/** A region a rule is set for: `EU` (the EU and EEA), an ISO 3166-1 country (`GB`) or a subdivision (`US-CA`). */
export const regionCodePattern = /^(?:EU|[A-Z]{2}(?:-[A-Z0-9]{1,3})?)$/;

// Website settings (website.ts, fields.ts): the choices and bounds of WebsiteSettingsChanged.

export const bannerPositions = ['bottom', 'top'] as const;
export type BannerPosition = (typeof bannerPositions)[number];
export const bannerThemes = ['light', 'dark'] as const;
export type BannerTheme = (typeof bannerThemes)[number];

export const ipAddressModes = ['full', 'truncated'] as const;
export type IpAddressMode = (typeof ipAddressModes)[number];

/** Forms that identify a visitor who allowed it: `all` with an email field (except those marked off), or only `marked` ones. */
export const identificationFormModes = ['all', 'marked'] as const;
export type IdentificationForms = (typeof identificationFormModes)[number];
export const defaultIdentificationForms: IdentificationForms = 'all';

/** How long consent data is kept, in whole months. */
export const retentionMonthsMin = 1;
export const retentionMonthsMax = 120;
/** The consent policy version's length, in characters. */
export const maxPolicyVersionLength = 64;
/** How long a choice stands before the banner asks again, in months. */
export const consentLifetimeMonthsMin = 1;
export const consentLifetimeMonthsMax = 24;
export const defaultConsentLifetimeMonths = 12;
/** The services a banner lists under its purposes, and what each may hold. */
export const maxServices = 200;
export const maxServiceNameLength = 100;
export const maxServiceDescriptionLength = 300;
export const maxServiceCookies = 50;
export const maxCookieNameLength = 100;
/** The regions an owner may set a rule for. */
export const maxRegionRules = 300;
/** Days between scheduled cookie scans; 0 schedules none. */
export const scanIntervalDaysMin = 0;
export const scanIntervalDaysMax = 365;
export const defaultScanIntervalDays = 30;
/** The most resolutions a month an owner may cap a website at. */
export const monthlyResolutionCapMax = 10_000_000;
