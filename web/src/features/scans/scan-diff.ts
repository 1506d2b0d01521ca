// What changed between two completed scans of a website: findings are the same finding when their
// code and subject match (the message may name a different page count), items when their kind and
// name match (a cookie's domain or expiry may vary between visits). Pure, so the history can show it
// without asking the api for anything but the two reports.
import type { ScanFinding, ScannedItem } from './queries';

export interface ScanDiff {
  /** In the latest scan, not in the previous one (in the latest scan's order). */
  newFindings: ScanFinding[];
  /** In the previous scan, gone from the latest one. */
  resolvedFindings: ScanFinding[];
  newItems: ScannedItem[];
  goneItems: ScannedItem[];
}

interface ComparedScan {
  findings: readonly ScanFinding[];
  items: readonly ScannedItem[];
}

export const findingKey = (finding: Pick<ScanFinding, 'code' | 'subject'>): string => JSON.stringify([finding.code, finding.subject]);
export const itemKey = (item: Pick<ScannedItem, 'kind' | 'name'>): string => JSON.stringify([item.kind, item.name]);

/** The entries of `from` whose key `other` lacks, each key once. */
function missingFrom<T>(from: readonly T[], other: readonly T[], keyOf: (entry: T) => string): T[] {
  const otherKeys = new Set(other.map(keyOf));
  const seen = new Set<string>();
  return from.filter((entry) => {
    const key = keyOf(entry);
    if (otherKeys.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function diffScans(previous: ComparedScan, latest: ComparedScan): ScanDiff {
  return {
    newFindings: missingFrom(latest.findings, previous.findings, findingKey),
    resolvedFindings: missingFrom(previous.findings, latest.findings, findingKey),
    newItems: missingFrom(latest.items, previous.items, itemKey),
    goneItems: missingFrom(previous.items, latest.items, itemKey),
  };
}

export function isEmptyDiff(diff: ScanDiff): boolean {
  return diff.newFindings.length + diff.resolvedFindings.length + diff.newItems.length + diff.goneItems.length === 0;
}
