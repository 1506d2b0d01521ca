import { describe, expect, it } from 'vitest';
import { exampleEventData } from '@consentry/events/examples';
import { newFindingsEmail } from './scan-notification';

describe('newFindingsEmail', () => {
  it('names the site and every new finding, and links to the app', () => {
    const [finding] = exampleEventData.ScanCompleted.findings;
    const mail = newFindingsEmail({ to: 'owner@example.com', domain: 'example.com', findings: [finding!], appUrl: 'https://consent.example.net', productName: 'Acme Consent' });
    expect(mail.to).toBe('owner@example.com');
    expect(mail.subject).toBe('New cookie scan findings on example.com');
    expect(mail.text).toContain(`- [critical] ${finding!.message}`);
    expect(mail.text).toContain('Open Acme Consent to see the report and what to change: https://consent.example.net');
  });

  it('lists at most 20 and says how many more there are', () => {
    const [finding] = exampleEventData.ScanCompleted.findings;
    const findings = Array.from({ length: 23 }, (_, n) => ({ ...finding!, subject: `c${n}`, message: `cookie c${n}` }));
    const mail = newFindingsEmail({ to: 'o@example.com', domain: 'example.com', findings, appUrl: 'https://x', productName: 'X' });
    expect(mail.text.split('\n').filter((line) => line.startsWith('- ['))).toHaveLength(20);
    expect(mail.text).toContain('…and 3 more.');
    expect(mail.text).toContain('found 23 things the previous scan did not');
  });
});
