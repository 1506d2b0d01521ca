// The sidebar: owners reach their Account page from it; admins (who change their password at
// /admin/password) do not get the owner's Account item.
import { describe, expect, it } from 'vitest';
import { getNavigation } from './navigation';

describe('the navigation', () => {
  it('lists Account for owners, after the spec’s items', () => {
    const items = getNavigation('user');
    expect(items.at(-1)).toMatchObject({ label: 'Account', to: '/account' });
  });

  it('has no owner Account item in admin mode', () => {
    expect(getNavigation('admin').map((item) => item.label)).not.toContain('Account');
  });
});
