import { describe, expect, it } from 'vitest';
import { exampleEventData } from './examples';
import { ConsentsExported, ConsentsExportedData } from './export';
import { failuresOf } from './test-helpers';

describe('a consent export', () => {
  const valid = exampleEventData.ConsentsExported;

  it('parses for all websites and for one', () => {
    expect(ConsentsExported.schema.parse(valid)).toEqual(valid);
    expect(
      failuresOf(ConsentsExportedData, { ...valid, websiteId: '6f1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b', format: 'json' }),
    ).toEqual([]);
  });

  it('parses an admin’s export, recorded as the admin’s username', () => {
    const byAdmin = { ...valid, userId: null, exportedBy: 'admin' };
    expect(ConsentsExported.schema.parse(byAdmin)).toEqual(byAdmin);
  });

  it('parses an owner’s export written before exports named who made them', () => {
    const { exportedBy: _exportedBy, ...older } = valid;
    expect(failuresOf(ConsentsExportedData, older)).toEqual([]);
  });

  it('refuses an export that names nobody', () => {
    const { exportedBy: _exportedBy, ...nobody } = { ...valid, userId: null };
    expect(failuresOf(ConsentsExportedData, nobody)).toEqual([{ path: 'exportedBy', message: 'An export names who made it' }]);
  });

  it.each([
    ['exportId', 'export-1', 'Invalid UUID'],
    ['userId', 'admin', 'Invalid UUID'],
    ['websiteId', 'all', 'Invalid UUID'],
    ['format', 'xml', 'Invalid option: expected one of "csv"|"json"'],
    ['rowCount', -1, 'Too small: expected number to be >=0'],
    ['rowCount', 2.5, 'Invalid input: expected int, received number'],
    ['exportedAt', '07/05/2024', 'Invalid ISO datetime'],
    ['exportedBy', '', 'Too small: expected string to have >=1 characters'],
  ])('refuses %s = %j', (field, value, message) => {
    expect(failuresOf(ConsentsExportedData, { ...valid, [field]: value })).toEqual([{ path: field, message }]);
  });
});
