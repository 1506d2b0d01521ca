// The branding decider as given / when / then: every save is recorded whole, for an owner or the
// installation, whatever was saved before (the last save wins).
import { describe, it } from 'vitest';
import { brandingDecider } from './branding-decider';
import { deciderSpec } from './testing/decider-spec';

const { given, when } = deciderSpec(brandingDecider);
const ownerId = '0b7e6c5d-4f3a-4b2c-9d1e-8f7a6b5c4d3e';
const now = '2024-05-01T10:00:00.000Z';
const settings = { companyName: 'Bakery', primaryColor: '#112233', logoUrl: null };

describe('when branding is saved', () => {
  it("records an owner's whole branding", () => {
    when({ type: 'ChangeBranding', data: { ownerId, settings, changedBy: ownerId }, metadata: { now } }).then([
      { type: 'BrandingChanged', data: { ...settings, ownerId, changedBy: ownerId, changedAt: now } },
    ]);
  });

  it("records the installation's over an earlier save", () => {
    given([{ type: 'BrandingChanged', data: { ...settings, ownerId: null, changedBy: 'root', changedAt: '2024-01-01T00:00:00.000Z' } }])
      .when({ type: 'ChangeBranding', data: { ownerId: null, settings: { ...settings, companyName: 'Consentry' }, changedBy: 'root' }, metadata: { now } })
      .then([{ type: 'BrandingChanged', data: { ...settings, companyName: 'Consentry', ownerId: null, changedBy: 'root', changedAt: now } }]);
  });
});
