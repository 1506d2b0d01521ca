// The B2B company match (docs/identification.md, "Company from the network"): when a visitor's choice
// allows identification and the website's owner is on a plan with B2B data, the visitor's address is
// looked up offline and, if the network is a company's (docs/network-company-rule.md), a
// CompanyMatched event follows the consent on the visitor's consent stream. Only the autonomous
// system's number and organisation are stored: never the address. The consent never waits for this
// and never fails because of it. A match resolves the visitor, so it counts toward the website's
// monthly resolution cap like an identification (resolution-cap.ts): past the cap, a visitor not yet
// resolved this month is not matched.
import { createHash } from 'node:crypto';
import { consentStreamId } from '@consentry/events';
import type { GroupCommitAppender } from '@consentry/infra';
import type { FastifyBaseLogger } from 'fastify';
import type { BackgroundWork } from '../background';
import { classifyNetwork, isCompanyNetwork, type NetworkLookup } from '../enrich/network';
import { isoTimestamp } from '../enrich/received-at';
import type { WebsiteResolver } from '../website-resolver';
import type { ResolutionRequest } from './resolution-cap';

/**
 * The CompanyMatched event of a consent: a UUID (version 5 layout) derived from the consent's event
 * id, so a retried consent beacon stores its company match once.
 */
export function companyMatchedEventId(consentEventId: string): string {
  const digest = createHash('sha256').update(`consentry-company-matched:${consentEventId.toLowerCase()}`).digest();
  digest[6] = (digest[6]! & 0x0f) | 0x50;
  digest[8] = (digest[8]! & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface CompanyMatchRequest {
  readonly websiteId: string;
  readonly ownerId: string;
  readonly visitorId: string;
  /** The committed consent that allowed identification. */
  readonly consentEventId: string;
  /** The visitor's full address (normalised), whatever the website stores of it. */
  readonly ip: string | null;
}

export interface CompanyMatcher {
  /** Starts the match in the background; returns at once. */
  matchAfterConsent(request: CompanyMatchRequest, log: FastifyBaseLogger): void;
}

export function createCompanyMatcher(deps: {
  readonly websites: Pick<WebsiteResolver, 'ownerPlan'>;
  readonly network: NetworkLookup;
  readonly appender: GroupCommitAppender;
  readonly background: BackgroundWork;
  /** Admits the visitor toward the website's resolutions this month (false: the cap is reached). */
  readonly admitResolution?: (request: ResolutionRequest) => Promise<boolean>;
}): CompanyMatcher {
  async function match(request: CompanyMatchRequest): Promise<void> {
    if (!request.ip) return;
    // The plan first: installations without B2B owners never load the ASN database.
    const plan = await deps.websites.ownerPlan(request.ownerId);
    if (!plan.dataTypes.includes('b2b')) return;
    const network = await deps.network.lookup(request.ip);
    if (!network || !isCompanyNetwork(classifyNetwork(network.asn, network.organisation))) return;
    const matchedAt = isoTimestamp();
    if (deps.admitResolution && !(await deps.admitResolution({ websiteId: request.websiteId, visitorId: request.visitorId, email: null, at: matchedAt }))) return;
    await deps.appender.append({
      streamId: consentStreamId(request.websiteId, request.visitorId),
      event: {
        type: 'CompanyMatched',
        eventId: companyMatchedEventId(request.consentEventId),
        data: {
          websiteId: request.websiteId,
          visitorId: request.visitorId,
          asn: network.asn,
          organisation: network.organisation.slice(0, 200),
          consentEventId: request.consentEventId,
          matchedAt,
        },
      },
    });
  }

  return {
    matchAfterConsent(request, log) {
      deps.background.run(
        () => match(request),
        // Never the address: only what identifies the website and the error.
        (error) => log.warn({ err: error, websiteId: request.websiteId }, 'company match skipped'),
      );
    },
  };
}
