// The branding stream family: the company name, colour and logo shown in the app, the public site
// and the consent banner. Each owner has a branding of their own (shown on their websites' banners);
// the installation's branding (ownerId null, edited by admins) is shown on the public site.
import { z } from 'zod';
import { defineEvent, type EventOf } from './definition';
import { actor, displayText, imageDataUrl, isoDateTime, userId } from './fields';

/** Spec section 5: logo files are at most 2 MB. */
export const maxLogoBytes = 2 * 1024 * 1024;

export const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'Expected a colour as #rrggbb' });

/** The branding an owner edits; the event adds who changed it and when. */
export const BrandingSettings = z.strictObject({
  companyName: displayText(100),
  primaryColor: hexColor,
  /** An image data URL of at most 2 MB decoded, or null for none. */
  logoUrl: imageDataUrl(maxLogoBytes).nullable(),
});
export type BrandingSettings = z.infer<typeof BrandingSettings>;

/** What is shown before any BrandingChanged (spec section 3). */
export const defaultBranding: BrandingSettings = Object.freeze({
  companyName: 'Consentry',
  primaryColor: '#2563eb',
  logoUrl: null,
});

export const BrandingChangedData = BrandingSettings.extend({
  /** The owner whose branding this is; null for the installation's own (the public site). */
  ownerId: userId.nullable(),
  changedBy: actor,
  changedAt: isoDateTime,
});
export type BrandingChangedData = z.infer<typeof BrandingChangedData>;
export const BrandingChanged = defineEvent({
  type: 'BrandingChanged',
  version: 1,
  category: 'branding',
  schema: BrandingChangedData,
});
export type BrandingChanged = EventOf<typeof BrandingChanged>;

export type BrandingEvent = BrandingChanged;
export const brandingEventTypes = ['BrandingChanged'] as const satisfies readonly BrandingEvent['type'][];

/** The branding stream of an owner, or of the installation when `ownerId` is null. */
export function brandingStreamId(ownerId: string | null): string {
  return ownerId === null ? 'branding-installation' : `branding-${ownerId}`;
}
