// The two branding cards: an owner's banner branding (GET/PUT /api/branding) and the installation's
// (GET/PUT /api/admin/branding, admins). The form fills from the loaded values (spec section 4) and a
// refused logo shows the api's reason.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { BrandingCard } from './branding-card';

const saved = { companyName: 'Example Shop', primaryColor: '#0f766e', logoUrl: null };

describe('branding card', () => {
  describe("for an owner's banner", () => {
    it('fills from /api/branding and saves there', async () => {
      const { requests } = stubFetch({
        'GET /api/branding': () => jsonResponse(saved),
        'PUT /api/branding': () => jsonResponse({ ...saved, companyName: 'Example Shop GmbH' }),
      });
      const { queryClient } = renderInApp(<BrandingCard scope="owner" />);
      queryClient.setQueryData(['branding', 'public'], { companyName: 'Consentry' });
      const card = await screen.findByRole('region', { name: 'Banner branding' });
      const companyName = await screen.findByLabelText('Company name');
      // The form fills once the branding has loaded.
      await waitFor(() => expect(companyName).toHaveValue('Example Shop'));
      expect(screen.getByLabelText('Primary color')).toHaveValue('#0f766e');

      const user = userEvent.setup();
      await user.clear(companyName);
      await user.type(companyName, '  Example Shop GmbH ');
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));

      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      expect(requests.find((request) => request.method === 'PUT')).toMatchObject({
        url: '/api/branding',
        body: { companyName: 'Example Shop GmbH', primaryColor: '#0f766e', logoUrl: null },
      });
      // The installation's branding is not the owner's: its cached copy stays valid.
      expect(queryClient.getQueryState(['branding', 'public'])?.isInvalidated).toBe(false);
      expect(card).toBeInTheDocument();
    });

    it("shows 'Upload Failed' with the api's reason when a logo is refused", async () => {
      stubFetch({
        'GET /api/branding': () => jsonResponse(saved),
        'PUT /api/branding': () =>
          jsonResponse({ error: { code: 'INVALID_FILE_TYPE', message: 'The logo must be a PNG, JPEG, GIF, WebP or SVG image' } }, 400),
      });
      const { container } = renderInApp(<BrandingCard scope="owner" />);
      await screen.findByLabelText('Company name');
      const file = new File(['not really an image'], 'logo.png', { type: 'image/png' });
      const input = container.ownerDocument.querySelector<HTMLInputElement>('input[type="file"]');
      if (!input) throw new Error('no file input');
      await userEvent.setup().upload(input, file);

      expect(await screen.findByText('Upload Failed')).toBeInTheDocument();
      expect(screen.getByText('The logo must be a PNG, JPEG, GIF, WebP or SVG image')).toBeInTheDocument();
    });
  });

  describe("for the installation (admins)", () => {
    it('fills from /api/admin/branding, saves there and refreshes the public copy', async () => {
      const { requests } = stubFetch({
        'GET /api/admin/branding': () => jsonResponse({ companyName: 'Consentry', primaryColor: '#2563eb', logoUrl: null }),
        'PUT /api/admin/branding': () => jsonResponse({ companyName: 'Acme Consent', primaryColor: '#2563eb', logoUrl: null }),
      });
      const { queryClient } = renderInApp(<BrandingCard scope="installation" />);
      queryClient.setQueryData(['branding', 'public'], { companyName: 'Consentry' });
      expect(await screen.findByRole('region', { name: 'Installation branding' })).toBeInTheDocument();
      const companyName = await screen.findByLabelText('Company name');
      await waitFor(() => expect(companyName).toHaveValue('Consentry'));

      const user = userEvent.setup();
      await user.clear(companyName);
      await user.type(companyName, 'Acme Consent');
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));

      expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
      expect(requests.find((request) => request.method === 'PUT')).toMatchObject({ url: '/api/admin/branding', body: { companyName: 'Acme Consent' } });
      expect(queryClient.getQueryState(['branding', 'public'])?.isInvalidated).toBe(true);
    });
  });
});
