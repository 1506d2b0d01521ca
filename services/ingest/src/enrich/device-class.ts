// The visitor's device class from the user agent: what the consent-rate and analytics breakdowns
// group by. A few patterns cover the classes we report; exact models are not needed (or kept).
import type { DeviceClass } from '@consentry/events';

const botPattern = /bot\b|crawl|spider|slurp|headless|lighthouse|facebookexternalhit|bingpreview|python-requests|curl\/|wget\//i;
const tabletPattern = /ipad|tablet|kindle|silk\/|playbook|android(?!.*mobile)/i;
const mobilePattern = /mobi|iphone|ipod|android|windows phone|blackberry|opera mini|iemobile/i;

export function deviceClassOf(userAgent: string | undefined): DeviceClass {
  if (!userAgent) return 'unknown';
  if (botPattern.test(userAgent)) return 'bot';
  if (tabletPattern.test(userAgent)) return 'tablet';
  if (mobilePattern.test(userAgent)) return 'mobile';
  return 'desktop';
}
