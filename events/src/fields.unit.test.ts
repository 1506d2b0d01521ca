import { describe, expect, it } from 'vitest';
import {
  countryCode,
  displayText,
  imageDataUrl,
  ipAddress,
  isoDateTime,
  isoDay,
  isStorableInstant,
  maxImageDataUrlLength,
  repairedInstant,
  uuid,
  webUrl,
} from './fields';
import { base64OfBytes, failuresOf, imageDataUrlOfBytes } from './test-helpers';

const twoMegabytes = 2 * 1024 * 1024;
const logo = imageDataUrl(twoMegabytes);

describe('an image data URL bounded to 2 MB', () => {
  it.each(['png', 'jpeg', 'gif', 'webp', 'svg+xml'])('accepts a small %s image', (mimeType) => {
    expect(failuresOf(logo, imageDataUrlOfBytes(100, mimeType))).toEqual([]);
  });

  it('accepts exactly 2 MB of decoded bytes', () => {
    expect(failuresOf(logo, imageDataUrlOfBytes(twoMegabytes))).toEqual([]);
  });

  it('refuses one byte more than 2 MB even though the string fits the length bound', () => {
    const oneByteTooMany = imageDataUrlOfBytes(twoMegabytes + 1);
    expect(oneByteTooMany.length).toBeLessThanOrEqual(maxImageDataUrlLength(twoMegabytes));
    expect(failuresOf(logo, oneByteTooMany)).toEqual([{ path: '', message: 'Image must be at most 2 MB' }]);
  });

  it('refuses a string longer than the length bound with a single issue', () => {
    const huge = `data:image/png;base64,${'AAAA'.repeat(1_000_000)}`;
    expect(failuresOf(logo, huge)).toEqual([{ path: '', message: 'Image must be at most 2 MB' }]);
  });

  it('checks a 20 MB image without overflowing the stack', () => {
    const twentyMegabytes = 20 * 1024 * 1024;
    expect(failuresOf(imageDataUrl(twentyMegabytes), imageDataUrlOfBytes(twentyMegabytes))).toEqual([]);
  });

  it('bounds the string to ceil(bytes / 3) * 4 plus the longest header', () => {
    expect(maxImageDataUrlLength(twoMegabytes)).toBe(
      Math.ceil(twoMegabytes / 3) * 4 + 'data:image/svg+xml;base64,'.length,
    );
  });

  it.each([
    ['a non-image data URL', `data:text/html;base64,${base64OfBytes(30)}`],
    ['an image type outside the list', `data:image/bmp;base64,${base64OfBytes(30)}`],
    ['a data URL without base64', 'data:image/svg+xml,<svg></svg>'],
    ['an http URL', 'https://example.com/logo.png'],
    ['an empty payload', 'data:image/png;base64,'],
    ['a payload that is not base64', 'data:image/png;base64,AB$D'],
    ['a payload with a broken length', 'data:image/png;base64,AAAAA'],
    ['padding in the middle', 'data:image/png;base64,AA==AAAA'],
  ])('refuses %s', (_label, value) => {
    const failures = failuresOf(logo, value);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.message).toMatch(/^Expected a base64 image data URL/);
  });
});

describe('an IP address', () => {
  it.each(['203.0.113.7', '2001:db8::1', '::ffff:192.0.2.1', '2001:db8::'])('accepts %s', (value) => {
    expect(failuresOf(ipAddress, value)).toEqual([]);
  });

  it.each(['256.1.1.1', 'example.com', '', '1'.repeat(46), '2001:db8::1%eth0'])('refuses %j', (value) => {
    expect(failuresOf(ipAddress, value)).toEqual([{ path: '', message: 'Invalid IP address' }]);
  });
});

describe('an ISO date-time', () => {
  it.each(['2024-05-01T10:00:00Z', '2024-05-01T10:00:00.123Z', '2024-05-01T12:00:00+02:00'])('accepts %s', (value) => {
    expect(failuresOf(isoDateTime, value)).toEqual([]);
  });

  it.each(['2024-05-01', 'yesterday', '1714557600000', `2024-05-01T10:00:00.${'1'.repeat(40)}Z`])(
    'refuses %s',
    (value) => {
      expect(failuresOf(isoDateTime, value)).not.toEqual([]);
    },
  );
});

