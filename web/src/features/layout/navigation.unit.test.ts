// The sidebar, organised around websites: owners get Overview, Websites, Leads and Account, and no
// per-website item (those are tabs of a website's page); admins keep their admin items.
import { describe, expect, it } from 'vitest';
import { getNavigation } from './navigation';

describe('the navigation', () => {
  it('gives owners Overview (all websites), Websites, Leads and Account, in that order', () => {
    expect(getNavigation('user').map(({ label, to }) => ({ label, to }))).toEqual([
      { label: 'Overview', to: '/dashboard' },
      { label: 'Websites', to: '/websites' },
      { label: 'Leads', to: '/leads' },
      { label: 'Account', to: '/account' },
    ]);
  });

  it('has no item for what is now a tab of a website’s page', () => {
    const labels = [...getNavigation('user'), ...getNavigation('admin')].map((item) => item.label);
    for (const tab of ['Website Analytics', 'Analytics & Consent', 'Recommendations', 'Export', 'Installation', 'Setup Guide']) {
      expect(labels).not.toContain(tab);
    }
  });

  it('marks Websites current on a website’s page, which lies under /websites', () => {
    expect(getNavigation('user').find((item) => item.label === 'Websites')).toMatchObject({ includesNested: true });
  });

  it('keeps the admin items, and no owner Account item, in admin mode', () => {
    expect(getNavigation('admin').map(({ label, to }) => ({ label, to }))).toEqual([
      { label: 'Dashboard', to: '/admin' },
      { label: 'Websites', to: '/admin/websites' },
      { label: 'Leads', to: '/leads' },
      { label: 'Settings', to: '/admin/settings' },
      { label: 'Website Editor', to: '/website-editor' },
      { label: 'User Management', to: '/user-management' },
    ]);
  });
});
