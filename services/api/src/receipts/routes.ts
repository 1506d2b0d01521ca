// Receipts and the seal key: `GET /api/consents/{consentId}/receipt` for the owner of the consent's
// website (or an admin), and the public half of the seal key at a well-known URL for anyone.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '@consentry/infra';
import { canSeeWebsite, signedInViewer, visibleWebsiteIds } from '../access';
import { errorAnswer, errorBody } from '../errors';
import { buildConsentReceipt, sealKeyPath } from './receipt';

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
        response: { 200: z.object({ algorithm: z.literal('Ed25519'), keyId: z.string(), publicKey: z.string().describe('SPKI, PEM') }) },
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
        response: { 200: z.any().describe('The consent receipt (docs/compliance.md)'), 400: errorAnswer, 401: errorAnswer, 404: errorAnswer },
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
