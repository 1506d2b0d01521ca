// Each consent figure is defined once: the cards read figure-definitions.ts, and docs/analytics.md
// says the same words (its table is checked against them here, so the two cannot drift apart).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { figureDefinitions } from './figure-definitions';

const doc = readFileSync(path.resolve(import.meta.dirname, '../../../../docs/analytics.md'), 'utf8');

describe('the consent figures', () => {
  it.each(Object.entries(figureDefinitions))('%s is documented in docs/analytics.md in the words the card uses', (_name, definition) => {
    expect(doc).toContain(`| ${definition.counts} | ${definition.explanation} |`);
  });

  it('counts choices, never people, in every unit that counts', () => {
    expect(figureDefinitions.totalConsents.counts).toMatch(/choices/);
    expect(figureDefinitions.declined.counts).toMatch(/choices/);
    expect(figureDefinitions.totalConsents.explanation).toMatch(/counts choices, not people/);
  });
});
