import { describe, expect, it } from 'vitest';
import { exampleEventData } from './examples';
import { SubscriptionPlanPublished, SubscriptionPlanPublishedData } from './plan';
import { failuresOf, text } from './test-helpers';

describe('a subscription plan being published', () => {
  const valid = exampleEventData.SubscriptionPlanPublished;

  it('parses', () => {
    expect(SubscriptionPlanPublished.schema.parse(valid)).toEqual(valid);
    expect(SubscriptionPlanPublished.category).toBe('plan');
  });

  it('parses 30 features of 200 characters and a price of 0', () => {
    const features = Array.from({ length: 30 }, () => text(200));
    expect(failuresOf(SubscriptionPlanPublishedData, { ...valid, features, priceCents: 0 })).toEqual([]);
  });

  it.each([
    ['planId', 'starter', 'Invalid option: expected one of "free"|"basic"|"pro"|"business"'],
    ['displayName', text(101), 'Too big: expected string to have <=100 characters'],
    ['description', text(501), 'Too big: expected string to have <=500 characters'],
    ['priceCents', -1, 'Too small: expected number to be >=0'],
    ['priceCents', 100_000_001, 'Too big: expected number to be <=100000000'],
    ['priceCents', 9.99, 'Invalid input: expected int, received number'],
    ['maxWebsites', 10_001, 'Too big: expected number to be <=10000'],
    ['features', Array.from({ length: 31 }, () => 'Feature'), 'Too big: expected array to have <=30 items'],
  ])('refuses %s = %j', (field, value, message) => {
    expect(failuresOf(SubscriptionPlanPublishedData, { ...valid, [field]: value })).toEqual([{ path: field, message }]);
  });

  it('refuses a feature longer than 200 characters, naming its position', () => {
    const features = ['Up to 10 websites', text(201)];
    expect(failuresOf(SubscriptionPlanPublishedData, { ...valid, features })).toEqual([
      { path: 'features.[1]', message: 'Too big: expected string to have <=200 characters' },
    ]);
  });
});