describe('a country code', () => {
  it('accepts two uppercase letters', () => {
    expect(failuresOf(countryCode, 'DE')).toEqual([]);
  });

  it.each(['de', 'DEU', 'D', 'D1'])('refuses %s', (value) => {
    expect(failuresOf(countryCode, value)).toEqual([
      { path: '', message: 'Expected an ISO 3166-1 alpha-2 country code' },
    ]);
  });
});

describe('a display text of at most 10 characters', () => {
  const name = displayText(10);

  it('refuses empty, blank and too long text', () => {
    expect(failuresOf(name, '')).toEqual([{ path: '', message: 'Too small: expected string to have >=1 characters' }]);
    expect(failuresOf(name, '   ')).toEqual([{ path: '', message: 'Must not be blank' }]);
    expect(failuresOf(name, 'a'.repeat(11))).toEqual([
      { path: '', message: 'Too big: expected string to have <=10 characters' },
    ]);
  });
});

describe('a web URL', () => {
  it('accepts http and https', () => {
    expect(failuresOf(webUrl, 'https://example.com/privacy')).toEqual([]);
    expect(failuresOf(webUrl, 'http://localhost:3000/privacy')).toEqual([]);
  });

  it.each(['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com/x', 'example.com/privacy'])(
    'refuses %s',
    (value) => {
      expect(failuresOf(webUrl, value)).toEqual([{ path: '', message: 'Expected an http or https URL' }]);
    },
  );

  it('refuses more than 2048 characters', () => {
    expect(failuresOf(webUrl, `https://example.com/${'a'.repeat(2029)}`)).toEqual([
      { path: '', message: 'Too big: expected string to have <=2048 characters' },
    ]);
  });
});

describe('a uuid', () => {
  it('refuses a string that is not a UUID', () => {
    expect(failuresOf(uuid, 'not-a-uuid')).toEqual([{ path: '', message: 'Invalid UUID' }]);
  });
});

describe('an instant from a browser or an api caller', () => {
  it.each(['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2026-05-01T12:00:00+14:00', '2026-05-01T12:00:00-12:00', '2026-05-01T12:00:00.123456-14:00'])(
    'accepts %s',
    (value) => {
      expect(failuresOf(isoDateTime, value)).toEqual([]);
      expect(isStorableInstant(value)).toBe(true);
    },
  );

  it.each(['0000-01-01T00:00:00Z', '2026-05-01T12:00:00+16:00', '2026-05-01T12:00:00+23:59', '2026-05-01T12:00:00+14:01', '2026-05-01T12:00:00-15:00'])(
    'refuses %s, which Postgres cannot store or no place on Earth uses',
    (value) => {
      expect(failuresOf(isoDateTime, value)).toEqual([
        { path: '', message: 'Expected a date-time in the years 0001 to 9999 with a UTC offset within ±14:00' },
      ]);
      expect(isStorableInstant(value)).toBe(false);
    },
  );

  it('repairs an unstorable instant already in a log to the receive time, and keeps a good one', () => {
    expect(repairedInstant('0000-01-01T00:00:00Z', '2026-05-01T12:00:00.000Z')).toBe('2026-05-01T12:00:00.000Z');
    expect(repairedInstant('2026-05-01T12:00:00+23:59', '2026-05-01T12:00:00.000Z')).toBe('2026-05-01T12:00:00.000Z');
    expect(repairedInstant('2026-04-30T08:00:00+02:00', '2026-05-01T12:00:00.000Z')).toBe('2026-04-30T08:00:00+02:00');
  });
});

describe('a calendar day', () => {
  it('accepts 0001-01-01 to 9999-12-31 and refuses year 0000', () => {
    expect(failuresOf(isoDay, '0001-01-01')).toEqual([]);
    expect(failuresOf(isoDay, '9999-12-31')).toEqual([]);
    expect(failuresOf(isoDay, '0000-01-01')).toEqual([{ path: '', message: 'Expected a date in the years 0001 to 9999' }]);
    expect(failuresOf(isoDay, '2026-13-01')).toEqual([{ path: '', message: 'Expected a date as YYYY-MM-DD' }]);
  });
});
