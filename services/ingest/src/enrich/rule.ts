// The consent rule that applies to a visitor of a website: the visitor's region (from where they are)
// and the website's rule for it. One function for the widget's rule request and the consent event, so
// what the banner did and what the ledger records agree.
import { appliedRuleFor, regionOf, ruleForRegion, type AppliedRule } from '@consentry/events';
import type { Website } from '@consentry/projections';
import type { Location } from './geo';

export function ruleFor(website: Pick<Website, 'regionRules' | 'forceOptIn'>, location: Location): AppliedRule {
  const region = regionOf(location.country, location.subdivision);
  return appliedRuleFor(region, ruleForRegion(region, website));
}
