// The /leads search in the URL and the api URLs built from it: filters reach the list, the CSV
// export and the audience files exactly as the api names them; anything malformed in a URL is dropped.
import { describe, expect, it } from 'vitest';
import {
  buildAudienceUrl,
  buildLeadsExportUrl,
  buildLeadsQueryString,
  clearLeadFilters,
  getLeadSort,
  hasLeadFilters,
  parseLeadsSearch,
  toggleLeadSort,
  type LeadsSearch,
} from './search';

const filters: LeadsSearch = {
  websiteId: 'w1',
  q: 'ada@example.com',
  company: 'Acme & Co',
  status: 'granted',
  enrichment: 'pending',
  from: '2024-05-01',
  to: '2024-05-31',
};

describe('parseLeadsSearch', () => {
  it('keeps well-formed filters', () => {
    expect(parseLeadsSearch({ ...filters })).toEqual(filters);
  });

  it('drops unknown statuses, malformed days, blank or overlong text and the default sort', () => {
    expect(
      parseLeadsSearch({
        websiteId: '',
        q: '   ',
        company: 'x'.repeat(201),
        status: 'accepted',
        enrichment: 'done',
        from: '2024-13-01',
        to: '2024-02-30',
        sort: 'lastSeen',
        order: 'desc',
      }),
    ).toEqual({});
  });

  it('trims search text', () => {
    expect(parseLeadsSearch({ q: '  ada  ' })).toEqual({ q: 'ada' });
  });

  it('keeps a sort other than newest last seen, and an order only when it is not the column default', () => {
    expect(parseLeadsSearch({ sort: 'email' })).toEqual({ sort: 'email' });
    expect(parseLeadsSearch({ sort: 'email', order: 'asc' })).toEqual({ sort: 'email' });
    expect(parseLeadsSearch({ sort: 'email', order: 'desc' })).toEqual({ sort: 'email', order: 'desc' });
    expect(parseLeadsSearch({ order: 'asc' })).toEqual({ sort: 'lastSeen', order: 'asc' });
    expect(parseLeadsSearch({ sort: 'name' })).toEqual({});
  });
});

describe('sorting', () => {
  it('defaults to the most recently seen first', () => {
    expect(getLeadSort({})).toEqual({ sort: 'lastSeen', order: 'desc' });
  });

  it('flips the order of the sorted column and starts another at its default order', () => {
    expect(getLeadSort(toggleLeadSort({}, 'lastSeen'))).toEqual({ sort: 'lastSeen', order: 'asc' });
    expect(toggleLeadSort({ sort: 'lastSeen', order: 'asc' }, 'lastSeen')).toEqual({});
    expect(getLeadSort(toggleLeadSort({}, 'email'))).toEqual({ sort: 'email', order: 'asc' });
    expect(getLeadSort(toggleLeadSort({ sort: 'email' }, 'identifiedAt'))).toEqual({ sort: 'identifiedAt', order: 'desc' });
  });

  it('keeps the filters when the sort changes', () => {
    expect(toggleLeadSort(filters, 'email')).toEqual({ ...filters, sort: 'email' });
  });
});

describe('filters', () => {
  it('counts filters but not the sort', () => {
    expect(hasLeadFilters({})).toBe(false);
    expect(hasLeadFilters({ sort: 'email', order: 'desc' })).toBe(false);
    expect(hasLeadFilters({ to: '2024-05-31' })).toBe(true);
  });

  it('clears the filters and keeps the sort', () => {
    expect(clearLeadFilters({ ...filters, sort: 'email', order: 'desc' })).toEqual({ sort: 'email', order: 'desc' });
  });
});

describe('api URLs', () => {
  it('asks GET /api/leads for the filters, the sort and one keyset page', () => {
    const params = new URLSearchParams(buildLeadsQueryString({ ...filters, sort: 'email' }, { cursor: 'abc=', limit: 50 }));
    expect(Object.fromEntries(params)).toEqual({
      websiteId: 'w1',
      q: 'ada@example.com',
      company: 'Acme & Co',
      status: 'granted',
      enrichment: 'pending',
      from: '2024-05-01',
      to: '2024-05-31',
      sort: 'email',
      order: 'asc',
      limit: '50',
      cursor: 'abc=',
    });
  });

  it('asks for the first page without a cursor', () => {
    expect(buildLeadsQueryString({})).toBe('sort=lastSeen&order=desc&limit=50');
  });

  it('exports the CSV of the filtered leads, without sort, page or consent status (it holds allowed leads only)', () => {
    expect(buildLeadsExportUrl({})).toBe('/api/leads/export.csv');
    const url = new URL(buildLeadsExportUrl({ ...filters, sort: 'email' }), 'http://localhost');
    expect(url.pathname).toBe('/api/leads/export.csv');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      websiteId: 'w1',
      q: 'ada@example.com',
      company: 'Acme & Co',
      enrichment: 'pending',
      from: '2024-05-01',
      to: '2024-05-31',
    });
  });

  it('builds an audience file URL per platform, for one website or all', () => {
    expect(buildAudienceUrl('google')).toBe('/api/leads/audience.csv?format=google');
    expect(buildAudienceUrl('meta', 'w 1')).toBe('/api/leads/audience.csv?websiteId=w+1&format=meta');
    expect(buildAudienceUrl('linkedin', 'w1')).toBe('/api/leads/audience.csv?websiteId=w1&format=linkedin');
  });
});
