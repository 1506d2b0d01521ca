// Proof of consent (GDPR Art. 7(1)): a consent receipt in the spirit of the Kantara Initiative's
// Consent Receipt Specification (v1.1) — who the controller is, when and how consent was collected,
// what the visitor was shown, what they chose — plus the event exactly as stored and its Merkle
// inclusion proof against a signed seal, which anyone can check offline with the published key and
// node:crypto (docs/compliance.md, services/server/scripts/verify-receipt.mjs).
import {
  bannerTextKeys,
  bannerTextsStreamId,
  optionalPurposes,
  upcastEventData,
  type BannerTexts,
  type BannerTextsPublishedData,
  type LedgerSealedData,
  type SealTimestampedData,
  type ConsentChoiceData,
  type ConsentMethod,
  type ConsentSource,
  type OptionalPurpose,
} from '@consentry/events';
import { proveEvent, readTimestampFor, type InclusionProof, type Queryable, type SealedEvent } from '@consentry/infra';
import { findBranding, getUser, getWebsite } from '@consentry/projections';

/**
 * What widget 1 showed, in English only, before texts were published with the config: the notice of
 * every choice recorded without a `textsHash`.
 */
export const widgetOneTexts = {
  heading: (companyName: string) => `${companyName} uses cookies`,
  notice: 'We use cookies for analytics and marketing only if you accept. You can change your choice at any time.',
  privacyLink: 'Privacy policy',
  buttons: ['Decline', 'Accept All'],
} as const;

const collectionMethods: Record<ConsentSource, string> = {
  banner: 'The visitor chose on the cookie banner (widget.js) on the controller’s website.',
  gpc: 'The visitor’s browser sent the Global Privacy Control signal; a decline was recorded without showing the banner.',
  reopened: 'The visitor reopened the banner from its floating button and chose again.',
  placeholder: 'The visitor allowed a purpose from the placeholder of content blocked until that consent.',
  api: 'The controller’s own page recorded the choice through the widget’s script interface.',
  opt_out_link: 'The visitor used the “Do Not Sell or Share My Personal Information” link.',
  jurisdiction: 'The rule of the visitor’s region applied without a banner being shown.',
};

const purposeDescriptions: Record<OptionalPurpose, string> = {
  preferences: 'Preference cookies and scripts (remembering the visitor’s settings)',
  analytics: 'Analytics cookies and scripts',
  marketing: 'Marketing cookies and scripts',
  identification: 'Identification of the visitor as a business lead',
};

const methodDescriptions: Record<ConsentMethod, string> = {
  accept_all: 'Accept All',
  reject_all: 'Reject All',
  custom: 'A choice per purpose in the preference centre',
  gpc: 'Global Privacy Control',
  jurisdiction_default: 'The default of the visitor’s region',
};

export interface ConsentReceipt {
  readonly version: 'consentry-receipt/1 (after Kantara Consent Receipt v1.1)';
  readonly consentReceiptId: string;
  readonly issuedAt: string;
  readonly jurisdiction: 'EU (GDPR)';
  readonly controller: {
    readonly name: string;
    readonly contactEmail: string | null;
    readonly website: string;
    readonly privacyPolicyUrl: string | null;
  };
  readonly subject: { readonly visitorId: string };
  readonly consent: {
    readonly choice: 'accepted' | 'declined';
    readonly consentTimestamp: string;
    readonly visitorClockTimestamp: string;
    readonly collectionMethod: string;
    readonly source: ConsentSource;
    readonly method: string;
    readonly rule: ConsentChoiceData['rule'];
    /**
     * Each purpose offered, granted or not, and the words the banner named and described it with
     * (`shownAs`, from the published texts; null for choices recorded before texts were published).
     */
    readonly purposes: readonly {
      readonly purpose: string;
      readonly granted: boolean;
      readonly shownAs: { readonly name: string; readonly description: string } | null;
    }[];
    readonly termination: string;
  };
  readonly notice: {
    readonly policyVersion: string;
    /** The language the banner was shown in (`shownLanguage`; widget 1 spoke English). */
    readonly language: string;
    /** The visitor's browser language. */
    readonly browserLanguage: string | null;
    readonly heading: string;
    readonly text: string;
    readonly buttons: readonly string[];
    readonly privacyPolicyLink: string | null;
    readonly pageUrl: string | null;
    /** The hash the consent event names, and every text shown under it, `{company}` filled in. */
    readonly textsHash: string | null;
    readonly texts: Readonly<Record<string, string>> | null;
  };
  /** The event as stored in the ledger; its canonical JSON is the proof's leaf. */
  readonly event: SealedEvent;
  readonly proofStatus: 'sealed' | 'pending-seal' | 'personal-data-erased-after-sealing';
  readonly proof: InclusionProof | null;
  /**
   * When the proof's seal is dated by an RFC 3161 authority: the token (on that seal or a later one)
   * and the seals after the proof's up to the token's, each chaining to the one before. Null while
   * no authority has dated it (or none is configured).
   */
  readonly timestamp: { readonly token: SealTimestampedData; readonly chain: readonly LedgerSealedData[] } | null;
  readonly verification: {
    readonly publicKeyUrl: string;
    readonly keyId: string;
    readonly howTo: string;
  };
}

export interface ReceiptOptions {
  readonly publicUrl: string;
  readonly keyId: string;
  readonly now?: () => Date;
}

