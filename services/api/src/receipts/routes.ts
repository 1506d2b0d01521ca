// Receipts and the seal key: `GET /api/consents/{consentId}/receipt` for the owner of the consent's
// website (or an admin), and the public half of the seal key at a well-known URL for anyone.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appliedRule, LedgerSealedData } from '@consentry/events';
import type { Db } from '@consentry/infra';
import { canSeeWebsite, signedInViewer, visibleWebsiteIds } from '../access';
import { errorAnswer, errorBody } from '../errors';
import { buildConsentReceipt, sealKeyPath } from './receipt';

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
    verification: z.object({ publicKeyUrl: z.string(), keyId: z.string(), howTo: z.string() }),
  })
  .meta({ id: 'ConsentReceipt', description: 'A consent receipt with its inclusion proof (docs/compliance.md)' });

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
