// Which third-party hosts are known trackers, by the Open Cookie Database's Domain column: a host
// (or a parent domain of it) whose entries are mostly analytics or marketing cookies is a tracker,
// so a page contacting it before consent is a finding even when the host stores nothing itself.
import { readCookieDatabase, type CookieDatabaseEntry, type CookiePurpose } from './cookie-database';
import { hostsOfDomainField, normalizeHost, purposeOfCategory } from './cookie-database/classify';

export interface HostClassification {
  /** The purpose most of the host's entries serve; marketing before analytics on a tie. */
  purpose: CookiePurpose;
  platform: string | null;
  controller: string | null;
}

export type HostClassifier = (host: string) => HostClassification | null;

interface HostTally {
  byPurpose: Record<CookiePurpose, number>;
  /** Tracking entries' platforms and controllers, to name the most common. */
  platforms: Map<string, number>;
  controllers: Map<string, number>;
}

function mostCommon(counts: Map<string, number>): string | null {
  let best: [string, number] | null = null;
  for (const entry of counts) {
    if (best == null || entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0])) best = entry;
  }
  return best?.[0] ?? null;
}

const isTracking = (purpose: CookiePurpose): boolean => purpose === 'analytics' || purpose === 'marketing';

export function createHostClassifier(entries: readonly CookieDatabaseEntry[]): HostClassifier {
  const tallies = new Map<string, HostTally>();
  for (const entry of entries) {
    const purpose = purposeOfCategory[entry.category];
    for (const host of hostsOfDomainField(entry.domain)) {
      let tally = tallies.get(host);
      if (!tally) {
        tally = { byPurpose: { necessary: 0, preferences: 0, analytics: 0, marketing: 0 }, platforms: new Map(), controllers: new Map() };
        tallies.set(host, tally);
      }
      tally.byPurpose[purpose]++;
      if (isTracking(purpose)) {
        if (entry.platform) tally.platforms.set(entry.platform, (tally.platforms.get(entry.platform) ?? 0) + 1);
        if (entry.controller) tally.controllers.set(entry.controller, (tally.controllers.get(entry.controller) ?? 0) + 1);
      }
    }
  }

  return (rawHost) => {
    let host = normalizeHost(rawHost);
    // The host itself, then each parent domain with at least two labels: region1.google-analytics.com → google-analytics.com.
    while (host != null && host.includes('.')) {
      const tally = tallies.get(host);
      if (tally) {
        const { necessary, preferences, analytics, marketing } = tally.byPurpose;
        const tracking = analytics + marketing;
        if (tracking > 0 && tracking >= necessary + preferences) {
          return { purpose: marketing >= analytics ? 'marketing' : 'analytics', platform: mostCommon(tally.platforms), controller: mostCommon(tally.controllers) };
        }
        return { purpose: preferences > necessary ? 'preferences' : 'necessary', platform: null, controller: null };
      }
      host = host.slice(host.indexOf('.') + 1);
    }
    return null;
  };
}

let defaultHostClassifier: HostClassifier | undefined;

/** Over the checked-in database, read on first use (not at import). */
export function getDefaultHostClassifier(): HostClassifier {
  defaultHostClassifier ??= createHostClassifier(readCookieDatabase().entries);
  return defaultHostClassifier;
}
