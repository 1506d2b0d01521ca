// Receipts and the seal key: `GET /api/consents/{consentId}/receipt` for the owner of the consent's
// website (or an admin), and the public half of the seal key at a well-known URL for anyone.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appliedRule, LedgerSealedData, SealTimestampedData } from '@consentry/events';
import { readSealFeed, type Db } from '@consentry/infra';
import { canSeeWebsite, signedInViewer, visibleWebsiteIds } from '../access';
import { errorAnswer, errorBody } from '../errors';
import { buildConsentReceipt, sealFeedPath, sealKeyPath } from './receipt';

/**
 * The receipt as the web app reads it. The event lists every field of a stored event: its canonical
 * JSON is the proof's leaf, so a field left out here would break every proof (receipts.int checks).
 */
const receiptAnswer = z
  .object({
    version: z.string(),
    consentReceiptId: z.string(),
    issuedAt: z.string(),
    jurisdiction: z.string(),
    controller: z.object({ name: z.string(), contactEmail: z.string().nullable(), website: z.string(), privacyPolicyUrl: z.string().nullable() }),
    subject: z.object({ visitorId: z.string() }),
    consent: z.object({
      choice: z.enum(['accepted', 'declined']),
      consentTimestamp: z.string(),
      visitorClockTimestamp: z.string(),
      collectionMethod: z.string(),
      source: z.string(),
      method: z.string(),
      rule: appliedRule.meta({ description: 'The rule of the visitor’s region that applied, and the region' }),
      purposes: z.array(z.object({ purpose: z.string(), granted: z.boolean(), shownAs: z.object({ name: z.string(), description: z.string() }).nullable() })).readonly(),
      termination: z.string(),
    }),
    notice: z.object({
      policyVersion: z.string(),
      language: z.string(),
      browserLanguage: z.string().nullable(),
      heading: z.string(),
      text: z.string(),
      buttons: z.array(z.string()).readonly(),
      privacyPolicyLink: z.string().nullable(),
      pageUrl: z.string().nullable(),
      textsHash: z.string().nullable(),
      texts: z.record(z.string(), z.string()).nullable(),
    }),
    event: z
      .object({
        position: z.number(),
        transactionId: z.string(),
        eventId: z.string(),
        streamId: z.string(),
        streamVersion: z.number().nullable(),
        type: z.string(),
        schemaVersion: z.number(),
        data: z.unknown(),
        metadata: z.unknown(),
        recordedAt: z.string(),
      })
      .meta({ description: 'The event exactly as stored; its canonical JSON is the leaf' }),
    proofStatus: z.enum(['sealed', 'pending-seal', 'personal-data-erased-after-sealing']),
    proof: z
      .object({ algorithm: z.literal('rfc9162-sha256'), leafDigest: z.string(), leafIndex: z.number(), treeSize: z.number(), path: z.array(z.string()).readonly(), seal: LedgerSealedData })
      .nullable(),
    timestamp: z
      .object({ token: SealTimestampedData, chain: z.array(LedgerSealedData).readonly() })
      .nullable()
      .meta({ description: 'The RFC 3161 token that dates the proof’s seal (on it or a later seal), and the seals between, each chaining to the one before' }),
    verification: z.object({ publicKeyUrl: z.string(), keyId: z.string(), howTo: z.string() }),
  })
  .meta({ id: 'ConsentReceipt', description: 'A consent receipt with its inclusion proof (docs/compliance.md)' });

const sealFeedAnswer = z
  .object({
    seals: z.array(LedgerSealedData.extend({ timestamps: z.array(SealTimestampedData).readonly() })).readonly(),
    head: z.object({ sequence: z.int(), sealHash: z.string() }).nullable().meta({ description: 'The newest seal now' }),
  })
  .meta({ id: 'SealFeed', description: 'A page of the chain of seals, oldest first, with their RFC 3161 time-stamp tokens' });

export interface ReceiptRoutesOptions {
  readonly pool: Db;
  readonly publicUrl: string;
  readonly sealKey: { readonly keyId: string; readonly publicKeyPem: string };
}

export const receiptRoutes: FastifyPluginAsyncZod<ReceiptRoutesOptions> = async (app, { pool, publicUrl, sealKey }) => {
  app.get(
    sealKeyPath,
    {
      config: { access: 'public' },
      schema: {
        tags: ['compliance'],
        summary: 'The public key that signs the ledger seals',
        response: { 200: z.object({ algorithm: z.literal('Ed25519'), keyId: z.string(), publicKey: z.string().describe('SPKI, PEM') }).meta({ id: 'SealKey' }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return { algorithm: 'Ed25519' as const, keyId: sealKey.keyId, publicKey: sealKey.publicKeyPem };
    },
  );

  // The chain of seals for anyone to follow and keep (`consentry witness`): seals carry ranges,
  // counts and hashes of the log, nothing about any visitor or owner.
  app.get(
    sealFeedPath,
    {
      config: { access: 'public' },
      schema: {
        tags: ['compliance'],
        summary: 'The chain of seals, for witnesses: seals after `after`, oldest first, with their time-stamp tokens',
        description:
          'Page with `after` = the last sequence received. A witness keeps the newest head it accepted and checks that every later seal extends it ' +
          '(docs/compliance.md, "Witnessed seals"); `head` is the newest seal now.',
        querystring: z.object({
          after: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
          limit: z.coerce.number().int().min(1).max(1000).default(100),
        }),
        response: { 200: sealFeedAnswer, 400: errorAnswer },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=5');
      return readSealFeed(pool, request.query.after, request.query.limit);
    },
  );

  app.get(
    '/api/consents/:consentId/receipt',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['compliance'],
        summary: 'Proof of consent: a consent receipt with its Merkle inclusion proof against a signed seal',
        description:
          "The consent's website must be the signed-in owner's (another owner's consent answers 404, as if it did not exist). " +
          "`proofStatus` is 'pending-seal' for a consent newer than the last seal (a few seconds).",
        params: z.object({ consentId: z.uuid({ error: 'consentId must be a consent id (a UUID)' }) }),
        response: { 200: receiptAnswer, 400: errorAnswer, 401: errorAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      const viewer = signedInViewer(request);
      const receipt = await buildConsentReceipt(pool, request.params.consentId.toLowerCase(), { publicUrl, keyId: sealKey.keyId });
      const websiteId = receipt ? (receipt.event.data as { websiteId: string }).websiteId : null;
      if (!receipt || !websiteId || !canSeeWebsite(await visibleWebsiteIds(pool, viewer), websiteId)) return reply.code(404).send(errorBody('CONSENT_NOT_FOUND', 'Consent not found'));
      reply.header('cache-control', 'no-store');
      return receipt;
    },
  );
};
