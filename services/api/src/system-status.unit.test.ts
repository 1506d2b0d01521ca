// Reading checkpoint names back: the relay's, a whole projection's, one partition's; nothing else.
import { describe, expect, it } from 'vitest';
import { parseReaderCheckpointName } from './system-status';

describe('parseReaderCheckpointName', () => {
  it('reads the relay, a whole projection and a partition', () => {
    expect(parseReaderCheckpointName('relay')).toEqual({ reader: 'relay' });
    expect(parseReaderCheckpointName('projection:consent-stats')).toEqual({ reader: 'projection', projection: 'consent-stats', partition: null });
    expect(parseReaderCheckpointName('projection:consent-stats/p0of4')).toEqual({ reader: 'projection', projection: 'consent-stats', partition: { index: 0, count: 4 } });
    expect(parseReaderCheckpointName('projection:analytics/p12of16')).toEqual({ reader: 'projection', projection: 'analytics', partition: { index: 12, count: 16 } });
  });

  it('refuses anything else', () => {
    for (const name of [
      'relay-test',
      'projection:',
      'projection:x/p4of4',
      'projection:x/p1of0',
      'projection:x/p01of4',
      'projection:x/p1',
      'projection:x/partition1',
      'projection:x/y/p0of2',
      'projection:/p0of2',
      'websites',
    ]) {
      expect(parseReaderCheckpointName(name), name).toBeNull();
    }
  });
});
