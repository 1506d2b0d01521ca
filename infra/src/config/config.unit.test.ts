// Configuration validation: defaults, and one clear line per mistake without leaking secrets.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('when nothing is set', () => {
  it('runs on the embedded default on port 3000', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.NATS_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe('.data');
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).PORT).toBe(3000);
  });
});

describe('when values are wrong', () => {
  it('reports every problem at once, naming each variable', () => {
    const error = (() => {
      try {
        loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://root:hunter2@db/x', NATS_URL: 'http://nats', LOG_LEVEL: 'loud' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual([
      'PORT: must be a whole number from 1 to 65535 (got "abc")',
      'DATABASE_URL: must start with postgres:// or postgresql:// (got a value that was not accepted)',
      'NATS_URL: must be one or more comma-separated URLs such as nats://127.0.0.1:4222 (got a value that was not accepted)',
      expect.stringMatching(/^LOG_LEVEL: .* \(got "loud"\)$/),
    ]);
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('takes time-stamping authorities as a comma-separated list, off by default, every 300 s', () => {
    expect(loadConfig({})).toMatchObject({ TSA_URL: [], TSA_INTERVAL_SECONDS: 300 });
    expect(loadConfig({}).TSA_CA_FILE).toBeUndefined();
    expect(loadConfig({ TSA_URL: ' https://a.example/tsr , http://b.example:318/ ', TSA_INTERVAL_SECONDS: '60' })).toMatchObject({
      TSA_URL: ['https://a.example/tsr', 'http://b.example:318/'],
      TSA_INTERVAL_SECONDS: 60,
    });
  });

  it('refuses an authority that is not an http(s) URL, and a CA file that is missing or holds no certificate', () => {
    expect(() => loadConfig({ TSA_URL: 'ftp://tsa.example/' })).toThrow(/TSA_URL: must be http\(s\) URLs of time-stamping authorities/);
    expect(() => loadConfig({ TSA_CA_FILE: '/nonexistent/tsa-ca.pem' })).toThrow(/TSA_CA_FILE: cannot be read/);
    expect(() => loadConfig({ TSA_CA_FILE: fileURLToPath(import.meta.url) })).toThrow(/TSA_CA_FILE: holds no PEM certificate/);
    expect(() => loadConfig({ TSA_INTERVAL_SECONDS: '5' })).toThrow(/TSA_INTERVAL_SECONDS/);
  });

  it('refuses a port out of range', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow('PORT: must be a whole number from 1 to 65535 (got "70000")');
  });
});

describe('when PUBLIC_URL is set', () => {
  it('is used without a trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://consent.example.com/' }).publicUrl).toBe('https://consent.example.com');
  });
});

describe('when sessions and the first admin are configured', () => {
  it('takes a session secret of at least 32 characters and an admin username with its password', () => {
    const config = loadConfig({ SESSION_SECRET: 's'.repeat(32), ADMIN_USERNAME: 'ops@example.com', ADMIN_PASSWORD: 'correct horse' });
    expect(config.SESSION_SECRET).toBe('s'.repeat(32));
    expect(config.ADMIN_USERNAME).toBe('ops@example.com');
    expect(config.ADMIN_PASSWORD).toBe('correct horse');
  });

  it('leaves all three unset by default', () => {
    const config = loadConfig({});
    expect([config.SESSION_SECRET, config.ADMIN_USERNAME, config.ADMIN_PASSWORD]).toEqual([undefined, undefined, undefined]);
  });

  it('refuses a short secret and a short password without echoing either', () => {
    const error = (() => {
      try {
        loadConfig({ SESSION_SECRET: 'tooshort-secret', ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'hunter2' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'SESSION_SECRET: must be at least 32 characters (got a value that was not accepted)',
      'ADMIN_PASSWORD: must be 8 to 128 characters (got a value that was not accepted)',
    ]);
    expect((error as Error).message).not.toContain('hunter2');
    expect((error as Error).message).not.toContain('tooshort-secret');
  });

  it('refuses an admin username without a password, and the other way round', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'admin' })).toThrow('ADMIN_PASSWORD: must be set when ADMIN_USERNAME is (got unset)');
    expect(() => loadConfig({ ADMIN_PASSWORD: 'long enough' })).toThrow('ADMIN_USERNAME: must be set when ADMIN_PASSWORD is (got unset)');
  });

  it('refuses an admin username with spaces', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'the admin', ADMIN_PASSWORD: 'long enough' })).toThrow(
      'ADMIN_USERNAME: must be 1–100 letters, digits, ., _, @ or - (got "the admin")',
    );
  });
});

