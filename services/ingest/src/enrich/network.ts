// Which network a visitor's address belongs to, and whether that network is a company's (B2B lead
// identification, docs/network-company-rule.md). The address is looked up offline in the IP-to-ASN
// database shipped through npm (@ip-location-db/asn: RouteViews, the five RIRs' statistics via the
// NRO, and DB-IP's IP to ASN Lite, all CC BY 4.0 — "IP Geolocation by DB-IP", routeviews.org,
// nro.net must be credited wherever the organisation is shown). Nothing is sent anywhere.
//
// The numeric CSVs are read on first use, one address family at a time, into sorted typed arrays
// (IPv4 as uint32; IPv6 as two uint64 halves) and searched by bisection. Reading yields to the event
// loop every few thousand rows: the consent path shares this process and must not stall behind it.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';
import { expandIpv6, normaliseIp } from './ip-address';

/** Credit the database's sources wherever a network's organisation is shown (CC BY 4.0). */
export const networkDataAttribution =
  'IP to ASN data by RouteViews (routeviews.org), the NRO (nro.net) and DB-IP (IP Geolocation by DB-IP, db-ip.com), CC BY 4.0';

export interface NetworkOwner {
  /** The autonomous system number. */
  readonly asn: number;
  /** The autonomous system's organisation as the database names it ("Deutsche Telekom AG"). */
  readonly organisation: string;
}

export interface NetworkLookup {
  /** The network an address belongs to; null for an unknown, private or malformed address. */
  lookup(ip: string | null): Promise<NetworkOwner | null>;
}

interface Ipv4Table {
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly asns: Uint32Array;
  readonly organisations: Uint32Array;
  readonly names: readonly string[];
}

interface Ipv6Table {
  readonly startHigh: BigUint64Array;
  readonly startLow: BigUint64Array;
  readonly endHigh: BigUint64Array;
  readonly endLow: BigUint64Array;
  readonly asns: Uint32Array;
  readonly organisations: Uint32Array;
  readonly names: readonly string[];
}

/** What a CSV row says, before it goes into the arrays. */
export interface AsnRow {
  readonly start: string;
  readonly end: string;
  readonly asn: number;
  readonly organisation: string;
}

const rowsPerSlice = 20_000;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const mask64 = (1n << 64n) - 1n;

/** The directory of the shipped database. */
export function asnDatabaseDirectory(): string {
  return path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/asn/package.json'));
}

/**
 * Each row of an `-num` CSV of @ip-location-db: `start,end,asn,organisation`, the organisation quoted
 * (with `""` for a quote) when it holds a comma or a quote. Rows that do not parse are skipped.
 */
export async function forEachAsnRow(text: string, visit: (row: AsnRow) => void): Promise<void> {
  let position = 0;
  let rows = 0;
  while (position < text.length) {
    let lineEnd = text.indexOf('\n', position);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.charCodeAt(lineEnd - 1) === 13 ? text.slice(position, lineEnd - 1) : text.slice(position, lineEnd);
    position = lineEnd + 1;
    const first = line.indexOf(',');
    const second = line.indexOf(',', first + 1);
    const third = line.indexOf(',', second + 1);
    if (first <= 0 || second <= first + 1 || third <= second + 1) continue;
    const asn = Number(line.slice(second + 1, third));
    if (!Number.isInteger(asn) || asn < 0 || asn > 4_294_967_295) continue;
    let organisation = line.slice(third + 1);
    if (organisation.startsWith('"') && organisation.endsWith('"') && organisation.length >= 2) {
      organisation = organisation.slice(1, -1).replaceAll('""', '"');
    }
    visit({ start: line.slice(0, first), end: line.slice(first + 1, second), asn, organisation: organisation.trim() });
    if (++rows % rowsPerSlice === 0) await yieldToEventLoop();
  }
}

