// Who is offered Add Website: websites belong to owner accounts, so an owner is, and an admin signed in
// without an owner account (whom the api would refuse with 403 OWNER_ACCOUNT_REQUIRED) is not.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { jsonResponse, renderInApp, stubFetch } from '../../test/render';
import { WebsitesPage } from './websites-page';

const website = { id: 'w1', name: 'Shop', domain: 'shop.example', isActive: true, embedCode: 'emb_1', createdAt: '2024-05-01T12:00:00Z' };

function signedIn(session: { user?: object | null; admin?: object | null }) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(['auth', 'user'], session.user ?? null);
  queryClient.setQueryData(['admin', 'me'], session.admin ?? null);
  return queryClient;
}

describe('websites page', () => {
  describe('for an owner', () => {
    it('offers Add Your First Website when there are none, then Add Website', async () => {
      const websites: unknown[] = [];
      stubFetch({ 'GET /api/websites': () => jsonResponse(websites) });
      const queryClient = signedIn({ user: { id: 'u1', email: 'owner@shop.example' } });
      renderInApp(<WebsitesPage />, queryClient);
      expect(await screen.findByText('No websites yet')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Add Your First Website' })).toBeInTheDocument();

      websites.push(website);
      await queryClient.invalidateQueries({ queryKey: ['websites'] });
      expect(await screen.findByRole('article', { name: 'Shop' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Add Website' })).toBeInTheDocument();
    });
  });

  describe('for an admin without an owner account', () => {
    it("lists every owner's websites without Add Website", async () => {
      stubFetch({ 'GET /api/websites': () => jsonResponse([website]) });
      renderInApp(<WebsitesPage />, signedIn({ admin: { username: 'admin' } }));
      expect(await screen.findByRole('article', { name: 'Shop' })).toBeInTheDocument();
      expect(screen.getByText("Every owner's websites and their consent banners.")).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Add (Your First )?Website/ })).not.toBeInTheDocument();
    });

    it('points to User Management instead of an add button when there are none', async () => {
      stubFetch({ 'GET /api/websites': () => jsonResponse([]) });
      renderInApp(<WebsitesPage />, signedIn({ admin: { username: 'admin' } }));
      expect(await screen.findByText('No websites yet')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Open User Management' })).toHaveAttribute('href', '/user-management');
      expect(screen.queryByRole('button', { name: 'Add Your First Website' })).not.toBeInTheDocument();
    });
  });
});
