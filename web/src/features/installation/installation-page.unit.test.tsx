// Verify Installation with no website chosen says so (spec: 'Missing Information'), and that message
// goes as soon as a website is chosen: it no longer applies.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { InstallationPage } from './installation-page';

const website = { id: 'w1', name: 'Shop', domain: 'shop.example', isActive: true, embedCode: 'emb_1', createdAt: '2024-05-01T12:00:00Z' };

describe('the installation page', () => {
  it("takes back 'Missing Information' once a website is chosen", async () => {
    stubFetch({
      'GET /api/websites': () => jsonResponse([website]),
      'GET /api/branding': () => jsonResponse({ companyName: 'Shop', primaryColor: '#2563eb', logoUrl: null }),
    });
    const queryClient = createQueryClient();
    queryClient.setQueryData(['auth', 'user'], { id: 'u1', email: 'owner@shop.example' });
    queryClient.setQueryData(['admin', 'me'], null);
    renderInApp(<InstallationPage />, queryClient);
    const user = userEvent.setup();
    // Where the list is depends on the width (beside or above): the hint names it instead.
    expect(await screen.findByText('Choose one of Your Websites to see its installation code.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Verify Installation' }));
    expect(await screen.findByText('Please select a website to verify.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: /Shop/ }));
    // At once, well before the toast's own 5 s would close it.
    await waitFor(() => expect(screen.queryByText('Please select a website to verify.')).not.toBeInTheDocument(), { timeout: 1500 });
  });
});
