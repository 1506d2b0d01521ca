// A provider speaking our signed HTTP contract (docs/enrichment-provider.md) on loopback, for tests:
// it checks the signature of every request as the contract tells a provider to, and answers each
// email by a script — well, slowly, not at all, with 429/5xx, with garbage, or with a signature that
// does not hold — so the worker meets a provider that misbehaves on purpose.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EnrichmentDetails } from '@consentry/events';
import { generateWebhookSecret, verifyWebhook, webhookHeaders } from '../webhooks/signature';

export type ProviderStep =
  | { readonly kind: 'found'; readonly details?: Partial<EnrichmentDetails> }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string }
  /** Answers `found`, but only after `ms` (beyond the worker's timeout). */
  | { readonly kind: 'slow'; readonly ms: number }
  | { readonly kind: 'hang' }
  | { readonly kind: 'not_json' }
  | { readonly kind: 'off_contract' }
  | { readonly kind: 'forged' }
  | { readonly kind: 'unsigned' }
  | { readonly kind: 'other_id' };

export interface ProviderRequest {
  readonly email: string | null;
  readonly domain: string | null;
  readonly company: string | null;
  readonly id: string;
  readonly verified: boolean;
  /** When the provider answered, or started to (ms since epoch). */
  readonly at: number;
  readonly step: ProviderStep['kind'];
}

export const defaultDetails: EnrichmentDetails = {
  name: 'Ada Lovelace',
  title: 'Head of Engines',
  company: 'Analytical Ltd',
  domain: 'analytical.example',
  industry: 'Computing',
  size: '51-200',
  linkedinUrl: 'https://www.linkedin.com/in/ada-lovelace',
  location: 'London, United Kingdom',
};

export class TestProvider {
  readonly secret = generateWebhookSecret();
  readonly requests: ProviderRequest[] = [];
  private readonly scripts = new Map<string, readonly ProviderStep[]>();
  private readonly held = new Set<ServerResponse>();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/enrich`;
  }

  /** How the provider answers `email`: step i for the i-th request, the last step from then on. */
  script(email: string, steps: readonly ProviderStep[]): void {
    this.scripts.set(email, steps);
  }

  requestsFor(email: string): ProviderRequest[] {
    return this.requests.filter((request) => request.email === email);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let verified = true;
    try {
      verifyWebhook(this.secret, request.headers as Record<string, string>, body);
    } catch {
      verified = false;
    }
    const parsed = JSON.parse(body) as { id: string; email: string | null; domain: string | null; company: string | null };
    const script = this.scripts.get(parsed.email ?? '') ?? [{ kind: 'found' }];
    const seen = this.requests.filter((entry) => entry.email === parsed.email).length;
    const step = script[Math.min(seen, script.length - 1)]!;
    this.requests.push({ email: parsed.email, domain: parsed.domain, company: parsed.company, id: parsed.id, verified, at: Date.now(), step: step.kind });
    // The contract: a request whose signature does not hold is refused.
    if (!verified) return void response.writeHead(401).end();
    const signed = (answer: string, secret = this.secret, id = parsed.id) =>
      response.writeHead(200, { 'content-type': 'application/json', ...webhookHeaders(secret, id, answer) }).end(answer);
    const found = () => JSON.stringify({ details: { ...defaultDetails, ...(step.kind === 'found' ? step.details : {}) } });
    switch (step.kind) {
      case 'found':
        return void signed(found());
      case 'not_found':
        return void response.writeHead(404).end();
      case 'status':
        return void response.writeHead(step.status, step.retryAfter ? { 'retry-after': step.retryAfter } : {}).end('{"error":"not now"}');
      case 'slow': {
        this.held.add(response);
        setTimeout(() => {
          this.held.delete(response);
          if (!response.destroyed) signed(found());
        }, step.ms);
        return;
      }
      case 'hang':
        this.held.add(response);
        return;
      case 'not_json':
        return void signed('{"details": {"name": "Ada"');
      case 'off_contract':
        return void signed(JSON.stringify({ details: { name: 'A'.repeat(201), linkedinUrl: 'javascript:alert(1)' } }));
      case 'forged':
        return void signed(found(), generateWebhookSecret());
      case 'unsigned':
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(found());
      case 'other_id':
        return void signed(found(), this.secret, 'another-request');
      default: {
        const unknown: never = step;
        throw new Error(`unknown step ${JSON.stringify(unknown)}`);
      }
    }
  }

  async close(): Promise<void> {
    for (const response of this.held) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
