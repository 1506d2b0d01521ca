// The network behind an address, and whether it is a company's: the rule of
// docs/network-company-rule.md on a table of real autonomous systems (numbers and names as the shipped
// database spells them), and the offline lookup against rows read from the shipped CSVs themselves.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asnDatabaseDirectory, classifyNetwork, createNetworkLookup, isCompanyNetwork, knownNetworks, type NetworkKind } from './network';

describe('classifyNetwork', () => {
  const cases: Array<[number, string, NetworkKind]> = [
    // Clouds, hosting and CDNs (by number, and by name).
    [16509, 'Amazon.com, Inc.', 'hosting'],
    [14618, 'Amazon.com, Inc.', 'hosting'],
    [396982, 'Google LLC', 'hosting'],
    [8075, 'Microsoft Corporation', 'hosting'],
    [13335, 'Cloudflare, Inc.', 'hosting'],
    [16276, 'OVH SAS', 'hosting'],
    [24940, 'Hetzner Online GmbH', 'hosting'],
    [14061, 'DigitalOcean, LLC', 'hosting'],
    [36351, 'IBM Cloud', 'hosting'],
    [7203, 'Leaseweb USA, Inc.', 'hosting'],
    [47583, 'Hostinger International Limited', 'hosting'],
    // Access providers: legal forms do not make them companies.
    [7922, 'Comcast Cable Communications, LLC', 'access'],
    [3320, 'Deutsche Telekom AG', 'access'],
    [3209, 'Vodafone GmbH', 'access'],
    [3352, 'TELEFONICA DE ESPANA S.A.U.', 'access'],
    [3215, 'Orange S.A.', 'access'],
    [2856, 'British Telecommunications PLC', 'access'],
    [5607, 'Sky UK Limited', 'access'],
    [1221, 'Telstra Limited', 'access'],
    [9121, 'Turk Telekomunikasyon Anonim Sirketi', 'access'],
    [5573, 'PJSC Rostelecom', 'access'],
    [10429, 'TELEFONICA BRASIL S.A', 'access'],
    [8422, 'NetCologne Gesellschaft fur Telekommunikation mbH', 'access'],
    [5617, 'Orange Polska Spolka Akcyjna', 'access'],
    [1267, 'WIND TRE S.P.A.', 'access'],
    [17488, 'HATHWAY CABLE AND DATACOM LIMITED', 'access'],
    [28573, 'Claro NXT Telecomunicacoes Ltda', 'access'],
    [9829, 'Bharat Sanchar Nigam Ltd', 'access'],
    // Mobile carriers, including those whose names say nothing of it.
    [21928, 'T-Mobile USA, Inc.', 'mobile'],
    [22394, 'Verizon Business', 'mobile'],
    [6167, 'Verizon Business', 'mobile'],
    [55836, 'Reliance Jio Infocomm Limited', 'mobile'],
    [10737, 'CellularONE', 'mobile'],
    [37140, 'Airtel Ghana Limited', 'mobile'],
    // VPNs.
    [9009, 'M247 Europe SRL', 'vpn'],
    [39351, '31173 Services AB', 'vpn'],
    [136787, 'PacketHub S.A.', 'vpn'],
    [62371, 'Proton AG', 'vpn'],
    [49134, '10VPN Research Network LTD', 'vpn'],
    // Education and government.
    [680, 'Verein zur Foerderung eines Deutschen Forschungsnetzes e.V.', 'education'],
    [3, 'Massachusetts Institute of Technology', 'education'],
    [32, 'Stanford University', 'education'],
    [4538, 'China Education and Research Network Center', 'education'],
    [749, 'United States Department of Defense (DoD)', 'government'],
    [14072, 'Government of the District of Columbia', 'government'],
    [1798, 'State of Oregon', 'government'],
    [2026, 'City of Helsinki', 'government'],
    [62180, 'Eskilstuna Kommun', 'government'],
    [5542, 'Ministry of Health, Treatment and Medical Education', 'government'],
    // Companies.
    [714, 'Apple Inc.', 'business'],
    [3598, 'Microsoft Corporation', 'business'],
    [8826, 'SIEMENS AG', 'business'],
    [6445, 'Siemens Corporation', 'business'],
    [2824, 'Deutsche Bank AG', 'business'],
    [3271, 'SAP SE', 'business'],
    [3486, 'JPMorgan Chase & Co.', 'business'],
    [609, 'Ernst & Young LLP', 'business'],
    [136767, 'BMW AG (Bayerische Motoren Werke Aktiengesellschaft)', 'business'],
    [4249, 'Eli Lilly and Company', 'business'],
    [201026, 'Zalando SE', 'business'],
    [15442, 'Procter & Gamble Service GmbH', 'business'],
    [14340, 'Salesforce.com, Inc.', 'business'],
    [3917, 'Shell Information Technology International B.V.', 'business'],
    [7116, 'Toyota Motor Sales, U.S.A., Inc.', 'business'],
    [8188, 'Bloomberg Financial Market', 'business'],
    // Nothing to go by.
    [199186, 'Daniel Thomas Atkinson', 'unknown'],
    [64512, '', 'unknown'],
  ];

  it.each(cases)('AS%i %j is %s', (asn, organisation, kind) => {
    const classification = classifyNetwork(asn, organisation);
    expect(classification.kind, classification.reason).toBe(kind);
    expect(classification.reason.length).toBeGreaterThan(10);
    expect(isCompanyNetwork(classification)).toBe(kind === 'business');
  });

  it('has at least 40 cases, every kind among them', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(new Set(cases.map(([, , kind]) => kind))).toEqual(new Set(['business', 'access', 'hosting', 'mobile', 'vpn', 'education', 'government', 'unknown']));
  });

  it('decides by number before the name: the same "Microsoft Corporation" is a cloud or an office network', () => {
    expect(classifyNetwork(8075, 'Microsoft Corporation').reason).toContain('AS8075');
    expect(classifyNetwork(3598, 'Microsoft Corporation').reason).toContain('legal form "corporation"');
  });

  it('checks access, hosting, mobile and VPN words before legal forms', () => {
    for (const name of ['Example Telecom GmbH', 'Example Hosting Ltd', 'Example Mobile Inc.', 'Example VPN AB', 'Example Broadband LLC']) {
      expect(classifyNetwork(64_512, name).kind, name).not.toBe('business');
    }
    expect(classifyNetwork(64_512, 'Example Widgets GmbH').kind).toBe('business');
  });

  it('reads Nordic "AS" as a legal form only at the end of a name', () => {
    expect(classifyNetwork(64_512, 'Example Widgets AS').kind).toBe('business');
    expect(classifyNetwork(64_512, 'Known As Example').kind).toBe('unknown');
  });

  it("keeps its list of known networks to kinds that are not a company's", () => {
    for (const [asn, known] of knownNetworks) expect(['business', 'unknown'], `AS${asn}`).not.toContain(known.kind);
  });
});