/** Organisation names are shared by many rows: each is kept once. */
function createNameTable() {
  const names: string[] = [];
  const indexes = new Map<string, number>();
  return {
    names,
    indexOf(name: string): number {
      let index = indexes.get(name);
      if (index === undefined) {
        index = names.length;
        // A copy: a slice would keep the whole file's text alive for as long as the table lives.
        names.push(Buffer.from(name, 'utf8').toString('utf8'));
        indexes.set(name, index);
      }
      return index;
    },
  };
}

/** Row order by start; the shipped files are sorted, but a future file need not be. */
function sortedOrder(count: number, compare: (a: number, b: number) => number): Uint32Array | null {
  for (let index = 1; index < count; index++) {
    if (compare(index - 1, index) > 0) {
      const order = Uint32Array.from({ length: count }, (_, row) => row);
      return order.sort(compare);
    }
  }
  return null;
}

function reorder<T extends Uint32Array | BigUint64Array>(values: T, order: Uint32Array | null): T {
  if (!order) return values;
  const sorted = values.slice() as T;
  for (let index = 0; index < order.length; index++) sorted[index] = values[order[index]!]!;
  return sorted;
}

export async function parseIpv4Table(text: string): Promise<Ipv4Table> {
  const starts: number[] = [];
  const ends: number[] = [];
  const asns: number[] = [];
  const organisations: number[] = [];
  const names = createNameTable();
  await forEachAsnRow(text, (row) => {
    const start = Number(row.start);
    const end = Number(row.end);
    if (!(start >= 0 && end >= start && end <= 0xffff_ffff)) return;
    starts.push(start);
    ends.push(end);
    asns.push(row.asn);
    organisations.push(names.indexOf(row.organisation));
  });
  const order = sortedOrder(starts.length, (a, b) => starts[a]! - starts[b]!);
  return {
    starts: reorder(Uint32Array.from(starts), order),
    ends: reorder(Uint32Array.from(ends), order),
    asns: reorder(Uint32Array.from(asns), order),
    organisations: reorder(Uint32Array.from(organisations), order),
    names: names.names,
  };
}

export async function parseIpv6Table(text: string): Promise<Ipv6Table> {
  const starts: bigint[] = [];
  const ends: bigint[] = [];
  const asns: number[] = [];
  const organisations: number[] = [];
  const names = createNameTable();
  await forEachAsnRow(text, (row) => {
    let start: bigint;
    let end: bigint;
    try {
      start = BigInt(row.start);
      end = BigInt(row.end);
    } catch {
      return;
    }
    if (start < 0n || end < start || end >> 128n !== 0n) return;
    starts.push(start);
    ends.push(end);
    asns.push(row.asn);
    organisations.push(names.indexOf(row.organisation));
  });
  const count = starts.length;
  const order = sortedOrder(count, (a, b) => (starts[a]! < starts[b]! ? -1 : starts[a]! > starts[b]! ? 1 : 0));
  const halves = (values: bigint[], shift: bigint) => BigUint64Array.from(values, (value) => (value >> shift) & mask64);
  return {
    startHigh: reorder(halves(starts, 64n), order),
    startLow: reorder(halves(starts, 0n), order),
    endHigh: reorder(halves(ends, 64n), order),
    endLow: reorder(halves(ends, 0n), order),
    asns: reorder(Uint32Array.from(asns), order),
    organisations: reorder(Uint32Array.from(organisations), order),
    names: names.names,
  };
}

/** A dotted IPv4 address as an unsigned 32-bit number. */
export function ipv4ToNumber(ip: string): number {
  const parts = ip.split('.');
  return ((Number(parts[0]) << 24) >>> 0) + (Number(parts[1]) << 16) + (Number(parts[2]) << 8) + Number(parts[3]);
}