describe('where the metrics are served', () => {
  it('defaults to port 9464 on loopback, with no token', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ METRICS_PORT: 9464, METRICS_HOST: '127.0.0.1' });
    expect(config.METRICS_TOKEN).toBeUndefined();
  });

  it('takes 0 for a free port, and a token of at least 16 characters', () => {
    expect(loadConfig({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'a-long-scrape-token' })).toMatchObject({
      METRICS_PORT: 0,
      METRICS_HOST: '0.0.0.0',
      METRICS_TOKEN: 'a-long-scrape-token',
    });
  });

  it('refuses a short token without echoing it', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'tiny-secret' })).toThrow('METRICS_TOKEN: must be at least 16 characters (got a value that was not accepted)');
    expect(() => loadConfig({ METRICS_TOKEN: 'tiny-secret' })).not.toThrow(/tiny-secret/);
  });
});

describe('outgoing email', () => {
  it('is off by default, with a sender at PUBLIC_URL’s host', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://consent.example.com' });
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.mailFrom).toBe('Consentry <no-reply@consent.example.com>');
  });

  it('takes an smtp:// or smtps:// URL and a sender address', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://mailer:pw@mail.example.com:465', MAIL_FROM: 'Acme <consent@acme.example>' })).toMatchObject({
      SMTP_URL: 'smtps://mailer:pw@mail.example.com:465',
      mailFrom: 'Acme <consent@acme.example>',
    });
  });

  it('refuses another scheme without echoing the URL, and a sender that is not an address', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://user:secret@mail.example.com' })).toThrow('SMTP_URL: must start with smtp:// or smtps:// (got a value that was not accepted)');
    expect(() => loadConfig({ SMTP_URL: 'http://user:secret@mail.example.com' })).not.toThrow(/secret/);
    expect(() => loadConfig({ MAIL_FROM: 'nobody' })).toThrow(/MAIL_FROM: must be an address/);
  });
});

describe('identify rate limits', () => {
  it('allows 10 identifications a minute per address and 120 per website by default', () => {
    expect(loadConfig({})).toMatchObject({ IDENTIFY_RATE_LIMIT_PER_IP_PER_MINUTE: 10, IDENTIFY_RATE_LIMIT_PER_WEBSITE_PER_MINUTE: 120 });
    expect(loadConfig({ IDENTIFY_RATE_LIMIT_PER_IP_PER_MINUTE: '3', IDENTIFY_RATE_LIMIT_PER_WEBSITE_PER_MINUTE: '1000' })).toMatchObject({
      IDENTIFY_RATE_LIMIT_PER_IP_PER_MINUTE: 3,
      IDENTIFY_RATE_LIMIT_PER_WEBSITE_PER_MINUTE: 1000,
    });
  });

  it('names each limit that is not a whole number in range', () => {
    expect(() => loadConfig({ IDENTIFY_RATE_LIMIT_PER_IP_PER_MINUTE: '0', IDENTIFY_RATE_LIMIT_PER_WEBSITE_PER_MINUTE: 'lots' })).toThrow(
      /IDENTIFY_RATE_LIMIT_PER_IP_PER_MINUTE: must be a whole number from 1 to 100000 \(got "0"\)[\s\S]*IDENTIFY_RATE_LIMIT_PER_WEBSITE_PER_MINUTE: must be a whole number from 1 to 10000000 \(got "lots"\)/,
    );
  });
});

