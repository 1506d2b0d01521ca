// Audience files: each platform's header, and emails normalised (trimmed, lower-cased) and hashed
// with SHA-256 exactly as the platforms compute it on their side, checked against digests computed
// apart from the code under test (sha256sum over the hand-normalised address, and node:crypto).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { csvLine } from '../export/csv';
import { audienceHeaders, audienceRow, hashAudienceEmail, normaliseAudienceEmail } from './audiences';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('normalising an email for an audience file', () => {
  it.each([
    ['  Ada.Lovelace@Example.COM \n', 'ada.lovelace@example.com'],
    ['\tBOB@EXAMPLE.ORG', 'bob@example.org'],
    ['carol@example.net', 'carol@example.net'],
  ])('turns %j into %j', (raw, normalised) => {
    expect(normaliseAudienceEmail(raw)).toBe(normalised);
  });

  it('keeps the periods of a gmail.com address: Google Customer Match does not ask for their removal', () => {
    expect(normaliseAudienceEmail('First.Last@gmail.com')).toBe('first.last@gmail.com');
    expect(hashAudienceEmail('First.Last@gmail.com')).toBe('3fba33b305fe1c0eeaf728b3b7aa3c668ae460a9807da214c47185d5e2befb98');
    expect(hashAudienceEmail('First.Last@gmail.com')).not.toBe('ed6c35e905a6daa500da471136a733ccccf446b294e80ae03a1d5d865fe1044c');
  });
});

describe('hashing an email', () => {
  it('is the lower-case hex SHA-256 of the normalised address', () => {
    // sha256sum of the bytes "ada.lovelace@example.com", computed outside this code.
    expect(hashAudienceEmail('  Ada.Lovelace@Example.COM ')).toBe('e814ff3dc480a94c7ce9334062ec4733c75a002f4bcec0197f62ffea64059e2f');
    expect(hashAudienceEmail('Bob@Example.org')).toBe(sha256('bob@example.org'));
    expect(hashAudienceEmail('Bob@Example.org')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives one hash for every spelling of one address, and different hashes for different addresses', () => {
    expect(new Set(['ada@example.com', ' ADA@example.com', 'Ada@Example.Com\t'].map(hashAudienceEmail)).size).toBe(1);
    expect(hashAudienceEmail('ada@example.com')).not.toBe(hashAudienceEmail('ada@example.org'));
  });
});

describe('the file of each platform', () => {
  const email = 'Ada.Lovelace@Example.com';
  const hash = sha256('ada.lovelace@example.com');

  it('Google Ads Customer Match: the header Email, one hashed address per row', () => {
    expect(csvLine(audienceHeaders.google) + csvLine(audienceRow('google', email))).toBe(`Email\r\n${hash}\r\n`);
  });

  it('Meta custom audiences: the header email, one hashed address per row', () => {
    expect(csvLine(audienceHeaders.meta) + csvLine(audienceRow('meta', email))).toBe(`email\r\n${hash}\r\n`);
  });

  it("LinkedIn matched audiences: the contact template's headers unchanged, only the email filled, hashed", () => {
    expect(csvLine(audienceHeaders.linkedin) + csvLine(audienceRow('linkedin', email))).toBe(
      `email,firstname,lastname,jobtitle,employeecompany,country,googleaid\r\n${hash},,,,,,\r\n`,
    );
  });

  it('never carries the readable address', () => {
    for (const format of ['google', 'meta', 'linkedin'] as const) {
      expect(audienceRow(format, email).join(',').toLowerCase()).not.toContain('lovelace');
    }
  });
});
