// Configuration from environment variables, validated once at start. Each mistake gets its own
// line naming the variable, what it must be and what it was, so a wrong deployment fails loudly
// before it touches any data.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

const postgresUrl = z
  .string()
  .url('must be a URL such as postgres://user@host:5432/db')
  .refine((value) => /^postgres(ql)?:\/\//.test(value), 'must start with postgres:// or postgresql://');

const natsUrl = z
  .string()
  .refine(
    (value) => value.split(',').every((part) => /^(nats|tls|ws|wss):\/\/[^\s]+$/.test(part.trim())),
    'must be one or more comma-separated URLs such as nats://127.0.0.1:4222',
  );

const wholeNumber = (min: number, max: number, fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: `must be a whole number from ${min} to ${max}` })
      .int(`must be a whole number from ${min} to ${max}`)
      .min(min, `must be a whole number from ${min} to ${max}`)
      .max(max, `must be a whole number from ${min} to ${max}`)
      .default(fallback),
  );

/**
 * A Standard Webhooks signing secret: `whsec_` and the base64 of 24 to 64 bytes (the spec asks for at
 * least 24). The same check as services/jobs/src/webhooks/signature.ts, which infra cannot import.
 */
function isSigningSecret(value: string): boolean {
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const bytes = Buffer.from(value.slice('whsec_'.length), 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/** Admin usernames: what the admin login form and `consentry admin create --username` accept. */
export const adminUsernamePattern = /^[A-Za-z0-9._@-]{1,100}$/;

const envSchema = z
  .object({
    PORT: wholeNumber(1, 65535, 3000),
    HOST: z.preprocess(emptyToUndefined, z.string().min(1).max(255).default('0.0.0.0')),
    PUBLIC_URL: z.preprocess(emptyToUndefined, z.string().url('must be a URL such as https://consent.example.com').optional()),
    DATABASE_URL: z.preprocess(emptyToUndefined, postgresUrl.optional()),
    DATABASE_POOL_SIZE: wholeNumber(2, 200, 10),
    NATS_URL: z.preprocess(emptyToUndefined, natsUrl.optional()),
    NATS_STREAM: z.preprocess(
      emptyToUndefined,
      z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, - or _').default('CONSENTRY_EVENTS'),
    ),
    NATS_SUBJECT_PREFIX: z.preprocess(
      emptyToUndefined,
      z.string().regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'must be dot-separated tokens such as consentry.events').default('consentry.events'),
    ),
    /** JetStream replicas of the stream when the bus creates it: 1 on a single server, 3 on a 3-node cluster. */
    NATS_STREAM_REPLICAS: wholeNumber(1, 5, 1),
    /**
     * How many partitions the per-website projections are split into (docs/deploy.md): as many as
     * the projector processes that should share the work, or more. Every process of an installation
     * must use the same value; changing it means `consentry replay` of those projections.
     */
    PROJECTOR_PARTITIONS: wholeNumber(1, 64, 1),
    /**
     * HTTP worker processes `start` forks for ingest and api (node:cluster, one port): `auto` is one
     * per core when the machine has more than one, less the core the main process needs when it runs
     * relay, projectors or jobs too; 0 serves HTTP from the main process itself.
     */
    HTTP_WORKERS: z.preprocess(
      emptyToUndefined,
      z
        .union([z.literal('auto'), z.coerce.number().int().min(0).max(64)], { error: 'must be auto or a whole number from 0 to 64' })
        .default('auto'),
    ),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().min(1).default('.data')),
    /** The Ed25519 key that signs the ledger's seals; created on first start. Default: DATA_DIR/seal-key.pem. */
    SEAL_KEY_FILE: z.preprocess(emptyToUndefined, z.string().min(1).max(4096).optional()),
    SEAL_INTERVAL_SECONDS: wholeNumber(1, 3600, 5),
    /**
     * RFC 3161 Time-Stamping Authorities that date the seals (docs/compliance.md, "Time-stamped
     * seals"): one URL or several, comma-separated. Unset: seals are not time-stamped.
     */
    TSA_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default('')
        .transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))
        .refine((urls) => urls.length <= 5, 'must name at most 5 authorities')
        .refine(
          (urls) => urls.every((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol) && url.length <= 2048),
          'must be http(s) URLs of time-stamping authorities, comma-separated, e.g. https://freetsa.org/tsr',
        ),
    ),
    /** The authorities' CA certificates (PEM) that `verify` and receipts trust; default: the public roots Node ships. */
    TSA_CA_FILE: z.preprocess(emptyToUndefined, z.string().min(1).max(4096).optional()),
    /** How often the newest seal is sent to each authority (one request per authority and round). */
    TSA_INTERVAL_SECONDS: wholeNumber(10, 86_400, 300),
    /** Whether `start` runs the cookie scanner's queue (scans need Debian's chromium package). */
    SCANNER: z.preprocess(emptyToUndefined, z.enum(['on', 'off'], { error: 'must be on or off' }).default('on')),
    /**
     * Scans each `jobs` process runs at once, each in its own Chromium (docs/scanner.md): `auto` is one
     * per 1 GiB of memory available at start and per core, 1 to 4 (scanRunnerCount).
     */
    SCAN_RUNNERS: (() => {
      const message = 'must be auto or a whole number from 1 to 16 (scans at once in this process; each Chromium needs about 500 MiB)';
      return z.preprocess(
        emptyToUndefined,
        z.union([z.literal('auto'), z.coerce.number().int(message).min(1, message).max(16, message)], { error: message }).default('auto'),
      );
    })(),
    EMBEDDED_POSTGRES_PORT: wholeNumber(1024, 65535, 54329),
    TRUSTED_PROXIES: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default('')
        .transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))
        .refine(
          (parts) => parts.every((part) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(part)),
          'must be a comma-separated list of IP addresses or CIDR ranges, e.g. 10.0.0.0/8,127.0.0.1',
        ),
    ),
    GEOIP: z.preprocess(
      emptyToUndefined,
      z
        .enum(['database', 'none', 'cloudflare', 'cloudfront', 'vercel'], {
          error: 'must be database, none, cloudflare, cloudfront or vercel',
        })
        .default('database'),
    ),
    INGEST_RATE_LIMIT_PER_MINUTE: wholeNumber(1, 10_000_000, 600),
    /**
     * Lead identification requests (POST /api/collect/identify) per minute from one visitor address
     * and for one website, counted in the database across every process (docs/identification.md,
     * "Limits"): a few per address is more than any person sends; a website's budget bounds what a
     * crowd of addresses can queue for enrichment.
     */
    IDENTIFY_RATE_LIMIT_PER_IP_PER_MINUTE: wholeNumber(1, 100_000, 10),
    IDENTIFY_RATE_LIMIT_PER_WEBSITE_PER_MINUTE: wholeNumber(1, 10_000_000, 120),
    /**
     * Prometheus metrics are served on their own port, on loopback unless told otherwise: they name
     * routes, sign-in counts and memory, nothing a visitor of PORT should read. 0 picks a free port.
     */
    METRICS_PORT: wholeNumber(0, 65535, 9464),
    METRICS_HOST: z.preprocess(emptyToUndefined, z.string().min(1).max(255).default('127.0.0.1')),
    /** When set, /metrics also asks for `Authorization: Bearer <METRICS_TOKEN>` (for a scraper on another host). */
    METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters').max(256, 'must be at most 256 characters').optional()),
  VERIFY_ALLOWED_HOSTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .transform((value) => value.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean)),
  ),
    /**
     * Who enriches leads (docs/identification.md, "Enrichment"): nobody (`off`), our signed HTTP
     * contract at ENRICHMENT_URL (`http`, docs/enrichment-provider.md), or Hunter.io (`hunter`).
     */
    ENRICHMENT_PROVIDER: z.preprocess(
      emptyToUndefined,
      z.enum(['off', 'http', 'hunter'], { error: 'must be off, http or hunter' }).default('off'),
    ),
    /** Where the http provider is asked (may carry credentials, so never echoed). */
    ENRICHMENT_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .url('must be a URL such as https://enrich.example.com/v1/enrich')
        .refine((value) => /^https?:\/\//.test(value), 'must start with http:// or https://')
        .optional(),
    ),
    /** Signs requests to the http provider and checks its answers: whsec_ and base64 of 24 to 64 random bytes. */
    ENRICHMENT_SECRET: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .refine(isSigningSecret, 'must be whsec_ followed by the base64 of 24 to 64 random bytes (Standard Webhooks form)')
        .optional(),
    ),
    /** Hunter.io's API key (Dashboard → API), for ENRICHMENT_PROVIDER=hunter. */
    HUNTER_API_KEY: z.preprocess(
      emptyToUndefined,
      z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be the API key from your Hunter dashboard (16–128 letters and digits)').optional(),
    ),
    /** Enrichment calls per minute, across every process of the installation. */
    ENRICHMENT_RATE_PER_MINUTE: wholeNumber(1, 100_000, 60),
    /** Enrichment calls in flight at once in each process. */
    ENRICHMENT_CONCURRENCY: wholeNumber(1, 64, 4),
    /** Whether `start` delivers the owners' webhooks. */
    WEBHOOKS: z.preprocess(emptyToUndefined, z.enum(['on', 'off'], { error: 'must be on or off' }).default('on')),
    LOG_LEVEL: z.preprocess(
      emptyToUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    /** `auto`: readable lines in a terminal, one JSON object per line anywhere else. */
    LOG_FORMAT: z.preprocess(emptyToUndefined, z.enum(['auto', 'pretty', 'json'], { error: 'must be auto, pretty or json' }).default('auto')),
    /** Where invitation emails go out; unset: no email, the admin copies the invitation link. */
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .url('must be a URL such as smtp://user:password@mail.example.com:587 or smtps://mail.example.com:465')
        .refine((value) => /^smtps?:\/\//.test(value), 'must start with smtp:// or smtps://')
        .optional(),
    ),
    /** The sender of those emails. Default: Consentry <no-reply@PUBLIC_URL's host>. */
    MAIL_FROM: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .max(320, 'must be at most 320 characters')
        .regex(/^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, 'must be an address such as no-reply@example.com or Name <no-reply@example.com>')
        .optional(),
    ),
    /** Signs session cookies; unset: one is generated on first start and kept in the database. */
    SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
    /** The first admin, created at start when the admin table is empty (with ADMIN_PASSWORD). */
    ADMIN_USERNAME: z.preprocess(
      emptyToUndefined,
      z.string().regex(adminUsernamePattern, 'must be 1–100 letters, digits, ., _, @ or -').optional(),
    ),
    ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(8, 'must be 8 to 128 characters').max(128, 'must be 8 to 128 characters').optional()),
  })
  .superRefine((env, ctx) => {
    if ((env.ADMIN_USERNAME === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
      const [missing, given] = env.ADMIN_USERNAME === undefined ? ['ADMIN_USERNAME', 'ADMIN_PASSWORD'] : ['ADMIN_PASSWORD', 'ADMIN_USERNAME'];
      ctx.addIssue({ code: 'custom', path: [missing], message: `must be set when ${given} is` });
    }
    if (env.TSA_CA_FILE !== undefined) {
      let pem = '';
      try {
        pem = readFileSync(env.TSA_CA_FILE, 'utf8');
      } catch {
        ctx.addIssue({ code: 'custom', path: ['TSA_CA_FILE'], message: 'cannot be read (a PEM file of the time-stamping authorities’ CA certificates)' });
      }
      if (pem !== '' && !pem.includes('-----BEGIN CERTIFICATE-----')) {
        ctx.addIssue({ code: 'custom', path: ['TSA_CA_FILE'], message: 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)' });
      }
    }
    // Each provider's settings are needed only when it is chosen.
    const needed = { http: ['ENRICHMENT_URL', 'ENRICHMENT_SECRET'], hunter: ['HUNTER_API_KEY'], off: [] } as const;
    for (const name of needed[env.ENRICHMENT_PROVIDER]) {
      if (env[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: `must be set when ENRICHMENT_PROVIDER is ${env.ENRICHMENT_PROVIDER}` });
    }
  });

/** Every environment variable the configuration reads (docs/deploy.md's test checks its example against them). */
export const configVariableNames = Object.keys(envSchema.shape) as readonly (keyof typeof envSchema.shape)[];

export type Config = z.infer<typeof envSchema> & { readonly publicUrl: string; readonly sealKeyFile: string; readonly mailFrom: string };

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the configuration; throws ConfigError listing every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const raw = env[name];
      // Never echo secrets: a database, NATS or enrichment URL may carry a password; secrets,
      // passwords, tokens and API keys are ones.
      const shown =
        raw === undefined ? 'unset' : /URL$|SECRET|PASSWORD|TOKEN|API_KEY$/.test(name) ? 'a value that was not accepted' : JSON.stringify(raw);
      return `${name}: ${issue.message} (got ${shown})`;
    });
    throw new ConfigError(problems);
  }
  const config = parsed.data;
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  return {
    ...config,
    publicUrl,
    mailFrom: config.MAIL_FROM ?? `Consentry <no-reply@${new URL(publicUrl).hostname}>`,
    sealKeyFile: config.SEAL_KEY_FILE ?? path.join(config.DATA_DIR, 'seal-key.pem'),
  };
}