describe('lead enrichment and webhooks', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

  it('is off by default, 60 calls a minute and 4 in flight, with webhooks on', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ ENRICHMENT_PROVIDER: 'off', ENRICHMENT_RATE_PER_MINUTE: 60, ENRICHMENT_CONCURRENCY: 4, WEBHOOKS: 'on' });
    expect([config.ENRICHMENT_URL, config.ENRICHMENT_SECRET, config.HUNTER_API_KEY]).toEqual([undefined, undefined, undefined]);
  });

  it('takes the http provider with its URL and a whsec_ secret, and Hunter with its key', () => {
    expect(loadConfig({ ENRICHMENT_PROVIDER: 'http', ENRICHMENT_URL: 'https://enrich.example.com/v1', ENRICHMENT_SECRET: secret })).toMatchObject({
      ENRICHMENT_PROVIDER: 'http',
      ENRICHMENT_URL: 'https://enrich.example.com/v1',
      ENRICHMENT_SECRET: secret,
    });
    expect(loadConfig({ ENRICHMENT_PROVIDER: 'hunter', HUNTER_API_KEY: 'a'.repeat(40), ENRICHMENT_RATE_PER_MINUTE: '500', WEBHOOKS: 'off' })).toMatchObject({
      ENRICHMENT_PROVIDER: 'hunter',
      ENRICHMENT_RATE_PER_MINUTE: 500,
      WEBHOOKS: 'off',
    });
  });

  it('asks for what the chosen provider needs', () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
      } catch (caught) {
        return (caught as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ ENRICHMENT_PROVIDER: 'http' })).toEqual([
      'ENRICHMENT_URL: must be set when ENRICHMENT_PROVIDER is http (got unset)',
      'ENRICHMENT_SECRET: must be set when ENRICHMENT_PROVIDER is http (got unset)',
    ]);
    expect(problems({ ENRICHMENT_PROVIDER: 'hunter' })).toEqual(['HUNTER_API_KEY: must be set when ENRICHMENT_PROVIDER is hunter (got unset)']);
    expect(problems({ ENRICHMENT_PROVIDER: 'clearbit', WEBHOOKS: 'yes', ENRICHMENT_RATE_PER_MINUTE: '0' })).toEqual([
      'ENRICHMENT_PROVIDER: must be off, http or hunter (got "clearbit")',
      'ENRICHMENT_RATE_PER_MINUTE: must be a whole number from 1 to 100000 (got "0")',
      'WEBHOOKS: must be on or off (got "yes")',
    ]);
  });

  it('refuses a secret, a key and a URL of the wrong form without echoing any of them', () => {
    const env = {
      ENRICHMENT_PROVIDER: 'http',
      ENRICHMENT_URL: 'ftp://user:pw-in-url@enrich.example.com',
      ENRICHMENT_SECRET: 'whsec_c2hvcnQtc2VjcmV0',
      HUNTER_API_KEY: 'key with spaces',
    };
    const error = (() => {
      try {
        loadConfig(env);
      } catch (caught) {
        return caught as ConfigError;
      }
      return undefined;
    })();
    expect(error?.problems).toEqual([
      'ENRICHMENT_URL: must start with http:// or https:// (got a value that was not accepted)',
      'ENRICHMENT_SECRET: must be whsec_ followed by the base64 of 24 to 64 random bytes (Standard Webhooks form) (got a value that was not accepted)',
      'HUNTER_API_KEY: must be the API key from your Hunter dashboard (16–128 letters and digits) (got a value that was not accepted)',
    ]);
    for (const value of Object.values(env).slice(1)) expect(error?.message).not.toContain(value);
    expect(error?.message).not.toContain('pw-in-url');
  });
});
