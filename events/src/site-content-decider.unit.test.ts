// The site-content decider as given / when / then: every save of the public site's content is
// recorded whole, as the admin who saved it.
import { describe, it } from 'vitest';
import { defaultSiteContent } from './site-content';
import { siteContentDecider } from './site-content-decider';
import { deciderSpec } from './testing/decider-spec';

const { when } = deciderSpec(siteContentDecider);
const now = '2024-05-01T10:00:00.000Z';

describe('when an admin saves the site content', () => {
  it('records every field, who saved it and when', () => {
    const content = { ...defaultSiteContent, heroTitle: 'Consent, recorded' };
    when({ type: 'ChangeSiteContent', data: { content, changedBy: 'root' }, metadata: { now } }).then([
      { type: 'SiteContentChanged', data: { ...content, changedBy: 'root', changedAt: now } },
    ]);
  });
});
