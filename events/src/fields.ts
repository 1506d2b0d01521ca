// Bounded field schemas shared by several event families. Each event schema is built from these, so a
// bound (an id's shape, a timestamp's length, an image's size) is decided once and enforced everywhere.
import { z } from 'zod';
import { bannerPositions, bannerThemes, maxPolicyVersionLength } from './contracts';

// The banner's choices are in the browser-safe contracts entry, which the web app offers them from.
export { bannerPositions, bannerThemes };

/** An id the system or the widget generated: an RFC 9562 UUID. */
export const uuid = z.uuid();

/** The widest UTC offset in use anywhere (UTC+14, Line Islands; UTC-12). */
export const maxUtcOffsetMinutes = 14 * 60;

const dateTimeParts = /^(\d{4})-\d{2}-\d{2}T[^Z+-]*(?:Z|([+-])(\d{2}):?(\d{2}))$/;

/**
 * Whether an ISO 8601 date-time names a real instant that every reader (Postgres `timestamptz`
 * included) can store: a calendar year 0001–9999 and an offset within ±14:00. Postgres refuses year
 * 0000 and offsets past ±15:59; accepting them once let one anonymous request wedge a read model.
 * `repairedInstant` uses the same rule for events already in a log.
 */
export function isStorableInstant(value: string): boolean {
  const parts = dateTimeParts.exec(value);
  if (!parts || !Number.isFinite(Date.parse(value))) return false;
  const year = Number(parts[1]);
  if (year < 1 || year > 9999) return false;
  if (parts[2] === undefined) return true;
  return Number(parts[3]) * 60 + Number(parts[4]) <= maxUtcOffsetMinutes && Number(parts[4]) < 60;
}

/**
 * An instant as an ISO 8601 date-time string (`2024-05-01T12:00:00.000Z`; an offset is allowed because
 * the visitor's clock reports one). The length bound stops unbounded fractional seconds; the
 * refinement keeps out what parses as a date-time but is no storable instant (isStorableInstant).
 */
export const isoDateTime = z.iso
  // abort: a string that is no date-time at all gets that one message, not also the range's.
  .datetime({ offset: true, abort: true })
  .max(40, { abort: true })
  .refine(isStorableInstant, { error: 'Expected a date-time in the years 0001 to 9999 with a UTC offset within ±14:00' });

/** A calendar day `YYYY-MM-DD` in the years 0001–9999 (what a date picker or a query string sends). */
export const isoDay = z.iso
  .date({ error: 'Expected a date as YYYY-MM-DD', abort: true })
  .refine((value) => value >= '0001-01-01', { error: 'Expected a date in the years 0001 to 9999' });

/**
 * For an event already in a log from before isoDateTime refused them: the instant to use when a
 * browser's date-time cannot be stored (the time the server received it, which is always one).
 */
export function repairedInstant(value: string, receivedAt: string): string {
  return isStorableInstant(value) ? value : receivedAt;
}

export const websiteId = uuid;
export const userId = uuid;

/** The widget's visitor id, kept in the visitor's first-party storage (a UUID today, opaque to us). */
export const visitorId = z.string().min(1).max(64);

/** The consent policy version a visitor saw; the owner names it (`1`, `2024-05`). */
export const policyVersion = z.string().min(1).max(maxPolicyVersionLength);

/** An email address as sent by a mail client: at most 254 characters (RFC 5321 path limit). */
export const emailAddress = z.email().max(254);

/** ISO 3166-1 alpha-2 country code, e.g. `DE`. */
export const countryCode = z.string().regex(/^[A-Z]{2}$/, { error: 'Expected an ISO 3166-1 alpha-2 country code' });

/** A textual IPv4 or IPv6 address (at most 45 characters, the longest IPv4-mapped IPv6 form). */
export const ipAddress = z.union([z.ipv4(), z.ipv6().max(45)], { error: 'Invalid IP address' });

