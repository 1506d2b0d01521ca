// Settings → Privacy (issue 5): the retention period and IP address storage of the chosen website,
// read from and saved to its settings; with several websites the owner picks which.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { PrivacyCard } from './privacy-card';

const saved = {
  retentionMonths: 24,
  ipAddressMode: 'truncated',
  bannerPosition: 'bottom',
  bannerTheme: 'light',
  policyVersion: '1',
  privacyPolicyUrl: null,
  purposes: ['preferences', 'analytics', 'marketing'],
  services: [],
  consentLifetimeMonths: 12,
};

describe('Settings → Privacy', () => {
  const websites = [
    { id: 'w1', name: 'Shop', domain: 'shop.example', isActive: true, embedCode: 'emb_1', createdAt: '2024-05-01T10:00:00Z' },
    { id: 'w2', name: 'Blog', domain: 'blog.example', isActive: true, embedCode: 'emb_2', createdAt: '2024-05-02T10:00:00Z' },
  ];

  it("starts with the first website and loads another's settings when it is picked", async () => {
    stubFetch({
      'GET /api/websites/w1/settings': () => jsonResponse(saved),
      'GET /api/websites/w2/settings': () => jsonResponse({ ...saved, retentionMonths: 6, ipAddressMode: 'full' }),
      'GET /api/websites': () => jsonResponse(websites),
    });
    renderInApp(<PrivacyCard />);
    expect(await screen.findByRole('region', { name: 'Privacy' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Retention period (months)')).toHaveValue('24');
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Website' }));
    await user.click(await screen.findByRole('option', { name: 'Blog (blog.example)' }));
    expect(await screen.findByDisplayValue('6')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Keep IP addresses truncated' })).not.toBeChecked();
  });

  it('names the only website instead of offering a choice', async () => {
    stubFetch({
      'GET /api/websites/w1/settings': () => jsonResponse(saved),
      'GET /api/websites': () => jsonResponse([websites[0]]),
    });
    renderInApp(<PrivacyCard />);
    expect(await screen.findByText('Shop (shop.example)')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Website' })).not.toBeInTheDocument();
    expect(await screen.findByLabelText('Retention period (months)')).toHaveValue('24');
  });
});
