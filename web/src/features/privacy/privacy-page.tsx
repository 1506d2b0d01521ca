// The static privacy policy and cookie notice (/privacy and /privacy-policy): commitment, data
// collected, use, rights, security and retention, third-party services and contact.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PublicFooter } from '../site/public-footer';
import { PublicHeader } from '../site/public-header';
import { getCompanyName, publicBrandingQueryOptions } from '../site/queries';

export const consentRetentionYears = 2;
export const privacyResponseDays = 30;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 space-y-3">
      <h2 id={`${id}-title`} className="text-2xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function PrivacyPage() {
  const { data: branding } = useQuery(publicBrandingQueryOptions());
  const company = getCompanyName(branding);

  return (
    <div className="flex min-h-screen flex-col">
      <PublicHeader />
      <main className="mx-auto w-full max-w-3xl flex-1 space-y-10 px-4 py-16 text-muted-foreground sm:px-6 [&_h2]:text-foreground">
        <header className="space-y-2">
          <h1 className="text-4xl font-bold text-foreground">Privacy Policy and Cookie Notice</h1>
          <p>How {company} collects, uses and protects personal data.</p>
        </header>

        <Section id="commitment" title="Our commitment to privacy">
          <p>
            {company} helps website owners ask visitors for consent and respect their choices. We collect only what is
            needed to record and prove those choices, and we identify visitors only after they have agreed to it.
          </p>
        </Section>

        <Section id="data-collected" title="Data we collect">
          <ul className="list-disc space-y-1 pl-6">
            <li>Your consent choice (accepted or declined) and when you made it.</li>
            <li>Your IP address, browser user agent and approximate location (country and city).</li>
            <li>If you accept, the pages you view and how you engage with the website.</li>
            <li>For website owners: account details such as name and email address.</li>
          </ul>
          <p>
            The consent banner stores a random visitor identifier in your browser so your choice is remembered. This is
            the only cookie-like storage used before you consent.
          </p>
        </Section>

        <Section id="use" title="How we use data">
          <ul className="list-disc space-y-1 pl-6">
            <li>To record your consent choice and prove it to regulators if asked.</li>
            <li>To show website owners consent statistics and site analytics.</li>
            <li>If you accepted, to let the website owner contact you about their business.</li>
          </ul>
        </Section>

        <Section id="rights" title="Your rights under GDPR and CCPA">
          <p>You may at any time:</p>
          <ul className="list-disc space-y-1 pl-6">
            <li>access the personal data held about you;</li>
            <li>have inaccurate data corrected;</li>
            <li>have your data erased;</li>
            <li>withdraw your consent, which stops further processing;</li>
            <li>object to processing or ask for it to be restricted;</li>
            <li>receive your data in a portable format;</li>
            <li>opt out of the sale or sharing of your personal information.</li>
          </ul>
        </Section>

        <Section id="security" title="Security and retention">
          <p>
            Consent records are stored in an append-only ledger whose integrity can be verified, so a record cannot be
            altered unnoticed. Access is limited to the website owner and our administrators.
          </p>
          <p>
            Consent data is kept for up to {consentRetentionYears} years, after which it is deleted. Website owners may
            choose a shorter period.
          </p>
        </Section>

        <Section id="third-parties" title="Third-party services">
          <p>
            For visitors who accepted, business contact details may be looked up through a third-party email-finding
            service. This enrichment can take up to 24 hours. We do not sell personal data.
          </p>
        </Section>

        <Section id="contact" title="Contact us">
          <p>
            For any privacy question or to exercise your rights, contact the owner of the website where you gave your
            consent, or {company} directly. We answer privacy inquiries within {privacyResponseDays} days.
          </p>
        </Section>
      </main>
      <PublicFooter />
    </div>
  );
}