export const sealKeyPath = '/.well-known/consentry/seal-key';
export const sealFeedPath = '/.well-known/consentry/seals';

/** The receipt of consent event `consentId`, or null when there is no consent event with that id. */
export async function buildConsentReceipt(db: Queryable, consentId: string, options: ReceiptOptions): Promise<ConsentReceipt | null> {
  const proven = await proveEvent(db, consentId);
  if (!proven || (proven.event.type !== 'ConsentGiven' && proven.event.type !== 'ConsentDeclined')) return null;
  // The event is shown as stored (its bytes are the proof's leaf); what it says is read at the current
  // version, so a version 1 choice names the purposes it granted too.
  const data = upcastEventData(proven.event.type, proven.event.schemaVersion, proven.event.data) as ConsentChoiceData;
  const website = await getWebsite(db, data.websiteId);
  const owner = website ? await getUser(db, website.ownerId) : null;
  const branding = website ? await findBranding(db, website.ownerId) : null;
  const companyName = branding?.companyName ?? website?.name ?? 'The website owner';
  const accepted = proven.event.type === 'ConsentGiven';
  const shown = data.textsHash ? await findPublishedTexts(db, data.textsHash) : null;
  return {
    version: 'consentry-receipt/1 (after Kantara Consent Receipt v1.1)',
    consentReceiptId: proven.event.eventId,
    issuedAt: (options.now?.() ?? new Date()).toISOString(),
    jurisdiction: 'EU (GDPR)',
    controller: {
      name: companyName,
      contactEmail: owner?.email ?? null,
      website: website ? `https://${website.domain}` : '(website removed)',
      privacyPolicyUrl: website?.privacyPolicyUrl ?? null,
    },
    subject: { visitorId: data.visitorId },
    consent: {
      choice: accepted ? 'accepted' : 'declined',
      consentTimestamp: data.receivedAt,
      visitorClockTimestamp: data.occurredAt,
      collectionMethod: collectionMethods[data.source],
      source: data.source,
      method: methodDescriptions[data.method],
      rule: data.rule,
      purposes: [
        { purpose: 'Strictly necessary storage (remembering this choice)', granted: true, shownAs: shownWording(shown?.texts, 'necessary') },
        ...optionalPurposes
          .filter((purpose) => data.offered.includes(purpose))
          .map((purpose) => ({ purpose: purposeDescriptions[purpose], granted: data.purposes[purpose], shownAs: shownWording(shown?.texts, purpose) })),
      ],
      termination: 'Until the visitor changes their choice (the banner’s floating button) or the controller changes the policy version.',
    },
    notice: shown
      ? {
          policyVersion: data.policyVersion,
          language: shown.language,
          browserLanguage: data.language,
          heading: shown.texts.title,
          text: shown.texts.notice,
          buttons: [shown.texts.customize, shown.texts.rejectAll, shown.texts.acceptAll],
          privacyPolicyLink: website?.privacyPolicyUrl ?? null,
          pageUrl: data.pageUrl,
          textsHash: data.textsHash,
          texts: shown.texts,
        }
      : {
          policyVersion: data.policyVersion,
          language: data.shownLanguage ?? 'en',
          browserLanguage: data.language,
          heading: widgetOneTexts.heading(companyName),
          text: widgetOneTexts.notice,
          buttons: widgetOneTexts.buttons,
          privacyPolicyLink: website?.privacyPolicyUrl ?? null,
          pageUrl: data.pageUrl,
          textsHash: data.textsHash,
          texts: null,
        },
    event: proven.event,
    proofStatus: !proven.proof ? 'pending-seal' : proven.rewrittenSinceSealed ? 'personal-data-erased-after-sealing' : 'sealed',
    proof: proven.proof,
    timestamp: proven.proof ? await readTimestampFor(db, proven.proof.seal.sequence) : null,
    verification: {
      publicKeyUrl: `${options.publicUrl}${sealKeyPath}`,
      keyId: options.keyId,
      howTo: 'node verify-receipt.mjs receipt.json seal-key.pem (docs/compliance.md): checks the event against the summary, its inclusion in the seal, the seal hash and its Ed25519 signature, and the chain to the time-stamped seal; openssl ts -verify checks the time-stamp token itself.',
    },
  };
}

/**
 * How the banner named and described a purpose, in the words the visitor read (the identification
 * purpose's wording matters most: it is what the visitor agreed to be identified under).
 */
function shownWording(texts: BannerTexts | undefined, purpose: 'necessary' | OptionalPurpose): { name: string; description: string } | null {
  if (!texts) return null;
  return { name: texts[purpose], description: texts[`${purpose}Description`] };
}

/** The texts published under `hash`, `{company}` filled in as the banner did; null when not recorded. */
async function findPublishedTexts(db: Queryable, hash: string): Promise<{ language: string; texts: BannerTexts } | null> {
  const { rows } = await db.query<{ data: BannerTextsPublishedData }>({
    name: 'find-published-banner-texts',
    text: `SELECT data FROM events WHERE stream_id = $1 AND type = 'BannerTextsPublished' ORDER BY position LIMIT 1`,
    values: [bannerTextsStreamId(hash)],
  });
  const published = rows[0]?.data;
  if (!published) return null;
  const texts = { ...published.texts };
  for (const key of bannerTextKeys) texts[key] = texts[key].replaceAll('{company}', published.companyName);
  return { language: published.language, texts };
}
