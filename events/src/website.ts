// The website stream family: an owner's websites, from being added to being removed, and the banner
// and retention settings the widget and the purge job read.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import {
  bannerPosition,
  bannerTheme,
  displayText,
  isoDateTime,
  policyVersion,
  userId,
  webUrl,
  websiteId,
} from './fields';
import { bannerLanguage, bannerTextOverrides } from './banner-texts';
import { consentRule, offeredPurposes, optionalPurpose, regionCode } from './purposes';
import {
  consentLifetimeMonthsMax,
  consentLifetimeMonthsMin,
  identificationFormModes,
  ipAddressModes,
  maxCookieNameLength,
  maxRegionRules,
  maxServiceCookies,
  maxServiceDescriptionLength,
  maxServiceNameLength,
  maxServices,
  monthlyResolutionCapMax,
  retentionMonthsMax,
  retentionMonthsMin,
  scanIntervalDaysMax,
  scanIntervalDaysMin,
} from './contracts';

// The settings' choices and defaults are in the browser-safe contracts entry, which the web app's
// settings form uses; the bounds below come from there too.
export { defaultConsentLifetimeMonths, defaultIdentificationForms, defaultScanIntervalDays, identificationFormModes, ipAddressModes } from './contracts';

/**
 * A lowercase hostname without scheme: dot-separated labels of letters, digits and inner hyphens,
 * each at most 63 characters, 253 in all. A single label (`localhost`) and an explicit port
 * (`shop.lan:8080`, 1–65535) are allowed for self-hosted and test setups: the port says where the
 * site is fetched (installation check, scans); the Origin check, the choice cookie and what counts as
 * the same site use the hostname alone (`getDomainHostname`).
 */
export const websiteDomain = z
  .string()
  .min(1)
  .max(253)
  .regex(
    /^(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*(?::(?:[1-9]\d{0,3}|[1-5]\d{4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5]))?$/,
    { error: 'Expected a lowercase hostname such as example.com, optionally with a port' },
  );

/** A website domain's hostname, without the explicit port it may carry (`shop.lan:8080` → `shop.lan`). */
export function getDomainHostname(domain: string): string {
  const colon = domain.indexOf(':');
  return colon === -1 ? domain : domain.slice(0, colon);
}

/** The code in the embed snippet (`data-embed-code`): URL-safe, 8 to 64 characters. */
export const embedCode = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, {
  error: 'Expected 8 to 64 URL-safe characters (A-Z, a-z, 0-9, _ and -)',
});

export const websiteName = displayText(100);

export const WebsiteAddedData = z.strictObject({
  websiteId,
  ownerId: userId,
  name: websiteName,
  domain: websiteDomain,
  embedCode,
  addedAt: isoDateTime,
});
export type WebsiteAddedData = z.infer<typeof WebsiteAddedData>;
export const WebsiteAdded = defineEvent({
  type: 'WebsiteAdded',
  version: 1,
  category: 'website',
  schema: WebsiteAddedData,
});
export type WebsiteAdded = EventOf<typeof WebsiteAdded>;

export const WebsiteRemovedData = z.strictObject({ websiteId, removedAt: isoDateTime });
export type WebsiteRemovedData = z.infer<typeof WebsiteRemovedData>;
export const WebsiteRemoved = defineEvent({
  type: 'WebsiteRemoved',
  version: 1,
  category: 'website',
  schema: WebsiteRemovedData,
});
export type WebsiteRemoved = EventOf<typeof WebsiteRemoved>;

export const WebsiteActivationChangedData = z.strictObject({
  websiteId,
  isActive: z.boolean(),
  changedAt: isoDateTime,
});
export type WebsiteActivationChangedData = z.infer<typeof WebsiteActivationChangedData>;
export const WebsiteActivationChanged = defineEvent({
  type: 'WebsiteActivationChanged',
  version: 1,
  category: 'website',
  schema: WebsiteActivationChangedData,
});
export type WebsiteActivationChanged = EventOf<typeof WebsiteActivationChanged>;

export const ipAddressMode = z.enum(ipAddressModes);
export type IpAddressMode = z.infer<typeof ipAddressMode>;

/** A service (or a group of cookies) a banner lists under a purpose, entered by the owner. */
export const purposeService = z.strictObject({
  purpose: optionalPurpose,
  name: displayText(maxServiceNameLength),
  /** What it does, in the owner's words; may be empty. */
  description: z.string().max(maxServiceDescriptionLength),
  /** Names of the cookies or storage keys it sets. */
  cookies: z.array(z.string().min(1).max(maxCookieNameLength)).max(maxServiceCookies),
});
export type PurposeService = z.infer<typeof purposeService>;

/** How long a choice stands before the banner asks again, in months. */
export const consentLifetimeMonths = z.int().min(consentLifetimeMonthsMin).max(consentLifetimeMonthsMax);

/** Days between a website's scheduled cookie scans (monthly by default); 0: only scans started by hand. */
export const scanIntervalDays = z.int().min(scanIntervalDaysMin).max(scanIntervalDaysMax);