/** An IPv6 address as a 128-bit number. */
export function ipv6ToBigInt(ip: string): bigint {
  return expandIpv6(ip).reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

/** The text form of a 128-bit number (uncompressed groups): what tests pick addresses with. */
export function bigIntToIpv6(value: bigint): string {
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
  return groups.join(':');
}

/** A range that nests inside an earlier one hides it from bisection; look back a few rows for it. */
const overlapLookBack = 8;

export function findIpv4(table: Ipv4Table, ip: number): NetworkOwner | null {
  let low = 0;
  let high = table.starts.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (table.starts[middle]! <= ip) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  for (let index = found; index >= 0 && index > found - overlapLookBack; index--) {
    if (table.starts[index]! <= ip && ip <= table.ends[index]!) {
      return { asn: table.asns[index]!, organisation: table.names[table.organisations[index]!]! };
    }
  }
  return null;
}

function compare128(aHigh: bigint, aLow: bigint, bHigh: bigint, bLow: bigint): number {
  if (aHigh !== bHigh) return aHigh < bHigh ? -1 : 1;
  return aLow === bLow ? 0 : aLow < bLow ? -1 : 1;
}

export function findIpv6(table: Ipv6Table, ip: bigint): NetworkOwner | null {
  const high = (ip >> 64n) & mask64;
  const low = ip & mask64;
  let first = 0;
  let last = table.startHigh.length - 1;
  let found = -1;
  while (first <= last) {
    const middle = (first + last) >>> 1;
    if (compare128(table.startHigh[middle]!, table.startLow[middle]!, high, low) <= 0) {
      found = middle;
      first = middle + 1;
    } else {
      last = middle - 1;
    }
  }
  for (let index = found; index >= 0 && index > found - overlapLookBack; index--) {
    if (
      compare128(table.startHigh[index]!, table.startLow[index]!, high, low) <= 0 &&
      compare128(high, low, table.endHigh[index]!, table.endLow[index]!) <= 0
    ) {
      return { asn: table.asns[index]!, organisation: table.names[table.organisations[index]!]! };
    }
  }
  return null;
}

/** The offline lookup; each family's table is read the first time an address of that family comes. */
export function createNetworkLookup(options: { directory?: string } = {}): NetworkLookup {
  const directory = options.directory ?? asnDatabaseDirectory();
  let ipv4: Promise<Ipv4Table> | undefined;
  let ipv6: Promise<Ipv6Table> | undefined;
  // A failed read is not remembered: the next lookup tries again.
  const loadIpv4 = () =>
    (ipv4 ??= readFile(path.join(directory, 'asn-ipv4-num.csv'), 'utf8')
      .then(parseIpv4Table)
      .catch((error: unknown) => {
        ipv4 = undefined;
        throw error;
      }));
  const loadIpv6 = () =>
    (ipv6 ??= readFile(path.join(directory, 'asn-ipv6-num.csv'), 'utf8')
      .then(parseIpv6Table)
      .catch((error: unknown) => {
        ipv6 = undefined;
        throw error;
      }));
  return {
    async lookup(address) {
      // An IPv4 address written as IPv6 (::ffff:1.2.3.4) is looked up as IPv4.
      const ip = normaliseIp(address ?? undefined);
      if (!ip) return null;
      if (isIPv4(ip)) return findIpv4(await loadIpv4(), ipv4ToNumber(ip));
      if (isIPv6(ip)) return findIpv6(await loadIpv6(), ipv6ToBigInt(ip));
      return null;
    },
  };
}

// ── Is the network a company's? (docs/network-company-rule.md) ─────────────────────────────────────

/** What kind of network an address belongs to; only `business` is taken as the visitor's company. */
export const networkKinds = ['business', 'access', 'hosting', 'mobile', 'vpn', 'education', 'government', 'unknown'] as const;
export type NetworkKind = (typeof networkKinds)[number];

export interface NetworkClassification {
  readonly kind: NetworkKind;
  /** Which rule decided, for the operator and the tests. */
  readonly reason: string;
}

/**
 * Networks whose kind is known by number: their organisation names say too little ("Google LLC",
 * "Verizon Business", "31173 Services AB") or suggest a company that they are not.
 */
export const knownNetworks: ReadonlyMap<number, { readonly kind: Exclude<NetworkKind, 'business' | 'unknown'>; readonly name: string }> = new Map(
  (
    [
      // Clouds, hosting, CDNs and transit carriers: a visitor from here is a server, a crawler or a relay.
      ['hosting', 'Amazon', [16509, 14618, 8987]],
      ['hosting', 'Google', [15169, 19527, 396982]],
      ['hosting', 'Microsoft (Azure and services)', [8075]],
      ['hosting', 'Cloudflare', [13335]],
      ['hosting', 'OVH', [16276]],
      ['hosting', 'Hetzner', [24940]],
      ['hosting', 'DigitalOcean', [14061]],
      ['hosting', 'Akamai / Linode', [20940, 63949]],
      ['hosting', 'Vultr (The Constant Company)', [20473]],
      ['hosting', 'LeaseWeb', [60781, 16265]],
      ['hosting', 'Contabo', [51167]],
      ['hosting', 'Scaleway', [12876]],
      ['hosting', 'Oracle Cloud', [31898]],
      ['hosting', 'Alibaba Cloud', [45102]],
      ['hosting', 'Tencent Cloud', [132203]],
      ['hosting', 'Fastly', [54113]],
      ['hosting', 'IBM Cloud', [36351]],
      ['hosting', 'Unified Layer', [46606]],
      ['hosting', 'GoDaddy', [26496]],
      ['hosting', 'IONOS', [8560]],
      ['hosting', 'netcup', [197540]],
      ['hosting', 'QuadraNet', [8100]],
      ['hosting', 'Hurricane Electric', [6939]],
      ['hosting', 'Datacamp (CDN77)', [60068, 212238]],
      ['hosting', 'Incapsula', [19551]],
      ['hosting', 'IP Volume', [202425]],
      ['hosting', 'FranTech', [53667]],
      // Access providers (home and office lines) and backbones.
      ['access', 'Comcast', [7922]],
      ['access', 'Deutsche Telekom', [3320]],
      ['access', 'Vodafone', [3209, 1273, 12430, 33915]],
      ['access', 'AT&T', [7018]],
      ['access', 'Verizon', [701]],
      ['access', 'Charter (Spectrum)', [20115, 10796, 11351, 11426, 11427, 12271, 33363]],
      ['access', 'Cox', [22773]],
      ['access', 'Virgin Media', [5089]],
      ['access', 'BT', [2856]],
      ['access', 'Sky', [5607]],
      ['access', 'Orange', [3215]],
      ['access', 'Free', [12322]],
      ['access', 'Bouygues Telecom', [5410]],
      ['access', 'SFR', [15557]],
      ['access', 'Telefónica', [3352, 6805]],
      ['access', 'Telecom Italia', [3269]],
      ['access', 'KPN', [1136]],
      ['access', 'Swisscom', [3303]],
      ['access', 'Liberty Global', [6830]],
      ['access', '1&1 Versatel', [8881]],
      ['access', 'Lumen (CenturyLink, Level 3)', [209, 3356]],
      ['access', 'Cogent', [174]],
      ['access', 'Arelion', [1299]],
      ['access', 'NTT', [2914, 4713]],
      ['access', 'Zayo', [6461]],
      ['access', 'RETN', [9002]],
      ['access', 'Colt', [8220]],
      ['access', 'Chinanet', [4134]],
      ['access', 'China Unicom', [4837]],
      ['access', 'Korea Telecom', [4766]],
      ['access', 'Rogers', [812]],
      ['access', 'Bell Canada', [577]],
      ['access', 'Telstra', [1221]],
      ['access', 'KDDI', [2516]],
      ['access', 'SoftBank', [17676]],
      ['access', 'Telmex (Uninet)', [8151]],
      ['access', 'Claro', [28573]],
      ['access', 'Google Fiber', [16591]],
      ['access', 'Cablevision (Optimum)', [6128]],
      ['access', 'Telenor', [2119]],
      ['access', 'Telia', [3301]],
      ['access', 'TM (Telekom Malaysia)', [4788]],
      ['access', 'Hathway', [17488]],
      // Mobile carriers.
      ['mobile', 'T-Mobile US', [21928]],
      ['mobile', 'Verizon Wireless', [22394, 6167]],
      ['mobile', 'AT&T Mobility', [20057]],
      ['mobile', 'Vodafone UK', [25135]],
      ['mobile', 'Vodafone Australia', [133612]],
      ['mobile', 'China Mobile', [9808]],
      ['mobile', 'Reliance Jio', [55836]],
      ['mobile', 'Bharti Airtel', [45609]],
      // VPN and proxy services.
      ['vpn', 'M247 (NordVPN, Surfshark, others)', [9009, 16247]],
      ['vpn', 'Mullvad (31173 Services AB)', [39351]],
      ['vpn', 'NordVPN (PacketHub)', [136787]],
      ['vpn', 'Proton VPN', [62371]],
      // Research and education networks.
      ['education', 'DFN', [680]],
      ['education', 'Jisc (JANET)', [786]],
      ['education', 'RENATER', [2200]],
      ['education', 'GARR', [137]],
      ['education', 'SURF', [1103]],
      ['education', 'SWITCH', [559]],
      ['education', 'Internet2', [11537]],
      ['education', 'CERNET', [4538]],
      ['education', 'MIT', [3]],
      // Governments.
      ['government', 'US Department of Defense', [749, 721]],
    ] as const
  ).flatMap(([kind, name, asns]) => asns.map((asn) => [asn, { kind, name }] as const)),
);

/**
 * Keyword families, checked in this order: a name that says telecom, hosting, mobile or VPN is that,
 * whatever legal form it also has. `word*` matches words that start with it, `*word*` matches
 * anywhere in the name (compounds like "Rostelecom"), a plain entry only the whole word or phrase.
 */
export const networkKeywords: ReadonlyArray<{ readonly kind: Exclude<NetworkKind, 'business' | 'unknown'>; readonly keywords: readonly string[] }> = [
  {
    kind: 'vpn',
    keywords: [
      '*vpn*', 'proxy*', 'proxies', 'anonym*', 'tor exit', 'torservers', 'private internet access', 'mullvad', 'packethub',
      'surfshark', 'cyberghost', 'ipvanish', 'windscribe', 'hidemyass', 'privado', 'zscaler', 'netskope', 'm247',
    ],
  },
  {
    kind: 'hosting',
    keywords: [
      '*hosting*', '*host*', '*datacenter*', '*datacentre*', 'data center*', 'data centre*', 'rechenzentrum', 'colocation', 'colo', 'teleport*',
      'server*', '*cloud*', '*vps*', 'vds', 'dedicated', 'cdn', 'content delivery', 'web services', 'amazon*', 'aws', 'google',
      'digitalocean', 'linode', 'akamai', 'fastly', 'vultr', 'choopa', 'leaseweb', 'contabo', 'scaleway', 'ovh*', 'hetzner',
      'ionos', 'netcup', 'godaddy*', 'alibaba', 'tencent', 'rackspace', 'equinix', 'digital realty', 'hivelocity', 'psychz',
      'colocrossing', 'quadranet', 'worldstream', 'gcore', 'g core', 'stackpath', 'edgecast', 'limelight', 'incapsula', 'imperva',
      'sucuri', 'bluehost', 'hostgator', 'dreamhost', 'frantech', 'buyvm', 'datacamp', 'cdn77', 'hurricane electric',
    ],
  },
  {
    kind: 'mobile',
    keywords: [
      'mobil*', 'movil*', 'movel', 'moveis', '*wireless*', '*cellular*', 'cellco', 'cell', 'lte', '4g', '5g', 'gsm', 'umts',
      'airtel', 'jio', 'telcel', 'hutchison', 'mtn', 'safaricom', 'vodacom', 'digicel', 'megafon', 'beeline', 'turkcell',
    ],
  },
  {
    kind: 'access',
    keywords: [
      '*telecom*', '*telekom*', '*telecommunic*', '*telekomunik*', '*telecomunic*', 'telefon*', 'telephone*', 'telco', 'tele2',
      'telenor', 'telia', 'telstra', 'telus', '*broadband*', 'fiber*', 'fibre*', 'fibra*', 'ftth', '*cable*', 'kabel*', 'dsl',
      'adsl', 'isp', 'wisp', 'wifi', 'wimax', 'catv', '*internet*', '*net', 'redes', 'inalambric*', 'conectividad*', 'connectivity',
      'conexao', '*satellite*', 'satelit*', 'provedor*', 'proveedor*', 'fournisseur*', 'communications', 'communication', 'comunicac*',
      'comunicaz*', 'kommunikation*', 'backbone', 'transit', 'bandwidth', 'vodafone', 'orange', 'comcast', 'verizon', 'at&t', 'charter',
      'spectrum', 'cox', 'virgin media', 'british telecommunications', 'swisscom', 'kpn', 'ziggo', 'proximus', 'free sas',
      'proxad', 'bouygues', 'sfr', 'sky', 'bt', 'o2', 'fastweb', 'iliad', 'wind tre', 'movistar', 'claro', 'vivo', 'telmex',
      'uninet', 'chinanet', 'china unicom', 'centurylink', 'lumen', 'frontier', 'windstream', 'mediacom', 'altice', 'optimum',
      'cablevision', 'suddenlink', 'liberty global', 'unitymedia', 'versatel', 'netcologne', 'plusnet', 'talktalk', 'eir',
      'ntt', 'kddi', 'softbank', 'bharti', 'bsnl', 'bharat sanchar', 'rostelecom', 'ertelecom', 'hathway',
    ],
  },
  {
    kind: 'government',
    keywords: [
      'government*', 'gouvernement', 'gobierno', 'governo', 'regierung*', 'minist*', 'bundes*', 'federal government',
      'federal office', 'federal agency', 'federal ministry', 'department of defense', 'state of', 'county', 'city of',
      'municipal*', 'municipio*', 'gemeente', 'kommun*', 'town of', 'village of', 'authority', 'national agency',
      'house of representatives', 'administration communale', 'prefecture', 'police', 'polizei', 'army', 'navy', 'air force', 'military',
      'armed forces', 'defence force*', 'parliament', 'senate', 'dod', 'nato', 'european commission', 'united nations', 'gov',
      'public administration', 'administracion publica',
    ],
  },
  {
    kind: 'education',
    keywords: [
      'university', 'universit*', 'universid*', 'univ', 'uniwersytet', 'college*', 'school*', '*schule*', 'academ*', 'akadem*',
      'educat*', 'educacao', 'educacion', 'ensino', 'pesquisa', 'research and education', 'research network*', 'research center*',
      'research centre*', 'research institute*', '*forschung*', 'institut*', 'polytechn*', 'politecn*', 'politek*', 'ecole', 'escola', 'escuela',
      'lycee', 'campus', 'student*', 'renater', 'garr', 'jisc', 'janet', 'internet2', 'cernet', 'rediris', 'aarnet', 'canarie',
      'nordunet', 'geant', 'surfnet', 'belnet', 'funet', 'uninett', 'sunet', 'kisti',
    ],
  },
];

/** Legal forms that suggest a business (checked after every family above: ISPs have them too). */
export const businessLegalForms: readonly string[] = [
  'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'companhia', 'compania', 'ltd', 'limited', 'llc', 'llp', 'lp',
  'plc', 'pllc', 'gmbh', 'mbh', 'ag', 'kg', 'kgaa', 'ohg', 'ug', 'se', 'sa', 'sas', 'sasu', 'sarl', 'srl', 'srls', 'spa', 'sl',
  'slu', 'sau', 'sab', 'bv', 'nv', 'vof', 'ab', 'oy', 'oyj', 'asa', 'aps', 'kft', 'zrt', 'nyrt', 'sro', 'doo', 'ooo', 'oao',
  'zao', 'pao', 'jsc', 'ojsc', 'cjsc', 'pjsc', 'pty', 'pte', 'bhd', 'sdn', 'pvt', 'kk', 'kaisha', 'ltda', 'eireli', 'sp z oo',
  'sp zoo', 'spzoo', 's a', 'sal', 'cv', 'pt', 'tov', 'anonim sirketi', 'sirketi',
];

/** Sectors that are businesses even when the name carries no legal form ("Bank of America"). */
export const businessSectors: readonly string[] = [
  'bank*', 'banco', 'banque', 'insurance', 'versicherung*', 'assurance*', 'credit union', 'pharma*', 'airline*', 'airways',
  'financ*', 'motor*', 'automotive', 'manufactur*', 'industr*', 'holding*', 'retail*', 'consult*', 'logistic*',
];

/** Lower case, no accents, dots and slashes dropped ("S.A." → "sa", "A/S" → "as"), words between single spaces. */
export function normaliseOrganisation(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.'’/\u00ad]/g, '')
    .replace(/[^a-z0-9&]+/g, ' ')
    .trim();
  return ` ${words} `;
}

// Names ending in "net" are mostly access providers (Fastnet, Ufanet, Claranet); these words are not.
const notNetworkNames = ['pla', 'cabi', 'mag', 'bon', 'hor', 'gar', 'son', 'bayo', 'clari', 'drag', 'sig', 'gan', 'jen'];

function keywordPattern(keyword: string): RegExp {
  if (keyword === '*net') return new RegExp(`(?<!(?:^| )(?:${notNetworkNames.join('|')}))net(?= )`);
  const anywhereBefore = keyword.startsWith('*');
  const anywhereAfter = keyword.endsWith('*');
  const core = keyword.replace(/^\*|\*$/g, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${anywhereBefore ? '' : '(?<= )'}${core}${anywhereAfter ? '' : '(?= )'}`);
}

const compiledFamilies = networkKeywords.map(({ kind, keywords }) => ({
  kind,
  patterns: keywords.map((keyword) => ({ keyword: keyword.replace(/\*/g, ''), pattern: keywordPattern(keyword) })),
}));
const compiledLegalForms = businessLegalForms.map((form) => ({ keyword: form, pattern: keywordPattern(form) }));
const compiledSectors = businessSectors.map((sector) => ({ keyword: sector.replace(/\*/g, ''), pattern: keywordPattern(sector) }));
// "AS" closes many Nordic company names but is an English word too: only as the last word.
const finalAs = / (as)$/;

const kindNames: Record<Exclude<NetworkKind, 'business' | 'unknown'>, string> = {
  access: 'an access provider',
  hosting: 'hosting, cloud or a carrier',
  mobile: 'a mobile carrier',
  vpn: 'a VPN or proxy',
  education: 'education or research',
  government: 'a government',
};

/**
 * The kind of network an autonomous system is (docs/network-company-rule.md): a known number first,
 * then the organisation name's keyword families (VPN, hosting, mobile, access, government,
 * education), then legal forms and sectors that suggest a business. Anything else is unknown.
 */
export function classifyNetwork(asn: number, organisation: string): NetworkClassification {
  const known = knownNetworks.get(asn);
  if (known) return { kind: known.kind, reason: `AS${asn} is ${known.name}: ${kindNames[known.kind]}` };
  const name = normaliseOrganisation(organisation);
  if (name.trim() === '') return { kind: 'unknown', reason: `AS${asn} has no organisation name` };
  for (const family of compiledFamilies) {
    const hit = family.patterns.find(({ pattern }) => pattern.test(name));
    if (hit) return { kind: family.kind, reason: `"${hit.keyword}" in the name: ${kindNames[family.kind]}` };
  }
  const legalForm = compiledLegalForms.find(({ pattern }) => pattern.test(name))?.keyword ?? (finalAs.test(name.trimEnd()) ? 'as' : undefined);
  if (legalForm) return { kind: 'business', reason: `legal form "${legalForm}" and no sign of an access, hosting, mobile or VPN network` };
  const sector = compiledSectors.find(({ pattern }) => pattern.test(name));
  if (sector) return { kind: 'business', reason: `"${sector.keyword}" in the name: a business sector` };
  return { kind: 'unknown', reason: 'no keyword, legal form or business sector in the name' };
}

/** Only a business network counts as the visitor's company. */
export const isCompanyNetwork = (classification: NetworkClassification): boolean => classification.kind === 'business';
