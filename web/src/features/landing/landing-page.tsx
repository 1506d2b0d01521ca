// The public landing page (spec sections 1 and 2): hero, the three-step flow, about, the feature
// grid, integration, a call to action and the footer. Copy comes from the admin-edited site content
// and falls back to the defaults when it is missing or cannot be loaded.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Activity,
  ChartColumn,
  Clock,
  CodeXml,
  Eye,
  Globe,
  LayoutGrid,
  Palette,
  ShieldCheck,
  Sparkles,
  Target,
  UserCheck,
  type LucideIcon,
} from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { buildEmbedSnippet, getProductHost } from '../../lib/snippet';
import { PublicFooter } from '../site/public-footer';
import { PublicHeader } from '../site/public-header';
import { publicWebsiteContentQueryOptions, withDefaultContent } from '../site/queries';

interface Feature {
  title: string;
  text: string;
  icon: LucideIcon;
}

const featureGrid: Feature[] = [
  {
    title: 'Consent-based identification',
    text: 'Identify up to 40% of your visitors, only after they have agreed to it.',
    icon: UserCheck,
  },
  {
    title: 'Customizable prompts and design',
    text: 'Choose the banner position, theme and wording so it fits your site.',
    icon: Palette,
  },
  { title: 'Easy integration', text: 'One script tag in your HTML body. Setup takes about 5 minutes.', icon: CodeXml },
  { title: 'Multi-site management', text: 'Manage every website you own from one dashboard.', icon: LayoutGrid },
  { title: 'Visitor insights', text: 'See where consenting visitors come from and what they read.', icon: Eye },
  { title: 'Real-time analytics', text: 'Consents appear on your dashboard moments after visitors choose.', icon: Activity },
  {
    title: 'Global compliance',
    text: 'Built for GDPR and CCPA, with every choice recorded as auditable evidence.',
    icon: ShieldCheck,
  },
  { title: 'Lead generation', text: 'Turn consented visitors into leads you can reach by email, ads or LinkedIn.', icon: Target },
  { title: 'Custom branding', text: 'Show your own logo, company name and colours in the banner.', icon: Sparkles },
];

const claims = [
  { label: 'Visitors identified', value: 'Up to 40%', icon: UserCheck },
  { label: 'Setup time', value: '5 minutes', icon: Clock },
  { label: 'Tracking', value: 'Real-time', icon: ChartColumn },
];

export function LandingPage() {
  const { data } = useQuery(publicWebsiteContentQueryOptions());
  const content = withDefaultContent(data);
  const sampleSnippet = buildEmbedSnippet({ host: getProductHost(), embedCode: 'YOUR_EMBED_CODE' });
  const steps = [
    { title: content.feature1Title, text: content.feature1Text },
    { title: content.feature2Title, text: content.feature2Text },
    { title: content.feature3Title, text: content.feature3Text },
  ];
  const heroBackground = content.heroBackgroundImage
    ? { backgroundImage: `linear-gradient(rgb(15 23 42 / 0.7), rgb(15 23 42 / 0.7)), url("${content.heroBackgroundImage}")` }
    : undefined;

  return (
    <div className="flex min-h-screen flex-col">
      <PublicHeader />
      <main className="flex-1">
        <section
          aria-labelledby="hero-title"
          style={heroBackground}
          className={
            heroBackground
              ? 'bg-cover bg-center text-white'
              : 'bg-gradient-to-b from-blue-50 to-background'
          }
        >
          <div className="mx-auto flex max-w-6xl flex-col items-center gap-6 px-4 py-20 text-center sm:px-6 md:py-28">
            <h1 id="hero-title" className="max-w-3xl text-4xl font-bold tracking-tight md:text-5xl">
              {content.heroTitle}
            </h1>
            <p className={heroBackground ? 'max-w-2xl text-lg text-white/85' : 'max-w-2xl text-lg text-muted-foreground'}>
              {content.heroSubtitle}
            </p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button asChild size="lg">
                <a href="/api/login">{content.heroButtonText}</a>
              </Button>
              <Button asChild size="lg" variant="outline" className={heroBackground ? 'text-foreground' : undefined}>
                <Link to="/pricing">View Pricing</Link>
              </Button>
            </div>
            <dl className="mt-6 grid w-full max-w-3xl gap-4 sm:grid-cols-3">
              {claims.map(({ label, value, icon: Icon }) => (
                <div key={label} className="flex flex-col items-center gap-1 rounded-lg border bg-background/80 p-4 text-foreground">
                  <Icon className="size-5 text-primary" aria-hidden />
                  <dt className="text-sm text-muted-foreground">{label}</dt>
                  <dd className="text-xl font-semibold">{value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </section>

        <section id="how-it-works" aria-labelledby="steps-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16 sm:px-6">
          <h2 id="steps-title" className="mb-10 text-center text-3xl font-bold">
            {content.featuresTitle}
          </h2>
          <ol className="grid gap-6 md:grid-cols-3">
            {steps.map((step, index) => (
              <li key={index} className="flex flex-col gap-3 rounded-lg border p-6">
                <span className="flex size-10 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground">
                  {index + 1}
                </span>
                <h3 className="text-lg font-semibold">{step.title}</h3>
                <p className="text-muted-foreground">{step.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="about-title" className="bg-muted/40">
          <div className="mx-auto max-w-3xl px-4 py-16 text-center sm:px-6">
            <h2 id="about-title" className="mb-4 text-3xl font-bold">
              {content.aboutTitle}
            </h2>
            <p className="text-lg text-muted-foreground">{content.aboutText}</p>
          </div>
        </section>

        <section id="features" aria-labelledby="features-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16 sm:px-6">
          <h2 id="features-title" className="mb-10 text-center text-3xl font-bold">
            Everything you need for consent-based growth
          </h2>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {featureGrid.map(({ title, text, icon: Icon }) => (
              <Card key={title}>
                <CardHeader className="flex-row items-center gap-3">
                  <Icon className="size-6 shrink-0 text-primary" aria-hidden />
                  <CardTitle className="text-base">{title}</CardTitle>
                </CardHeader>
                <CardContent className="text-sm text-muted-foreground">{text}</CardContent>
              </Card>
            ))}
          </div>
        </section>

        <section id="integration" aria-labelledby="integration-title" className="scroll-mt-20 bg-muted/40">
          <div className="mx-auto flex max-w-4xl flex-col items-center gap-4 px-4 py-16 text-center sm:px-6">
            <Globe className="size-8 text-primary" aria-hidden />
            <h2 id="integration-title" className="text-3xl font-bold">
              One line of code
            </h2>
            <p className="text-muted-foreground">
              Add a website in your dashboard, then paste its snippet into your site&apos;s HTML body. Consents are
              recorded from the first visitor on.
            </p>
            <pre className="w-full rounded-lg bg-slate-900 p-4 text-left text-sm wrap-anywhere whitespace-pre-wrap text-slate-100">
              <code>{sampleSnippet}</code>
            </pre>
          </div>
        </section>

        <section aria-labelledby="cta-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <div className="flex flex-col items-center gap-4 rounded-2xl bg-primary px-6 py-14 text-center text-primary-foreground">
            <h2 id="cta-title" className="text-3xl font-bold">
              {content.ctaTitle}
            </h2>
            <p className="max-w-2xl text-lg opacity-90">{content.ctaText}</p>
            <Button asChild size="lg" variant="secondary">
              <a href="/api/login">{content.ctaButtonText}</a>
            </Button>
          </div>
        </section>
      </main>
      <PublicFooter />
    </div>
  );
}
