// The public pricing page: plans from the api, a monthly/annual toggle, the first four features of
// each plan, 'Most Popular' on pro, and an FAQ. Every start and sign-in action goes to /api/login.
import { useQuery } from '@tanstack/react-query';
import { Check } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { Switch } from '../../components/ui/switch';
import { cn } from '../../lib/cn';
import { formatNumber, formatPrice } from '../../lib/format';
import { PublicFooter } from '../site/public-footer';
import { PublicHeader } from '../site/public-header';
import { subscriptionPlansQueryOptions, type SubscriptionPlan } from '../subscription/queries';
import {
  featuredPlanName,
  formatDataTypes,
  formatPerResolution,
  getAnnualSavingsCents,
  getPlanPriceCents,
  shownFeatureCount,
  sortPlansByPrice,
  type BillingPeriod,
} from './pricing';

const faqs = [
  {
    question: 'Can I change my plan later?',
    answer:
      'Yes. Upgrades take effect immediately, so new limits apply at once. Downgrades take effect at the next billing cycle.',
  },
  {
    question: 'How does annual billing work?',
    answer: 'You pay for 10 months and get 12: two months free compared with paying monthly.',
  },
  {
    question: 'What happens when I reach my plan limit?',
    answer: 'You cannot add more websites than your plan allows. Upgrade your plan to add more.',
  },
  {
    question: 'Is the service GDPR and CCPA compliant?',
    answer:
      'Visitors are only identified after they consent, and every choice is recorded with its time so you can prove it later.',
  },
  {
    question: 'How long does data enrichment take?',
    answer: 'Business contact details for visitors who accepted may take up to 24 hours to appear.',
  },
];

export function PricingPage() {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const plansQuery = useQuery(subscriptionPlansQueryOptions());

  return (
    <div className="flex min-h-screen flex-col">
      <PublicHeader />
      <main className="flex-1">
        <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <div className="mb-10 flex flex-col items-center gap-4 text-center">
            <h1 className="text-4xl font-bold tracking-tight">Simple, transparent pricing</h1>
            <p className="max-w-2xl text-lg text-muted-foreground">
              Start free and upgrade as you grow. Already a customer?{' '}
              <a href="/api/login" className="font-medium text-primary underline-offset-4 hover:underline">
                Sign in
              </a>
            </p>
            <div className="flex items-center gap-3">
              <span className={cn('text-sm font-medium', period === 'monthly' && 'text-primary')}>Monthly</span>
              <Switch
                id="billing-period"
                aria-label="Annual billing"
                checked={period === 'annual'}
                onCheckedChange={(checked) => setPeriod(checked ? 'annual' : 'monthly')}
              />
              <span className={cn('text-sm font-medium', period === 'annual' && 'text-primary')}>Annual</span>
              <Badge variant="success">2 months free</Badge>
            </div>
          </div>

          {plansQuery.isPending ? (
            <p className="text-center text-muted-foreground">Loading...</p>
          ) : plansQuery.isError ? (
            <p role="alert" className="text-center text-muted-foreground">
              Plans could not be loaded. Please try again later.
            </p>
          ) : plansQuery.data.length === 0 ? (
            <p className="text-center text-muted-foreground">No data available</p>
          ) : (
            <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-4">
              {sortPlansByPrice(plansQuery.data).map((plan) => (
                <PlanCard key={plan.id} plan={plan} period={period} />
              ))}
            </div>
          )}
        </section>

        <section id="faq" aria-labelledby="faq-title" className="scroll-mt-20 bg-muted/40">
          <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
            <h2 id="faq-title" className="mb-8 text-center text-3xl font-bold">
              Frequently asked questions
            </h2>
            <div className="space-y-3">
              {faqs.map(({ question, answer }) => (
                <details key={question} className="group rounded-lg border bg-background p-4">
                  <summary className="cursor-pointer font-medium">{question}</summary>
                  <p className="mt-2 text-muted-foreground">{answer}</p>
                </details>
              ))}
            </div>
          </div>
        </section>
      </main>
      <PublicFooter />
    </div>
  );
}

function PlanCard({ plan, period }: { plan: SubscriptionPlan; period: BillingPeriod }) {
  const featured = plan.name === featuredPlanName;
  const priceCents = getPlanPriceCents(plan.price, period);
  const dataTypes = formatDataTypes(plan.dataTypes);
  const perResolution = formatPerResolution(plan.perResolutionCents);

  return (
    <Card
      aria-label={plan.displayName}
      className={cn('relative flex flex-col', featured && 'border-2 border-primary shadow-lg')}
    >
      {featured ? (
        <Badge className="absolute -top-3 left-1/2 -translate-x-1/2">Most Popular</Badge>
      ) : null}
      <CardHeader>
        <CardTitle>{plan.displayName}</CardTitle>
        {plan.description ? <CardDescription>{plan.description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <div>
          <p>
            <span className="text-4xl font-bold" data-testid="plan-price">
              {formatPrice(priceCents)}
            </span>
            <span className="text-muted-foreground">{period === 'annual' ? '/year' : '/month'}</span>
          </p>
          {period === 'annual' && plan.price > 0 ? (
            <p className="text-sm font-medium text-green-700">Save {formatPrice(getAnnualSavingsCents(plan.price))} per year</p>
          ) : null}
        </div>
        <ul className="space-y-1 text-sm">
          <li>
            {formatNumber(plan.maxWebsites)} {plan.maxWebsites === 1 ? 'website' : 'websites'}
          </li>
          <li>{formatNumber(plan.maxConsentsPerMonth)} consents per month</li>
          {dataTypes ? <li>Data types: {dataTypes}</li> : null}
          {perResolution ? <li>{perResolution}</li> : null}
        </ul>
        <ul className="space-y-2 text-sm" aria-label={`${plan.displayName} features`}>
          {plan.features.slice(0, shownFeatureCount).map((feature) => (
            <li key={feature} className="flex gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-green-600" aria-hidden />
              {feature}
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        <Button asChild className="w-full" variant={featured ? 'default' : 'outline'}>
          <a href="/api/login">Get Started</a>
        </Button>
      </CardFooter>
    </Card>
  );
}
