// The services the preference centre lists: those the owner declared, then what the latest cookie scan
// found under each purpose and no declared service names, grouped by the platform that sets it. So the
// list stays in step with the site without the owner typing every cookie in.
import type { OptionalPurpose, PurposeService, ScannedItem } from '@consentry/events';

const listedPurposes: ReadonlySet<string> = new Set<OptionalPurpose>(['preferences', 'analytics', 'marketing']);
const maxServices = 200;
const maxCookiesPerService = 50;

export function servicesWithDetected(declared: readonly PurposeService[], items: readonly ScannedItem[]): PurposeService[] {
  const named = new Set(declared.flatMap((service) => service.cookies));
  const groups = new Map<string, { purpose: OptionalPurpose; name: string; description: string; cookies: Set<string> }>();
  for (const item of items) {
    if (item.purpose === null || !listedPurposes.has(item.purpose) || named.has(item.name)) continue;
    const purpose = item.purpose as OptionalPurpose;
    const name = item.platform ?? item.controller ?? 'Other services';
    const key = `${purpose}\u0000${name}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { purpose, name: name.slice(0, 100), description: (item.controller ?? '').slice(0, 300), cookies: new Set() }));
    group.cookies.add(item.name.slice(0, 100));
  }
  const detected = [...groups.values()]
    .sort((a, b) => a.purpose.localeCompare(b.purpose) || a.name.localeCompare(b.name))
    .map((group) => ({ purpose: group.purpose, name: group.name, description: group.description, cookies: [...group.cookies].sort().slice(0, maxCookiesPerService) }));
  return [...declared, ...detected].slice(0, maxServices);
}
