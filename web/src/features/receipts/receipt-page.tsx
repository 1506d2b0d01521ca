// A consent receipt a person can read (issue 28, "Proof a person can read"): who chose, when, which
// purposes, the exact texts in the language shown, the rule, and whether it verifies — computed here,
// in the browser, against the published seal key (verify-receipt.ts), not taken from the server.
// Download JSON saves the api's receipt (the proof, for verify-receipt.mjs); Print prints this page.
import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { ArrowLeft, Download, Printer, ShieldAlert, ShieldCheck, ShieldQuestion } from 'lucide-react';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { getErrorStatus } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { receiptQueryOptions, sealKeyQueryOptions } from './queries';
import { verifyReceipt, type ConsentReceipt, type ReceiptVerification } from './verify-receipt';

const ruleLabels: Record<string, string> = {
  opt_in: 'Opt-in: nothing optional before the visitor agrees',
  opt_out: 'Opt-out: allowed until the visitor objects',
  notice_only: 'Notice only: the visitor was informed',
};

export function ReceiptPage({ consentId }: { consentId: string }) {
  const receipt = useQuery(receiptQueryOptions(consentId));
  const sealKey = useQuery(sealKeyQueryOptions());
  const router = useRouter();

  return (
    <>
      <Button variant="ghost" size="sm" className="-ml-3 mb-2 print:hidden" onClick={() => router.history.back()}>
        <ArrowLeft aria-hidden />
        Back
      </Button>
      {receipt.isPending ? (
        <LoadingState />
      ) : receipt.isError ? (
        getErrorStatus(receipt.error) === 404 ? (
          <Card>
            <EmptyState title="Receipt not found" description="No consent with this id is on a website you can see." />
          </Card>
        ) : (
          <ErrorState title="The receipt could not be loaded." error={receipt.error} />
        )
      ) : (
        <ReceiptView receipt={receipt.data} publicKeyPem={sealKey.data?.publicKey} sealKeyFailed={sealKey.isError} />
      )}
    </>
  );
}

