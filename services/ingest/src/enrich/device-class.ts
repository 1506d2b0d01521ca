// The visitor's device class from the user agent: what the consent-rate and analytics breakdowns
// group by. A few patterns cover the classes we report; exact models are not needed (or kept).
// Bots are clients that say they are crawlers or fetchers. A headless browser (HeadlessChrome) is
// a real browser engine that runs the banner and its buttons: it is classed by the platform it
// reports, like any browser (X11/Windows/macOS: desktop).
import type { DeviceClass } from '@consentry/events';

const botPattern = /bot\b|crawl|spider|slurp|lighthouse|facebookexternalhit|bingpreview|python-requests|curl\/|wget\//i;
const tabletPattern = /ipad|tablet|kindle|silk\/|playbook|android(?!.*mobile)/i;
const mobilePattern = /mobi|iphone|ipod|android|windows phone|blackberry|opera mini|iemobile/i;

export function deviceClassOf(userAgent: string | undefined): DeviceClass {
  if (!userAgent) return 'unknown';
  if (botPattern.test(userAgent)) return 'bot';
  if (tabletPattern.test(userAgent)) return 'tablet';
  if (mobilePattern.test(userAgent)) return 'mobile';
  return 'desktop';
}
