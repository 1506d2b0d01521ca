// Words and styles for a scan's enums and values, as the Cookie scan tab shows them.
import { formatDate } from '../../lib/format';
import type { FindingCode, FindingSeverity, ScanStatus, ScannedPurpose, StorageKind } from './queries';

export const scannedPurposeLabels: Record<ScannedPurpose, string> = {
  necessary: 'Necessary',
  preferences: 'Preferences',
  analytics: 'Analytics',
  marketing: 'Marketing',
};

export const unclassifiedLabel = 'Unclassified';

export const storageKindLabels: Record<StorageKind, string> = {
  cookie: 'Cookie',
  localStorage: 'localStorage',
  sessionStorage: 'sessionStorage',
};

export const findingSeverityLabels: Record<FindingSeverity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

/** The recommendation severities' colours, so a critical finding looks as serious as a critical recommendation. */
export const findingSeverityClasses: Record<FindingSeverity, string> = {
  critical: 'border-transparent bg-red-600 text-white',
  high: 'border-transparent bg-orange-100 text-orange-800',
  medium: 'border-transparent bg-yellow-100 text-yellow-800',
  low: 'border-transparent bg-secondary text-secondary-foreground',
};

export const findingCodeLabels: Record<FindingCode, string> = {
  set_before_consent: 'Set before consent',
  set_after_reject: 'Set after Reject All',
  banner_missing: 'Banner missing',
  declared_not_seen: 'Declared but not seen',
  seen_not_declared: 'Seen but not declared',
};

export const scanStatusLabels: Record<ScanStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
};

export const scanStatusVariants: Record<ScanStatus, 'secondary' | 'warning' | 'success' | 'destructive'> = {
  queued: 'secondary',
  running: 'warning',
  completed: 'success',
  failed: 'destructive',
};

const isoDateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** The database's retention as written, a cookie's own expiry as a date, 'session' as Session; — when unknown. */
export function formatRetention(retention: string | null): string {
  if (!retention) return '—';
  if (retention === 'session') return 'Session';
  if (isoDateTimePattern.test(retention)) return `Until ${formatDate(retention)}`;
  return retention;
}

/** A page's host and path (`www.example.com`, `/menu?page=2`); anything unparsable is all path. */
export function splitPageUrl(url: string): { host: string | null; path: string } {
  try {
    const parsed = new URL(url);
    return { host: parsed.host, path: `${parsed.pathname}${parsed.search}` };
  } catch {
    return { host: null, path: url };
  }
}

/** Who provides an item: its platform and, when it says more, the company behind it. */
export function formatProvider(platform: string | null, controller: string | null): string {
  if (platform && controller && !platform.toLowerCase().includes(controller.toLowerCase())) return `${platform} (${controller})`;
  return platform ?? controller ?? '—';
}