function ReceiptView({ receipt, publicKeyPem, sealKeyFailed }: { receipt: ConsentReceipt; publicKeyPem: string | undefined; sealKeyFailed: boolean }) {
  const [verification, setVerification] = useState<ReceiptVerification | null>(null);
  useEffect(() => {
    let current = true;
    setVerification(null);
    if (publicKeyPem !== undefined) void verifyReceipt(receipt, publicKeyPem).then((result) => current && setVerification(result));
    return () => {
      current = false;
    };
  }, [receipt, publicKeyPem]);

  const accepted = receipt.consent.choice === 'accepted';
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${JSON.stringify(receipt, null, 2)}\n`], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `consent-receipt-${receipt.consentReceiptId}.json`;
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Consent receipt"
        description={`What ${receipt.controller.name} recorded when a visitor chose, and the proof that the ledger holds it unchanged.`}
        action={
          <div className="flex shrink-0 gap-2 print:hidden">
            <Button variant="outline" onClick={download}>
              <Download aria-hidden />
              Download JSON
            </Button>
            <Button variant="outline" onClick={() => window.print()}>
              <Printer aria-hidden />
              Print
            </Button>
          </div>
        }
      />

      <VerificationPanel verification={verification} sealKeyFailed={sealKeyFailed} />

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Who and when</CardTitle>
          </CardHeader>
          <CardContent>
            <Facts
              facts={[
                ['Choice', <Badge key="choice" variant={accepted ? 'success' : 'secondary'}>{accepted ? 'Accepted' : 'Declined'}</Badge>],
                ['Recorded', formatDateTime(receipt.consent.consentTimestamp)],
                ['Website', receipt.controller.website],
                ['Controller', receipt.controller.contactEmail ? `${receipt.controller.name} (${receipt.controller.contactEmail})` : receipt.controller.name],
                ['Visitor', <span key="visitor" className="font-mono text-xs wrap-anywhere">{receipt.subject.visitorId}</span>],
                ['How', receipt.consent.collectionMethod],
                ['Method', receipt.consent.method],
                ['Rule', `${ruleLabels[receipt.consent.rule.rule] ?? receipt.consent.rule.rule}${receipt.consent.rule.region ? ` (region ${receipt.consent.rule.region})` : ''}`],
                ['Page', receipt.notice.pageUrl ?? 'Not recorded'],
                ['Receipt id', <span key="id" className="font-mono text-xs wrap-anywhere">{receipt.consentReceiptId}</span>],
              ]}
            />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Purposes</CardTitle>
            <CardDescription>Each purpose offered, in the words the banner used, and what the visitor chose.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="space-y-3">
              {receipt.consent.purposes.map((purpose) => (
                <li key={purpose.purpose} className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="font-medium">{purpose.shownAs?.name ?? purpose.purpose}</p>
                    {/* Choices recorded before the banner's texts were published have only our description. */}
                    {purpose.shownAs ? <p className="text-sm text-muted-foreground">{purpose.shownAs.description}</p> : null}
                  </div>
                  <Badge variant={purpose.granted ? 'success' : 'outline'}>{purpose.granted ? 'Granted' : 'Not granted'}</Badge>
                </li>
              ))}
            </ul>
            <p className="mt-4 text-xs text-muted-foreground">{receipt.consent.termination}</p>
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>What the visitor was shown</CardTitle>
          <CardDescription>
            In {languageName(receipt.notice.language)}
            {receipt.notice.browserLanguage ? ` (their browser asked for ${receipt.notice.browserLanguage})` : ''}, policy version {receipt.notice.policyVersion}.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <blockquote lang={receipt.notice.language} className="space-y-2 rounded-md border-l-4 border-primary/40 bg-muted/40 p-4">
            <p className="font-semibold">{receipt.notice.heading}</p>
            <p className="text-sm whitespace-pre-line">{receipt.notice.text}</p>
            <p className="text-sm text-muted-foreground">Buttons: {receipt.notice.buttons.join(' · ')}</p>
          </blockquote>
          {receipt.notice.privacyPolicyLink ? (
            <p className="text-sm">
              Privacy policy:{' '}
              <a className="underline wrap-anywhere" href={receipt.notice.privacyPolicyLink} target="_blank" rel="noopener noreferrer">
                {receipt.notice.privacyPolicyLink}
              </a>
            </p>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}

function VerificationPanel({ verification, sealKeyFailed }: { verification: ReceiptVerification | null; sealKeyFailed: boolean }) {
  if (sealKeyFailed) {
    return (
      <Panel tone="warning" icon={<ShieldQuestion aria-hidden />} title="Not checked">
        The ledger's public key could not be loaded, so this page could not check the receipt. Reload to try again.
      </Panel>
    );
  }
  if (verification === null) {
    return (
      <Panel tone="neutral" icon={<ShieldQuestion aria-hidden />} title="Checking…">
        Checking the receipt against the ledger's seal and its public key.
      </Panel>
    );
  }
  if (verification.status === 'pending') {
    return (
      <Panel tone="neutral" icon={<ShieldQuestion aria-hidden />} title="Not sealed yet">
        This consent is newer than the ledger's last seal. Its proof arrives within seconds; this page asks again by itself.
      </Panel>
    );
  }
  if (verification.status === 'invalid') {
    return (
      <Panel tone="danger" icon={<ShieldAlert aria-hidden />} title="Does not verify">
        This receipt does not verify: {verification.problem}. Do not rely on it; an admin can run `consentry verify` on the whole ledger.
      </Panel>
    );
  }
  return (
    <Panel tone="success" icon={<ShieldCheck aria-hidden />} title={`Verified against seal ${verification.sealSequence}, signed by key ${verification.keyId}`}>
      Checked in this browser: the consent is in the ledger as stated, in seal {verification.sealSequence} of {formatDateTime(verification.sealedAt)}, whose
      signature verifies with the ledger's published key.
      {verification.status === 'valid-erased' ? ' The visitor’s personal data (IP address, user agent, email, city) was erased on request after sealing.' : ''}
    </Panel>
  );
}

const panelTones = {
  success: 'border-green-600/40 bg-green-50 text-green-950 dark:bg-green-950 dark:text-green-50',
  danger: 'border-destructive/50 bg-destructive/10',
  warning: 'border-yellow-600/40 bg-yellow-50 text-yellow-950',
  neutral: 'border-border bg-muted/40',
} as const;

function Panel({ tone, icon, title, children }: { tone: keyof typeof panelTones; icon: React.ReactNode; title: string; children: React.ReactNode }) {
  return (
    <section role="status" aria-label="Verification" className={`flex gap-3 rounded-lg border p-4 ${panelTones[tone]}`}>
      <div className="mt-0.5 shrink-0 [&_svg]:size-5">{icon}</div>
      <div className="min-w-0 space-y-1">
        <h2 className="font-semibold wrap-anywhere">{title}</h2>
        <p className="text-sm">{children}</p>
      </div>
    </section>
  );
}

function Facts({ facts }: { facts: readonly [string, React.ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-4 gap-y-2 text-sm">
      {facts.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted-foreground">{term}</dt>
          <dd className="min-w-0 wrap-anywhere">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