/**
 * Forms the widget reads an email from once a visitor allowed identification: `all` forms with an
 * email field except those marked `data-consentry-identify="off"`, or only forms marked
 * `data-consentry-identify`. Lead identification itself is on when the banner offers the
 * `identification` purpose.
 */
export const identificationForms = z.enum(identificationFormModes);
export type IdentificationForms = z.infer<typeof identificationForms>;

/**
 * The most resolutions (people identified for the first time in a UTC month, docs/identification.md)
 * the owner will pay for on a website in a month; past it, ingest identifies only people already
 * resolved that month. null: unlimited (the default).
 */
export const monthlyResolutionCap = z.int().min(1).max(monthlyResolutionCapMax);

/**
 * Whether ingest keeps the query string of the page addresses it records (a consent's page, a page
 * view's address and referrer). Off by default: a query string is where what a visitor typed
 * travels (`?email=`); an owner whose campaign parameters matter turns it on (docs/ingest-protocol.md).
 */
export const keepPageQueryStrings = z.boolean();

/** The owner's rule per region (`EU`, a country `GB`, a US state `US-CA`); regions not named keep the default. */
export const regionRules = z.record(z.string().max(16), consentRule).superRefine((rules, ctx) => {
  const regions = Object.keys(rules);
  if (regions.length > maxRegionRules) ctx.addIssue({ code: 'custom', message: `Expected at most ${maxRegionRules} regions` });
  for (const region of regions) {
    if (!regionCode.safeParse(region).success) {
      ctx.addIssue({ code: 'custom', path: [region], message: 'Expected EU, a country code (GB) or a subdivision (US-CA)' });
    }
  }
});
export type RegionRules = z.infer<typeof regionRules>;

const websiteSettingNames = [
  'retentionMonths',
  'ipAddressMode',
  'bannerPosition',
  'bannerTheme',
  'policyVersion',
  'privacyPolicyUrl',
  'purposes',
  'services',
  'consentLifetimeMonths',
  'defaultLanguage',
  'textOverrides',
  'regionRules',
  'forceOptIn',
  'scanIntervalDays',
  'identificationForms',
  'monthlyResolutionCap',
  'keepPageQueryStrings',
] as const;

/** Only the settings that changed are present; an event that changes nothing is refused. */
export const WebsiteSettingsChangedData = z
  .strictObject({
    websiteId,
    retentionMonths: z.int().min(retentionMonthsMin).max(retentionMonthsMax).optional(),
    ipAddressMode: ipAddressMode.optional(),
    bannerPosition: bannerPosition.optional(),
    bannerTheme: bannerTheme.optional(),
    policyVersion: policyVersion.optional(),
    /** null removes the link from the banner. */
    privacyPolicyUrl: webUrl.nullable().optional(),
    /** The optional purposes the banner asks for; changing them asks every visitor again. */
    purposes: offeredPurposes.min(1, { error: 'Expected at least one purpose to ask for' }).optional(),
    /** The services listed under the purposes (the whole list; it replaces the previous one). */
    services: z.array(purposeService).max(maxServices).optional(),
    consentLifetimeMonths: consentLifetimeMonths.optional(),
    /** The banner's language for visitors whose languages we have no texts for. */
    defaultLanguage: bannerLanguage.optional(),
    /** The owner's own texts, per language (the whole map; it replaces the previous one). */
    textOverrides: bannerTextOverrides.optional(),
    /** The owner's rules per region (the whole map; it replaces the previous one). */
    regionRules: regionRules.optional(),
    /** Opt-in everywhere, whatever the region. */
    forceOptIn: z.boolean().optional(),
    /** Days between scheduled cookie scans; 0 schedules none. */
    scanIntervalDays: scanIntervalDays.optional(),
    /** Which forms identify a visitor who allowed identification: every form with an email field, or only marked ones. */
    identificationForms: identificationForms.optional(),
    /** The monthly resolution cap (billing protection); null: unlimited. */
    monthlyResolutionCap: monthlyResolutionCap.nullable().optional(),
    /** Whether ingest keeps page addresses' query strings (off: stripped at ingest). */
    keepPageQueryStrings: keepPageQueryStrings.optional(),
    changedAt: isoDateTime,
  })
  .refine((data) => websiteSettingNames.some((name) => data[name] !== undefined), {
    error: `Expected at least one changed setting (${websiteSettingNames.join(', ')})`,
  });
export type WebsiteSettingsChangedData = z.infer<typeof WebsiteSettingsChangedData>;
export const WebsiteSettingsChanged = defineEvent({
  type: 'WebsiteSettingsChanged',
  version: 1,
  category: 'website',
  schema: WebsiteSettingsChangedData,
});
export type WebsiteSettingsChanged = EventOf<typeof WebsiteSettingsChanged>;

export type WebsiteEvent = WebsiteAdded | WebsiteRemoved | WebsiteActivationChanged | WebsiteSettingsChanged;
export const websiteEventTypes = [
  'WebsiteAdded',
  'WebsiteRemoved',
  'WebsiteActivationChanged',
  'WebsiteSettingsChanged',
] as const satisfies readonly WebsiteEvent['type'][];