const parsedFiles = new Map<string, Array<{ start: bigint; end: bigint; asn: number; organisation: string }>>();

/** The shipped file's rows, parsed here independently of the module under test. */
function shippedRows(file: string): Array<{ start: bigint; end: bigint; asn: number; organisation: string }> {
  const parsed = parsedFiles.get(file);
  if (parsed) return parsed;
  const text = readFileSync(path.join(asnDatabaseDirectory(), file), 'utf8');
  const rows = text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const [start, end, asn] = line.split(',', 3) as [string, string, string];
      let organisation = line.slice(start.length + end.length + asn.length + 3);
      if (organisation.startsWith('"')) organisation = organisation.slice(1, -1).replaceAll('""', '"');
      return { start: BigInt(start), end: BigInt(end), asn: Number(asn), organisation: organisation.trim() };
    });
  parsedFiles.set(file, rows);
  return rows;
}

const ipv4Text = (value: bigint) => [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');
const ipv6Text = (value: bigint) => Array.from({ length: 8 }, (_, group) => ((value >> BigInt(112 - group * 16)) & 0xffffn).toString(16)).join(':');

describe('the offline lookup, against the shipped database', () => {
  const lookup = createNetworkLookup();

  for (const [family, file, toText] of [
    ['IPv4', 'asn-ipv4-num.csv', ipv4Text],
    ['IPv6', 'asn-ipv6-num.csv', ipv6Text],
  ] as const) {
    it(`finds the row of the first, middle and last address of ranges spread over the ${family} file, and nothing in the gaps`, async () => {
      const rows = shippedRows(file);
      expect(rows.length).toBeGreaterThan(10_000);
      // Every 997th row (a prime, so the sample does not follow any pattern of the file), plus the ends.
      const picked = [0, rows.length - 1, ...Array.from({ length: Math.floor(rows.length / 997) }, (_, index) => index * 997 + 500)];
      let gaps = 0;
      for (const index of picked) {
        const row = rows[index]!;
        const previous = rows[index - 1];
        const next = rows[index + 1];
        // Overlapping neighbours (the file has a few) are the one case where two rows could answer.
        if ((previous && previous.end >= row.start) || (next && next.start <= row.end)) continue;
        const expected = { asn: row.asn, organisation: row.organisation };
        for (const address of [row.start, row.end, (row.start + row.end) / 2n]) {
          expect(await lookup.lookup(toText(address)), `${family} ${toText(address)} (row ${index + 1})`).toEqual(expected);
        }
        if (previous && previous.end < row.start - 1n) {
          gaps++;
          expect(await lookup.lookup(toText(row.start - 1n)), `${family} gap before row ${index + 1}`).toBeNull();
        }
      }
      expect(gaps).toBeGreaterThan(0);
    });
  }

  it('answers null for private, loopback, documentation and malformed addresses', async () => {
    for (const ip of ['10.0.0.1', '192.168.1.1', '127.0.0.1', '::1', 'fe80::1', '2001:db8::1', 'not an address', '']) {
      expect(await lookup.lookup(ip), ip).toBeNull();
    }
    expect(await lookup.lookup(null)).toBeNull();
  });

  it('reads an IPv4 address written as IPv6 as the IPv4 address', async () => {
    const row = shippedRows('asn-ipv4-num.csv')[1_000]!;
    expect(await lookup.lookup(`::ffff:${ipv4Text(row.start)}`)).toEqual({ asn: row.asn, organisation: row.organisation });
  });
});
