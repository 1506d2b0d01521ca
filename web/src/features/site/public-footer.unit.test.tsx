// The public pages' footer: its Login link goes to the owners' sign-in, and the copyright is this year's.
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { PublicFooter } from './public-footer';

afterEach(() => {
  vi.useRealTimers();
});

describe('public footer', () => {
  it('links Login to the owners’ sign-in and shows this year’s copyright', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-04T12:00:00Z'));
    stubFetch({
      'GET /api/site/branding': () => jsonResponse({ companyName: 'Acme Consent', primaryColor: '#2563eb', logoUrl: null }),
      'GET /api/site/content': () => jsonResponse({}),
    });
    renderInApp(<PublicFooter />);
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(await within(footer).findByText('© 2031 Acme Consent. All rights reserved.')).toBeInTheDocument();
  });
});
