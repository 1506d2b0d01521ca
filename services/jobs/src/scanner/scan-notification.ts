// The email an owner gets when a scheduled scan finds something the previous scan did not: a new
// tracker is exactly what nobody notices until a regulator does. Our own words.
import type { MailMessage } from '@consentry/infra';
import type { ScanFinding } from '@consentry/events';

export function newFindingsEmail(input: { to: string; domain: string; findings: readonly ScanFinding[]; appUrl: string; productName: string }): MailMessage {
  const listed = input.findings.slice(0, 20).map((finding) => `- [${finding.severity}] ${finding.message}`);
  const more = input.findings.length > listed.length ? [`…and ${input.findings.length - listed.length} more.`] : [];
  return {
    to: input.to,
    subject: `New cookie scan findings on ${input.domain}`,
    text: [
      `The scheduled cookie scan of ${input.domain} found ${input.findings.length === 1 ? 'something' : `${input.findings.length} things`} the previous scan did not:`,
      '',
      ...listed,
      ...more,
      '',
      `Open ${input.productName} to see the report and what to change: ${input.appUrl}`,
    ].join('\n'),
  };
}