export const deviceClasses = ['mobile', 'tablet', 'desktop', 'bot', 'unknown'] as const;
export const deviceClass = z.enum(deviceClasses);
export type DeviceClass = z.infer<typeof deviceClass>;

export const bannerPosition = z.enum(bannerPositions);
export type BannerPosition = z.infer<typeof bannerPosition>;

export const bannerTheme = z.enum(bannerThemes);
export type BannerTheme = z.infer<typeof bannerTheme>;

/** Tiers of spec section 3: the four plans plus the three the user-management filter also lists. */
export const subscriptionTiers = ['free', 'basic', 'pro', 'business', 'starter', 'professional', 'enterprise'] as const;
export const subscriptionTier = z.enum(subscriptionTiers);
export type SubscriptionTier = z.infer<typeof subscriptionTier>;

export const maxWebsites = z.int().min(0).max(10_000);
export const maxConsentsPerMonth = z.int().min(0).max(1_000_000_000);

/** Who made an owner-side change: a user id or an admin's username. */
export const actor = z.string().min(1).max(100);

/** A name shown to people: 1..max characters and not only whitespace. */
export function displayText(max: number) {
  return z
    .string()
    .min(1, { abort: true })
    .max(max)
    .refine((text) => text.trim().length > 0, { error: 'Must not be blank' });
}

/** An absolute http(s) URL of at most 2048 characters; other schemes (javascript:, data:) are refused. */
export const webUrl = z
  .string()
  .max(2048, { abort: true })
  // The custom message is set on the piped URL schema only: on z.url() itself it would also replace
  // the length message.
  .pipe(z.url({ protocol: /^https?$/, error: 'Expected an http or https URL' }));

export const imageMimeTypes = ['png', 'jpeg', 'gif', 'webp', 'svg+xml'] as const;
const imageDataUrlHeader = /^data:image\/(?:png|jpeg|gif|webp|svg\+xml);base64,/;
// A flat character class, not a repeated group: V8 backtracks through a repeated group on its stack,
// which overflows on multi-megabyte images. Whole 4-character groups are checked by length instead.
const base64Payload = /^[A-Za-z0-9+/]*={0,2}$/;
const longestImageDataUrlHeader = 'data:image/svg+xml;base64,'.length;

/** Characters a data URL needs to carry `maxBytes` decoded bytes in the longest allowed header. */
export function maxImageDataUrlLength(maxBytes: number): number {
  return Math.ceil(maxBytes / 3) * 4 + longestImageDataUrlHeader;
}

/**
 * An image as a base64 data URL (`data:image/png;base64,...`) of at most `maxBytes` decoded bytes.
 * The string length is bounded first (and aborts), so an oversized value is never scanned by the
 * format check; the exact decoded size is then checked, because base64 rounds up to whole groups.
 */
export function imageDataUrl(maxBytes: number) {
  const sizeLabel = formatBytes(maxBytes);
  return z
    .string()
    .max(maxImageDataUrlLength(maxBytes), { abort: true, error: `Image must be at most ${sizeLabel}` })
    .check((ctx) => {
      const value = ctx.value;
      const header = imageDataUrlHeader.exec(value);
      const payload = header == null ? '' : value.slice(header[0].length);
      if (header == null || payload.length === 0 || payload.length % 4 !== 0 || !base64Payload.test(payload)) {
        ctx.issues.push({
          code: 'custom',
          input: value,
          message: `Expected a base64 image data URL (data:image/{${imageMimeTypes.join('|')}};base64,...)`,
        });
        return;
      }
      if (decodedBase64Length(payload) > maxBytes) {
        ctx.issues.push({ code: 'custom', input: value, message: `Image must be at most ${sizeLabel}` });
      }
    });
}

function decodedBase64Length(payload: string): number {
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  return (payload.length / 4) * 3 - padding;
}

function formatBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return Number.isInteger(mebibytes) ? `${mebibytes} MB` : `${bytes} bytes`;
}
