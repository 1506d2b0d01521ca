// Tier, website limit and monthly consent limit fields shared by the edit and invite forms. Choosing
// a tier copies that plan's limits into the form (spec section 4); the limits stay editable.
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import type { SubscriptionPlan } from '../subscription/queries';
import { getTierLabel, subscriptionTiers, type SubscriptionTier } from './queries';

export interface TierLimits {
  subscriptionTier: SubscriptionTier;
  maxWebsites: number;
  maxConsentsPerMonth: number;
}

export function applyTier<T extends TierLimits>(form: T, tier: SubscriptionTier, plans: SubscriptionPlan[]): T {
  const plan = plans.find((item) => item.name === tier);
  return plan
    ? { ...form, subscriptionTier: tier, maxWebsites: plan.maxWebsites, maxConsentsPerMonth: plan.maxConsentsPerMonth }
    : { ...form, subscriptionTier: tier };
}

function parseWholeNumber(value: string): number {
  const parsed = Number.parseInt(value, 10);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : 0;
}

export function TierFields<T extends TierLimits>({
  idPrefix,
  form,
  plans,
  onChange,
}: {
  idPrefix: string;
  form: T;
  plans: SubscriptionPlan[];
  onChange: (next: T) => void;
}) {
  return (
    <>
      <div className="space-y-2">
        <Label htmlFor={`${idPrefix}-tier`}>Subscription tier</Label>
        <Select
          value={form.subscriptionTier}
          onValueChange={(value) => {
            const tier = subscriptionTiers.find((item) => item === value);
            if (tier) onChange(applyTier(form, tier, plans));
          }}
        >
          <SelectTrigger id={`${idPrefix}-tier`} aria-label="Subscription tier">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {subscriptionTiers.map((tier) => (
              <SelectItem key={tier} value={tier}>
                {getTierLabel(tier, plans)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={`${idPrefix}-max-websites`}>Max websites</Label>
          <Input
            id={`${idPrefix}-max-websites`}
            type="number"
            min={0}
            step={1}
            required
            value={form.maxWebsites}
            onChange={(event) => onChange({ ...form, maxWebsites: parseWholeNumber(event.target.value) })}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${idPrefix}-max-consents`}>Max consents per month</Label>
          <Input
            id={`${idPrefix}-max-consents`}
            type="number"
            min={0}
            step={1}
            required
            value={form.maxConsentsPerMonth}
            onChange={(event) => onChange({ ...form, maxConsentsPerMonth: parseWholeNumber(event.target.value) })}
          />
        </div>
      </div>
    </>
  );
}
