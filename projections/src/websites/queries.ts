// Reads of the websites read model.
import type {
  IdentificationForms,
  BannerLanguage,
  BannerPosition,
  BannerTextOverrides,
  BannerTheme,
  OptionalPurpose,
  PurposeService,
  RegionRules,
} from '@consentry/events';
import type { Queryable } from '@consentry/infra';

export interface Website {
  readonly id: string;
  readonly ownerId: string;
  readonly name: string;
  readonly domain: string;
  readonly embedCode: string;
  readonly isActive: boolean;
  readonly retentionMonths: number;
  readonly ipAddressMode: 'full' | 'truncated';
  readonly bannerPosition: BannerPosition;
  readonly bannerTheme: BannerTheme;
  readonly policyVersion: string;
  readonly privacyPolicyUrl: string | null;
  /** The optional purposes the banner asks for, in canonical order. */
  readonly purposes: readonly OptionalPurpose[];
  readonly services: readonly PurposeService[];
  readonly consentLifetimeMonths: number;
  /** The banner's language for visitors whose languages have no texts. */
  readonly defaultLanguage: BannerLanguage;
  readonly textOverrides: BannerTextOverrides;
  readonly regionRules: RegionRules;
  readonly forceOptIn: boolean;
  /** Days between scheduled cookie scans; 0: none. */
  readonly scanIntervalDays: number;
  /** Which forms identify a visitor who allowed identification (docs/identification.md). */
  readonly identificationForms: IdentificationForms;
  /** The most resolutions a month the owner will pay for (docs/identification.md); null: unlimited. */
  readonly monthlyResolutionCap: number | null;
  /** Whether ingest keeps the query strings of page addresses (off: stripped). */
  readonly keepPageQueryStrings: boolean;
  readonly createdAt: string;
}

interface WebsiteRow {
  id: string;
  owner_id: string;
  name: string;
  domain: string;
  embed_code: string;
  is_active: boolean;
  retention_months: number;
  ip_address_mode: 'full' | 'truncated';
  banner_position: BannerPosition;
  banner_theme: BannerTheme;
  policy_version: string;
  privacy_policy_url: string | null;
  purposes: OptionalPurpose[];
  services: PurposeService[];
  consent_lifetime_months: number;
  default_language: BannerLanguage;
  text_overrides: BannerTextOverrides;
  region_rules: RegionRules;
  force_opt_in: boolean;
  scan_interval_days: number;
  identification_forms: IdentificationForms;
  monthly_resolution_cap: number | null;
  keep_page_query_strings: boolean;
  created_at: Date;
}

const toWebsite = (row: WebsiteRow): Website => ({
  id: row.id,
  ownerId: row.owner_id,
  name: row.name,
  domain: row.domain,
  embedCode: row.embed_code,
  isActive: row.is_active,
  retentionMonths: row.retention_months,
  ipAddressMode: row.ip_address_mode,
  bannerPosition: row.banner_position,
  bannerTheme: row.banner_theme,
  policyVersion: row.policy_version,
  privacyPolicyUrl: row.privacy_policy_url,
  purposes: row.purposes,
  services: row.services,
  consentLifetimeMonths: row.consent_lifetime_months,
  defaultLanguage: row.default_language,
  textOverrides: row.text_overrides,
  regionRules: row.region_rules,
  forceOptIn: row.force_opt_in,
  scanIntervalDays: row.scan_interval_days,
  identificationForms: row.identification_forms,
  monthlyResolutionCap: row.monthly_resolution_cap,
  keepPageQueryStrings: row.keep_page_query_strings,
  createdAt: row.created_at.toISOString(),
});

export async function getWebsiteByEmbedCode(db: Queryable, embedCode: string): Promise<Website | null> {
  const { rows } = await db.query<WebsiteRow>({
    name: 'get-website-by-embed-code',
    text: 'SELECT * FROM websites WHERE embed_code = $1',
    values: [embedCode],
  });
  return rows[0] ? toWebsite(rows[0]) : null;
}

export async function getWebsite(db: Queryable, websiteId: string): Promise<Website | null> {
  const { rows } = await db.query<WebsiteRow>({ name: 'get-website', text: 'SELECT * FROM websites WHERE id = $1', values: [websiteId] });
  return rows[0] ? toWebsite(rows[0]) : null;
}

/** An owner's websites, oldest first; every website when `ownerId` is null (admins). */
export async function listWebsites(db: Queryable, ownerId: string | null): Promise<Website[]> {
  const { rows } = await db.query<WebsiteRow>({
    name: 'list-websites',
    text: 'SELECT * FROM websites WHERE $1::uuid IS NULL OR owner_id = $1 ORDER BY created_at, id',
    values: [ownerId],
  });
  return rows.map(toWebsite);
}
